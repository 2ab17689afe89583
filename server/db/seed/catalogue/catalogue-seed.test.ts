// The catalogue seed on a real migrated database (SQLite, or PostgreSQL with
// TEST_DATABASE_URL): the requirements of the catalogue issue, checked by
// querying what was written.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELISTED_CHANNEL, DELISTED_STATUS } from '../../../../common/catalogue.ts';
import { createTestDatabase, type TestDatabase } from '../../../test-support/test-app.ts';
import type { DatabaseHandle } from '../../database.ts';
import { hasFlag } from './countries.ts';
import { type CatalogueSeedResult, seedCatalogue } from './index.ts';
import { MAINLAND_PROVINCES } from './provinces.ts';

const NOW = Date.UTC(2026, 10, 21, 8, 0, 0);
const YEAR = 365 * 24 * 60 * 60 * 1000;

let testDb: TestDatabase;
let handle: DatabaseHandle;
let result: CatalogueSeedResult;

beforeAll(async () => {
  testDb = await createTestDatabase();
  handle = testDb.open();
  const started = performance.now();
  result = await seedCatalogue(handle.db, NOW);
  console.log(`catalogue seed on ${testDb.kind}: ${Math.round(performance.now() - started)} ms`, result);
});

afterAll(async () => {
  await handle?.destroy();
  await testDb?.drop();
});

const db = () => handle.db;

async function count(table: 'visa_country' | 'visa_product' | 'visa_product_material' | 'visa_product_review' | 'consular_district'): Promise<number> {
  const row = await db()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A digest of the products and reviews, ids left out: what determinism promises. */
async function digest(handleToRead: DatabaseHandle): Promise<string> {
  const products = await handleToRead.db
    .selectFrom('visa_product')
    .select(['product_special_desc', 'sell_price', 'distributor_discount_price', 'pass_rate', 'reminder', 'entry_times', 'status', 'channel'])
    .orderBy('visa_product_id')
    .execute();
  const reviews = await handleToRead.db
    .selectFrom('visa_product_review')
    .select(['nickname', 'mobile_phone', 'score', 'content', 'platform', 'create_time'])
    .orderBy('review_id')
    .execute();
  return createHash('sha256').update(JSON.stringify({ products, reviews })).digest('hex');
}

describe('catalogue seed', () => {
  it('reports what it wrote', async () => {
    expect(result.countries).toBe(await count('visa_country'));
    expect(result.products).toBe(await count('visa_product'));
    expect(result.materials).toBe(await count('visa_product_material'));
    expect(result.reviews).toBe(await count('visa_product_review'));
    expect(result.districts).toBe(await count('consular_district'));
    expect(result.countries).toBeGreaterThanOrEqual(60);
    expect(result.products).toBeGreaterThanOrEqual(200);
  });

  it('seeds the five continents and countries on each of them, popular ones first', async () => {
    const continents = await db().selectFrom('continent').selectAll().orderBy('sort').execute();
    expect(continents.map((c) => [c.continent_id, c.name])).toEqual([
      [0, '亚洲'],
      [1, '欧洲'],
      [2, '美洲'],
      [3, '大洋洲'],
      [4, '非洲'],
    ]);
    const countries = await db().selectFrom('visa_country').selectAll().orderBy('hot', 'desc').execute();
    expect(new Set(countries.map((c) => c.continent_id))).toEqual(new Set([0, 1, 2, 3, 4]));
    for (const country of countries) {
      expect(country.iso_code).toMatch(/^[A-Z]{2}$/);
      expect(hasFlag(country.iso_code)).toBe(true);
      expect(country.description).toContain(`${country.name}签证办理`);
      expect(country.status).toBe(0);
    }
    const byIso = new Map(countries.map((c) => [c.iso_code, c]));
    expect(byIso.get('JP')?.name).toBe('日本');
    expect(byIso.get('US')?.continent_id).toBe(2);
    expect(byIso.get('BR')?.continent_id).toBe(2);
    expect(byIso.get('AU')?.continent_id).toBe(3);
    expect(byIso.get('EG')?.continent_id).toBe(4);
    expect(byIso.get('FR')?.continent_id).toBe(1);
    const top = countries.slice(0, 18).map((c) => c.iso_code);
    for (const iso of ['JP', 'KR', 'TH', 'SG', 'US', 'GB', 'FR', 'DE', 'IT', 'ES', 'AU', 'NZ', 'CA', 'MY', 'VN', 'AE', 'TR', 'EG']) expect(top).toContain(iso);
    expect(countries[0]?.iso_code).toBe('JP');
  });

  it('gives every country with districts the 31 mainland provinces exactly once', async () => {
    const rows = await db()
      .selectFrom('consular_district_province')
      .innerJoin('consular_district', 'consular_district.consular_district_id', 'consular_district_province.consular_district_id')
      .innerJoin('visa_country', 'visa_country.visa_country_id', 'consular_district.visa_country_id')
      .select(['visa_country.iso_code', 'consular_district_province.province_code'])
      .execute();
    const byCountry = new Map<string, string[]>();
    for (const row of rows) byCountry.set(row.iso_code, [...(byCountry.get(row.iso_code) ?? []), row.province_code]);
    const mainland = MAINLAND_PROVINCES.map((p) => p.code).sort();
    expect(mainland).toHaveLength(31);
    expect(mainland).not.toContain('810000');
    for (const [iso, codes] of byCountry) expect([iso, [...codes].sort()]).toEqual([iso, mainland]);

    const districts = await db()
      .selectFrom('consular_district')
      .innerJoin('visa_country', 'visa_country.visa_country_id', 'consular_district.visa_country_id')
      .select(['visa_country.iso_code', 'consular_district.name', 'consular_district.city'])
      .execute();
    const districtCount = (iso: string) => districts.filter((d) => d.iso_code === iso).length;
    for (const iso of ['US', 'JP', 'GB', 'CA', 'AU', 'DE', 'FR', 'IT', 'KR']) expect(districtCount(iso), iso).toBeGreaterThan(1);
    expect(
      districts
        .filter((d) => d.iso_code === 'US')
        .map((d) => d.city)
        .sort(),
    ).toEqual(['上海', '北京', '广州', '武汉', '沈阳'].sort());
    expect(districts.filter((d) => d.iso_code === 'BE').map((d) => d.name)).toEqual(['北京领区']);
    expect(districtCount('TH')).toBe(0);
    // Products of a district cover the district's name.
    const perDistrict = await db()
      .selectFrom('visa_product')
      .innerJoin('consular_district', 'consular_district.consular_district_id', 'visa_product.consular_district_id')
      .select(['visa_product.product_special_desc', 'consular_district.name'])
      .execute();
    expect(perDistrict.length).toBeGreaterThan(50);
    for (const product of perDistrict) expect(product.product_special_desc).toContain(product.name);
  });

  it('sells realistic products, some delisted by status or channel, some mini-program only', async () => {
    const products = await db().selectFrom('visa_product').selectAll().execute();
    const delistedByStatus = products.filter((p) => p.status === DELISTED_STATUS);
    const delistedByChannel = products.filter((p) => p.channel === DELISTED_CHANNEL);
    expect(delistedByStatus.length).toBeGreaterThanOrEqual(4);
    expect(delistedByChannel.length).toBeGreaterThanOrEqual(2);
    for (const p of delistedByChannel) expect(p.status).toBe(0);
    for (const p of products.filter((p) => p.status !== DELISTED_STATUS && p.channel !== DELISTED_CHANNEL)) expect([p.status, p.channel]).toEqual([0, 0]);
    expect(products.filter((p) => p.offline === 0).length).toBeGreaterThanOrEqual(5);
    expect(products.filter((p) => p.need_interview === 1).length).toBeGreaterThan(20);
    expect(products.filter((p) => p.reject_refund === 1).length).toBeGreaterThan(5);
    expect(products.filter((p) => p.distributor_discount_price !== null).length).toBeGreaterThan(20);
    expect(products.filter((p) => p.visa_photo_id === 0).length).toBeGreaterThan(0);
    for (const p of products) {
      expect(p.pass_rate).toBeGreaterThanOrEqual(9000);
      expect(p.pass_rate).toBeLessThanOrEqual(9990);
      expect(p.updated_at).toBe(NOW);
      expect([0, 1, 2]).toContain(p.entry_times);
      expect(p.sell_price).toBeGreaterThan(10000);
      expect(p.need_days_detail).toMatch(/个工作日/);
      expect(p.reminder.length).toBeGreaterThan(60);
      if (p.distributor_discount_price !== null) {
        expect(p.distributor_discount_price).toBeLessThan(p.sell_price);
        expect(p.distributor_discount_desc).toMatch(/价$/);
      }
    }
    const photoIds = new Set((await db().selectFrom('photo_param').select('visa_photo_id').execute()).map((r) => r.visa_photo_id));
    for (const p of products.filter((p) => p.visa_photo_id !== 0)) expect(photoIds.has(p.visa_photo_id)).toBe(true);
    const us = await db()
      .selectFrom('visa_product')
      .innerJoin('visa_country', 'visa_country.visa_country_id', 'visa_product.visa_country_id')
      .innerJoin('photo_param', 'photo_param.visa_photo_id', 'visa_product.visa_photo_id')
      .select(['visa_product.sell_price', 'visa_product.need_interview', 'photo_param.width', 'photo_param.height', 'photo_param.color'])
      .where('visa_country.iso_code', '=', 'US')
      .where('visa_product.product_special_desc', 'like', 'B1/B2 十年多次 · %')
      .execute();
    expect(us).toHaveLength(5);
    for (const p of us) expect(p).toMatchObject({ need_interview: 1, width: 51, height: 51, color: 1 });
    for (const p of us) expect(p.sell_price).toBeGreaterThanOrEqual(160000);
  });

  it('describes every product: fee details first, features, procedure icons, 4–7 steps, tags', async () => {
    const ids = (await db().selectFrom('visa_product').select('visa_product_id').execute()).map((r) => r.visa_product_id);
    const basic = await db().selectFrom('visa_product_basic_info').selectAll().orderBy('visa_product_id').orderBy('sort').execute();
    const feats = await db().selectFrom('visa_product_feature').selectAll().execute();
    const procs = await db().selectFrom('visa_product_procedure').selectAll().execute();
    const steps = await db().selectFrom('visa_product_process_step').selectAll().execute();
    const tags = await db().selectFrom('visa_product_tag').selectAll().execute();
    for (const id of ids) {
      const own = basic.filter((b) => b.visa_product_id === id);
      expect(own[0]?.title).toBe('费用说明');
      expect(own[0]?.content).toMatch(/^费用包含/);
      expect(own.map((b) => b.title)).toEqual(expect.arrayContaining(['签证类型', '入境次数', '停留天数', '有效期', '办理时长', '受理范围', '是否面试']));
      const stepCount = steps.filter((s) => s.visa_product_id === id).length;
      expect(stepCount).toBeGreaterThanOrEqual(4);
      expect(stepCount).toBeLessThanOrEqual(7);
      expect(procs.filter((p) => p.visa_product_id === id).length).toBeGreaterThanOrEqual(4);
      expect(feats.filter((f) => f.visa_product_id === id).length).toBeGreaterThan(0);
    }
    for (const p of procs) expect(['form', 'upload', 'review', 'submit', 'interview', 'visa', 'express']).toContain(p.icon);
    expect(feats.some((f) => f.type === 0 && f.num === 0)).toBe(true);
    expect(feats.some((f) => f.type === 0 && f.num > 0 && f.unit === '个工作日')).toBe(true);
    expect(feats.some((f) => f.type === 1 && f.unit === '免面试')).toBe(true);
    const tagNames = await db().selectFrom('visa_tag').select(['tag_id', 'name']).execute();
    const used = new Set(tags.map((t) => tagNames.find((n) => n.tag_id === t.tag_id)?.name));
    for (const name of ['热门', '免面试', '电子签', '多次往返', '加急办理', '拒签退款', '老人儿童友好']) expect(used).toContain(name);
  });

  it('lists materials for all five identities of every product, with samples that exist', async () => {
    const materials = await db().selectFrom('visa_product_material').selectAll().execute();
    const products = await db().selectFrom('visa_product').select(['visa_product_id', 'need_interview', 'visa_photo_id']).execute();
    const byProduct = new Map<number, typeof materials>();
    for (const m of materials) byProduct.set(m.visa_product_id, [...(byProduct.get(m.visa_product_id) ?? []), m]);
    for (const product of products) {
      const own = byProduct.get(product.visa_product_id) ?? [];
      for (const identity of [0, 1, 2, 3, 4]) {
        const items = own.filter((m) => m.identity_id === identity);
        expect(items.length, `product ${product.visa_product_id} identity ${identity}`).toBeGreaterThan(1);
        expect(items.some((m) => m.required === 1)).toBe(true);
        expect(new Set(items.map((m) => m.sort)).size).toBe(items.length);
      }
      // Applicants who go in person bring things; everything else is uploaded or mailed.
      if (product.need_interview === 1) expect(new Set(own.map((m) => m.attr))).toEqual(new Set([0, 1, 2]));
      // The photo is the product's photo item (visa_photo_id, spec 2.2), never a second material.
      expect(own.some((m) => m.name === '签证照片')).toBe(false);
    }
    expect(new Set(materials.map((m) => m.required))).toEqual(new Set([0, 1]));
    expect(new Set(materials.map((m) => m.attr))).toEqual(new Set([0, 1, 2]));
    const names = new Set(materials.map((m) => m.name));
    for (const name of [
      '护照原件',
      '护照首页扫描件',
      '身份证正反面',
      '户口本',
      '在职证明',
      '营业执照副本复印件',
      '银行流水（近6个月）',
      '存款证明',
      '退休证',
      '在读证明',
      '学生证',
      '出生证明',
      '父母同意书',
    ]) {
      expect(names).toContain(name);
    }
    const retired = materials.filter((m) => m.name === '退休证');
    expect(retired.every((m) => m.identity_id === 2)).toBe(true);
    expect(materials.filter((m) => m.name === '出生证明').every((m) => m.identity_id === 4)).toBe(true);
    expect(materials.every((m) => m.attention.length > 5)).toBe(true);

    const samples = new Set(materials.map((m) => m.sample).filter((s): s is string => s !== null));
    expect(samples.size).toBeGreaterThanOrEqual(8);
    expect(materials.some((m) => m.sample === null)).toBe(true);
    for (const sample of samples) {
      expect(sample).toMatch(/^\/material-samples\/[a-z-]+\.png$/);
      const file = fileURLToPath(new URL(`../../../../public${sample}`, import.meta.url));
      expect(existsSync(file), file).toBe(true);
      expect(statSync(file).size).toBeLessThan(30 * 1024);
      expect(readFileSync(file).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    }
  });

  it('has reviews spread so that pagination and the empty state both show', async () => {
    const reviews = await db().selectFrom('visa_product_review').selectAll().execute();
    const ids = (await db().selectFrom('visa_product').select('visa_product_id').execute()).map((r) => r.visa_product_id);
    const perProduct = ids.map((id) => reviews.filter((r) => r.visa_product_id === id).length);
    expect(perProduct.filter((n) => n > 10).length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...perProduct)).toBeGreaterThanOrEqual(35);
    expect(perProduct.filter((n) => n === 0).length).toBeGreaterThanOrEqual(20);
    for (const review of reviews) {
      expect([3, 4, 5]).toContain(review.score);
      expect(['微信小程序', 'App', '官网']).toContain(review.platform);
      expect(review.create_time).toBeLessThan(NOW);
      expect(review.create_time).toBeGreaterThan(NOW - YEAR);
      expect(review.content.length).toBeGreaterThan(5);
      if (review.mobile_phone !== null) expect(review.mobile_phone).toMatch(/^1[3-9]\d{9}$/);
    }
    expect(reviews.filter((r) => r.score >= 4).length / reviews.length).toBeGreaterThan(0.8);
    expect(reviews.some((r) => r.score === 3)).toBe(true);
    expect(reviews.some((r) => r.nickname === null && r.mobile_phone === null)).toBe(true);
    expect(reviews.some((r) => r.nickname === null && r.mobile_phone !== null)).toBe(true);
    expect(reviews.some((r) => r.nickname !== null)).toBe(true);
  });

  it('seeds nothing the second time', async () => {
    const before = await count('visa_product');
    expect(await seedCatalogue(db(), NOW + 1000)).toEqual({ countries: 0, products: 0, materials: 0, reviews: 0, districts: 0 });
    expect(await count('visa_product')).toBe(before);
  });

  it('writes the same catalogue on another database', async () => {
    const other = await createTestDatabase();
    const otherHandle = other.open();
    try {
      await seedCatalogue(otherHandle.db, NOW);
      expect(await digest(otherHandle)).toBe(await digest(handle));
    } finally {
      await otherHandle.destroy();
      await other.drop();
    }
  });
});
