// The catalogue calls on the seeded catalogue, on SQLite or PostgreSQL.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import jpeg from 'jpeg-js';
import jsQR from 'jsqr';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELISTED_CHANNEL, QRCODE_PAGE, qrcodeScene } from '../../../common/catalogue.ts';
import { seedCatalogue } from '../../db/seed/catalogue/index.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { createMailer } from '../notification/mailer.ts';

const received: Array<{ to: string[]; raw: string }> = [];
let smtp: SMTPServer;
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    secure: false,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  const port = (smtp.server.address() as AddressInfo).port;
  const mailer = createMailer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: '易签通 <no-reply@yiqiantong.example>', OUTBOX_DIR: '/nonexistent' });
  t = await createTestApp(undefined, { mailer, seed: (handle) => seedCatalogue(handle.db, Date.now()) });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function firstId(sql: (db: TestApp['db']) => Promise<{ id: number } | undefined>): Promise<number> {
  const row = await sql(t.db);
  if (!row) throw new Error('the seed has no such product');
  return row.id;
}

const listedWithReviews = () =>
  firstId((db) =>
    db
      .selectFrom('visa_product')
      .innerJoin('visa_product_review', 'visa_product_review.visa_product_id', 'visa_product.visa_product_id')
      .select('visa_product.visa_product_id as id')
      .where('visa_product.status', '=', 0)
      .where('visa_product.channel', '=', 0)
      .groupBy('visa_product.visa_product_id')
      .having((eb) => eb.fn.countAll(), '>', 20)
      .orderBy('visa_product.visa_product_id')
      .executeTakeFirst(),
  );

describe(`catalogue calls (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('lists five continents with their countries, flags and prices', async () => {
    const { body } = await t.call('/www/visa_continent_list');
    expect(body.ret).toBe(0);
    const continents = body.body.continents as Array<{
      continent_id: number;
      countries: Array<{ flag: string; product_count: number; min_price: number | null }>;
    }>;
    expect(continents.map((c) => c.continent_id)).toEqual([0, 1, 2, 3, 4]);
    const countries = continents.flatMap((c) => c.countries);
    expect(countries.length).toBeGreaterThanOrEqual(60);
    for (const continent of continents) expect(continent.countries.length).toBeGreaterThan(0);
    expect(countries[0]!.flag).toMatch(/^\/static\/flags\/4x3\/[a-z]{2}\.svg$/);
    expect(countries.filter((c) => c.product_count > 0).every((c) => (c.min_price ?? 0) > 0)).toBe(true);
  });

  it('gives a country with its consular districts and filters; refuses unknown and non-numeric ids', async () => {
    const us = await t.db.selectFrom('visa_country').select('visa_country_id').where('iso_code', '=', 'US').executeTakeFirstOrThrow();
    const { body } = await t.call('/www/visa_country_get', { visa_country_id: us.visa_country_id });
    expect(body.body.name).toBe('美国');
    expect(body.body.consular_districts.length).toBeGreaterThan(1);
    const provinces = body.body.consular_districts.flatMap((d: { province_codes: string[] }) => d.province_codes);
    expect(provinces).toContain('310000');
    expect(new Set(provinces).size).toBe(provinces.length);
    expect(body.body.visa_types.length).toBeGreaterThan(0);
    // A digit string is read as a number.
    expect((await t.call('/www/visa_country_get', { visa_country_id: String(us.visa_country_id) })).body.ret).toBe(0);
    expect((await t.call('/www/visa_country_get', { visa_country_id: 999999 })).body).toMatchObject({ ret: 1701, msg: '该国家暂无签证产品' });
    expect((await t.call('/www/visa_country_get', { visa_country_id: 'abc' })).body).toMatchObject({ ret: 1001, msg: '参数错误' });
  });

  it('lists a country’s products for the applicant’s province, with tag and visa-type filters, never delisted ones', async () => {
    const us = await t.db.selectFrom('visa_country').select('visa_country_id').where('iso_code', '=', 'US').executeTakeFirstOrThrow();
    const all = (await t.call('/www/visa_product_list', { visa_country_id: us.visa_country_id })).body.body;
    const shanghai = (await t.call('/www/visa_product_list', { visa_country_id: us.visa_country_id, province_code: '310000' })).body.body;
    const beijing = (await t.call('/www/visa_product_list', { visa_country_id: us.visa_country_id, province_code: '110000' })).body.body;
    expect(shanghai.consular_district.name).not.toBe(beijing.consular_district.name);
    for (const list of [shanghai, beijing]) {
      for (const product of list.products) {
        expect(product.consular_district === null || product.consular_district.consular_district_id === list.consular_district.consular_district_id).toBe(true);
      }
    }
    expect(all.products.length).toBeGreaterThanOrEqual(shanghai.products.length);
    expect(all.products.every((p: { delisted: boolean }) => !p.delisted)).toBe(true);

    const visaTypeId = all.products[0].visa_type_id;
    const byType = (await t.call('/www/visa_product_list', { visa_country_id: us.visa_country_id, visa_type_id: visaTypeId })).body.body.products;
    expect(byType.length).toBeGreaterThan(0);
    expect(byType.every((p: { visa_type_id: number }) => p.visa_type_id === visaTypeId)).toBe(true);

    const tagged = all.products.find((p: { tags: unknown[] }) => p.tags.length > 0);
    const tagId = tagged.tags[0].tag_id;
    const byTag = (await t.call('/www/visa_product_list', { visa_country_id: us.visa_country_id, tag_id: tagId })).body.body.products;
    expect(byTag.every((p: { tags: Array<{ tag_id: number }> }) => p.tags.some((tag) => tag.tag_id === tagId))).toBe(true);

    const delisted = await t.db.selectFrom('visa_product').select(['visa_product_id', 'visa_country_id']).where('status', '=', 1).executeTakeFirstOrThrow();
    const listOfDelisted = (await t.call('/www/visa_product_list', { visa_country_id: delisted.visa_country_id })).body.body.products;
    expect(listOfDelisted.some((p: { visa_product_id: number }) => p.visa_product_id === delisted.visa_product_id)).toBe(false);
    expect((await t.call('/www/visa_product_list', { visa_country_id: us.visa_country_id, province_code: 'shanghai' })).body.ret).toBe(1001);
  });

  it('answers the product detail of spec §3', async () => {
    const id = await listedWithReviews();
    const { body } = await t.call('/www/visa_product_detail_get', { visa_product_id: id });
    expect(body.ret).toBe(0);
    const detail = body.body;
    expect(detail).toMatchObject({ visa_product_id: id, status: 0, channel: 0 });
    expect(detail.identity_material.map((m: { identity_id: number }) => m.identity_id)).toEqual([0, 1, 2, 3, 4]);
    for (const identity of detail.identity_material) expect(identity.material_required.length).toBeGreaterThan(0);
    const material = detail.identity_material[0].material_required[0];
    const nameField = ['elec_name', 'paper_name', 'take_along_name'][material.attr];
    expect(typeof material[nameField!]).toBe('string');
    expect(detail.reviews).toBeGreaterThan(20);
    expect(detail.sum_score).toBeGreaterThanOrEqual(detail.reviews);
    expect(detail.sum_score).toBeLessThanOrEqual(detail.reviews * 5);
    expect(detail.basic_info.length).toBeGreaterThan(0);
    expect(detail.handle_process.length).toBeGreaterThan(0);
    expect(detail.procedure.length).toBeGreaterThan(0);
    expect(detail.common_info.length).toBeGreaterThan(0);
  });

  it('rejects a missing or non-numeric product id with 参数错误, an unknown one with 1702', async () => {
    for (const payload of [{}, { visa_product_id: 'abc' }, { visa_product_id: -1 }, { visa_product_id: 1.5 }, { visa_product_id: null }]) {
      expect((await t.call('/www/visa_product_detail_get', payload)).body).toEqual({ ret: 1001, msg: '参数错误', body: null });
    }
    expect((await t.call('/www/visa_product_detail_get', { visa_product_id: 9_999_999 })).body).toMatchObject({ ret: 1702, msg: '该签证产品不存在' });
  });

  it('still answers delisted products, as delisted', async () => {
    const byStatus = await firstId((db) => db.selectFrom('visa_product').select('visa_product_id as id').where('status', '=', 1).executeTakeFirst());
    const byChannel = await firstId((db) =>
      db.selectFrom('visa_product').select('visa_product_id as id').where('channel', '=', DELISTED_CHANNEL).executeTakeFirst(),
    );
    expect((await t.call('/www/visa_product_detail_get', { visa_product_id: byStatus })).body.body.status).toBe(1);
    expect((await t.call('/www/visa_product_detail_get', { visa_product_id: byChannel })).body.body.channel).toBe(DELISTED_CHANNEL);
  });

  it('pages reviews by 10, newest first, with masked phone numbers', async () => {
    const id = await listedWithReviews();
    const first = (await t.call('/www/visa_product_review_list', { visa_product_id: id, page: 1 })).body.body;
    const second = (await t.call('/www/visa_product_review_list', { visa_product_id: id, page: 2 })).body.body;
    expect(first.page_data).toHaveLength(10);
    expect(first.total_count).toBeGreaterThan(20);
    expect(second.page_data[0].review_id).not.toBe(first.page_data[0].review_id);
    expect(first.page_data[0].create_time).toBeGreaterThanOrEqual(first.page_data[9].create_time);
    for (const review of [...first.page_data, ...second.page_data]) {
      if (review.mobile_phone) expect(review.mobile_phone).toMatch(/^\d{3}\*{4}\d{4}$/);
    }
    const empty = await firstId((db) =>
      db
        .selectFrom('visa_product')
        .select('visa_product_id as id')
        .where((eb) =>
          eb.not(
            eb.exists(
              eb.selectFrom('visa_product_review').select('review_id').whereRef('visa_product_review.visa_product_id', '=', 'visa_product.visa_product_id'),
            ),
          ),
        )
        .executeTakeFirst(),
    );
    expect((await t.call('/www/visa_product_review_list', { visa_product_id: empty, page: 1 })).body.body).toEqual({ page_data: [], total_count: 0 });
    expect((await t.call('/www/visa_product_review_list', { visa_product_id: id, page: 0 })).body.ret).toBe(1001);
  });

  it('e-mails the checklist of one identity through SMTP', async () => {
    const id = await listedWithReviews();
    const result = await t.call('/www/visa_product_material_send', { visa_product_id: id, email: ' wang.min@example.com ', identity_id: 2 });
    expect(result.body).toEqual({ ret: 0, msg: 'ok', body: {} });
    const mail = received.at(-1)!;
    expect(mail.to).toEqual(['wang.min@example.com']);
    expect(mail.raw).toMatch(/Subject: =\?UTF-8\?/);
  });

  it('refuses a bad address, a bad identity, an unknown product, and floods', async () => {
    const id = await listedWithReviews();
    expect((await t.call('/www/visa_product_material_send', { visa_product_id: id, email: 'not-an-email', identity_id: 0 })).body).toMatchObject({
      ret: 1703,
      msg: '请输入正确的邮箱',
    });
    expect((await t.call('/www/visa_product_material_send', { visa_product_id: id, email: 'a@b.cn', identity_id: 7 })).body.ret).toBe(1001);
    expect((await t.call('/www/visa_product_material_send', { visa_product_id: 9_999_999, email: 'a@b.cn', identity_id: 0 })).body.ret).toBe(1702);
    const before = received.length;
    const answers = [];
    for (let i = 0; i < 7; i += 1)
      answers.push((await t.call('/www/visa_product_material_send', { visa_product_id: id, email: 'flood@example.com', identity_id: 0 })).body.ret);
    expect(answers.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(answers.slice(5)).toEqual([1429, 1429]);
    expect(received.length - before).toBe(5);
  });

  it('returns a real QR code of the mini-program link, the same each time', async () => {
    const payload = { page: QRCODE_PAGE, scene: qrcodeScene(42), size: 300 };
    const first = await t.call('/www/qrcode_get', payload);
    const image = jpeg.decode(Buffer.from(first.body.body.qrcode, 'base64'), { useTArray: true });
    expect([image.width, image.height]).toEqual([300, 300]);
    const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
    expect(decoded?.data).toBe(`https://m.yiqiantong.example/mp/${QRCODE_PAGE}?scene=${encodeURIComponent('v=42&u=official')}`);
    expect((await t.call('/www/qrcode_get', payload)).body.body.qrcode).toBe(first.body.body.qrcode);
    expect((await t.call('/www/qrcode_get', { ...payload, size: 5000 })).body.ret).toBe(1001);
    expect((await t.call('/www/qrcode_get', { ...payload, scene: 'x'.repeat(33) })).body.ret).toBe(1001);
  });

  it('locates the caller’s province from the address', async () => {
    expect((await t.call('/www/ip_location_get', {}, { remoteAddress: '202.96.209.133' })).body.body).toEqual({
      province_code: '310000',
      province_name: '上海市',
    });
    expect((await t.call('/www/ip_location_get', {}, { remoteAddress: '127.0.0.1' })).body).toEqual({ ret: 0, msg: 'ok', body: null });
  });
});
