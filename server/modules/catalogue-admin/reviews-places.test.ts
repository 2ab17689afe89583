// 产品管理's reviews and places (issue 26) on SQLite or PostgreSQL
// (TEST_DATABASE_URL): hiding a review takes it off the guest page and out of
// the product's score and count, moves the page-cache version and is recorded
// (who, when, why); a reason is required and the text cannot be edited. A
// country with its districts is saved under the importer's rules: a duplicate
// ISO code, a district without a province, a province two districts claim are
// refused with Chinese messages and nothing is written. Two editors of one
// country: the second save (a stale version) is refused with 2620 and the
// first is kept whole; a workbook import moves the version too. Operators are
// refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminCatalogueCountryEditor,
  adminCatalogueCountrySave,
  adminCatalogueReviewList,
  adminCatalogueReviewModerate,
  type CountryContent,
  type DistrictContent,
} from '../../../common/contracts/catalogue-places.ts';
import { adminSlotCalendar } from '../../../common/contracts/interview-slot-admin.ts';
import type { PayloadOf } from '../../../common/contracts/define.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { importWorkbook } from '../catalogue-io/catalogue-transfer.ts';
import { exportBook } from '../catalogue-io/export.ts';
import { writeWorkbook } from '../catalogue-io/workbook.ts';
import { unusedIsoCode } from '../../test-support/factories.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';

let t: TestApp;
let boss: Awaited<ReturnType<TestApp['operator']>>;

beforeAll(async () => {
  t = await createTestApp();
  boss = await t.operator({ role: 'supervisor', name: '赵主管' });
});
afterAll(() => t.close());

async function productWithReviews(scores: number[]) {
  const product = await t.insertProduct();
  for (const [i, score] of scores.entries()) {
    await t.db
      .insertInto('visa_product_review')
      .values({
        visa_product_id: product.visa_product_id,
        nickname: `客人${i}`,
        mobile_phone: '13800138000',
        score,
        content: `评价内容 ${i}`,
        platform: 'web',
        create_time: 1_700_000_000_000 + i,
      })
      .execute();
  }
  const reviews = await t.db
    .selectFrom('visa_product_review')
    .select(['review_id', 'score'])
    .where('visa_product_id', '=', product.visa_product_id)
    .orderBy('review_id')
    .execute();
  return { id: product.visa_product_id, reviews };
}

describe('who may', () => {
  it('refuses an operator (2003) and a caller without a session (1201) on every new call', async () => {
    const op = await t.operator({ role: 'operator' });
    for (const path of ['review_list', 'review_moderate', 'country_list', 'country_editor', 'country_save']) {
      expect((await op.call(`/admin-api/catalogue/${path}`, {})).body.ret, path).toBe(ErrorCode.OPERATOR_FORBIDDEN);
      expect((await t.call(`/admin-api/catalogue/${path}`, {})).body.ret, path).toBe(ErrorCode.NOT_LOGGED_IN);
    }
  });
});

describe('reviews', () => {
  it('hiding a review takes it off the guest page, its score and count; showing it again restores them; each is recorded', async () => {
    const { id, reviews } = await productWithReviews([5, 4, 1]);
    const versionBefore = await t.services.catalogue.productVersion(id);
    expect(await t.services.catalogue.productDetail(id)).toMatchObject({ sum_score: 10, reviews: 3 });

    const low = reviews.find((r) => r.score === 1)!;
    t.clock.now += 1000;
    const hidden = await boss.callContract(adminCatalogueReviewModerate, { review_id: low.review_id, hidden: true, reason: '  与产品无关的广告  ' });
    expect(hidden.body.ret, hidden.body.msg).toBe(0);
    expect(hidden.result).toEqual({ review_id: low.review_id, hidden: true, sum_score: 9, reviews: 2 });

    // The guest's numbers, list and the country's product list follow.
    expect(await t.services.catalogue.productDetail(id)).toMatchObject({ sum_score: 9, reviews: 2 });
    const page = (await t.call('/www/visa_product_review_list', { visa_product_id: id, page: 1 })).body.body;
    expect(page.total_count).toBe(2);
    expect(page.page_data.map((r: { review_id: number }) => r.review_id)).not.toContain(low.review_id);
    const detail = (await t.services.catalogue.productDetail(id))!;
    const listed = await t.services.catalogue.products({ visa_country_id: detail.visa_country_id });
    expect(listed.products.find((p) => p.visa_product_id === id)).toMatchObject({ sum_score: 9, reviews: 2 });
    // The guest page cache's version moved (every instance renders afresh), without touching the product row.
    const versionHidden = await t.services.catalogue.productVersion(id);
    expect(versionHidden).not.toBe(versionBefore);
    expect((await t.db.selectFrom('visa_product').select('updated_at').where('visa_product_id', '=', id).executeTakeFirstOrThrow()).updated_at).toBe(
      detail.updated_at,
    );

    // The back office still lists it, hidden, with who, when and why; the text is as written.
    const list = await boss.callContract(adminCatalogueReviewList, { visa_product_id: id, page: 1 });
    expect(list.body.ret, list.body.msg).toBe(0);
    expect(list.result).toMatchObject({ sum_score: 9, reviews: 2, total_count: 3 });
    expect(list.result!.list.find((r) => r.review_id === low.review_id)).toMatchObject({
      hidden: true,
      content: '评价内容 2',
      mobile_phone: '138****8000',
      last_moderation: { action: 'hide', reason: '与产品无关的广告', operator_name: '赵主管', created_at: t.clock.now },
    });

    // Hiding it again is refused (2343) and not recorded twice.
    expect((await boss.callContract(adminCatalogueReviewModerate, { review_id: low.review_id, hidden: true, reason: '再次' })).body.ret).toBe(
      ErrorCode.CATALOGUE_REVIEW_ALREADY,
    );
    const shown = await boss.callContract(adminCatalogueReviewModerate, { review_id: low.review_id, hidden: false, reason: '误操作，恢复' });
    expect(shown.result).toEqual({ review_id: low.review_id, hidden: false, sum_score: 10, reviews: 3 });
    const versionShown = await t.services.catalogue.productVersion(id);
    expect(versionShown).not.toBe(versionHidden);
    expect(versionShown).not.toBe(versionBefore);
    const records = await t.db.selectFrom('review_moderation').selectAll().where('review_id', '=', low.review_id).orderBy('moderation_id').execute();
    expect(records.map((r) => [r.action, r.reason, r.operator_id])).toEqual([
      ['hide', '与产品无关的广告', boss.operatorId],
      ['show', '误操作，恢复', boss.operatorId],
    ]);
  });

  it('refuses a blank reason (2342), an unknown review (2341) or product (2325), bad bodies (1001), and never edits the text', async () => {
    const { id, reviews } = await productWithReviews([5]);
    const review = reviews[0]!;
    expect((await boss.callContract(adminCatalogueReviewModerate, { review_id: review.review_id, hidden: true, reason: '   ' })).body.ret).toBe(
      ErrorCode.CATALOGUE_REVIEW_REASON_REQUIRED,
    );
    expect((await boss.callContract(adminCatalogueReviewModerate, { review_id: 2_000_000_000, hidden: true, reason: '广告' })).body.ret).toBe(
      ErrorCode.CATALOGUE_REVIEW_NOT_FOUND,
    );
    expect((await boss.callContract(adminCatalogueReviewList, { visa_product_id: 2_000_000_000, page: 1 })).body.ret).toBe(
      ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND,
    );
    for (const body of [
      {},
      { review_id: review.review_id, hidden: 'yes', reason: '广告' },
      { review_id: review.review_id, hidden: true, reason: 'x'.repeat(201) },
      { review_id: -1, hidden: true, reason: '广告' },
    ]) {
      expect((await boss.call('/admin-api/catalogue/review_moderate', body)).body.ret).toBe(ErrorCode.INVALID_PARAMS);
    }
    // A content field is not part of the call: the text stays as written.
    const answer = await boss.call('/admin-api/catalogue/review_moderate', { review_id: review.review_id, hidden: true, reason: '测试', content: '改写' });
    expect(answer.body.ret).toBe(0);
    expect((await t.db.selectFrom('visa_product_review').select('content').where('review_id', '=', review.review_id).executeTakeFirstOrThrow()).content).toBe(
      '评价内容 0',
    );
    expect(await t.services.catalogue.productDetail(id)).toMatchObject({ sum_score: 0, reviews: 0 });
    expect((await t.db.selectFrom('review_moderation').selectAll().where('review_id', '=', review.review_id).execute()).length).toBe(1);
  });
});

/** The country's version as an editor opened now reads it. */
async function versionOf(visaCountryId: number): Promise<number> {
  const row = await t.db.selectFrom('visa_country').select('version').where('visa_country_id', '=', visaCountryId).executeTakeFirst();
  return row?.version ?? 1;
}

/** A save as an editor that has just read the country (or a new one: version 0); `version` given: as given. */
async function saveCountry(who: typeof boss, body: Omit<PayloadOf<typeof adminCatalogueCountrySave>, 'version'> & { version?: number }) {
  const version = body.version ?? (body.visa_country_id ? await versionOf(Number(body.visa_country_id)) : 0);
  return who.callContract(adminCatalogueCountrySave, { ...body, version });
}

describe('countries and consular districts', () => {
  const district = (over: Partial<DistrictContent> = {}): DistrictContent => ({
    name: '北京领区',
    consulate_name: '驻华大使馆签证处',
    city: '北京',
    address: '北京市朝阳区亮马桥路 1 号',
    province_codes: ['110000', '130000'],
    interview_video_url: null,
    ...over,
  });
  const country = async (over: Partial<CountryContent> = {}): Promise<CountryContent> => ({
    iso_code: await unusedIsoCode(t.db),
    name: '测试国',
    name_en: 'Testland',
    continent_id: 0,
    description: '一个测试用的国家。',
    hot: 10,
    status: 0,
    ...over,
  });
  const countries = async () =>
    Number(
      (
        await t.db
          .selectFrom('visa_country')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates a country with its districts; the guest country page shows them; editing keeps ids and can remove an unused district', async () => {
    const content = await country();
    const saved = await saveCountry(boss, {
      country: content,
      districts: [district(), district({ name: '上海领区', city: '上海', address: '上海市徐汇区淮海中路 2 号', province_codes: ['310000', '320000'] })],
    });
    expect(saved.body.ret, saved.body.msg).toBe(0);
    const id = saved.result!.visa_country_id;
    const guest = (await t.services.catalogue.country(id))!;
    expect(guest).toMatchObject({ iso_code: content.iso_code, name: '测试国', flag: `/static/flags/1x1/${content.iso_code.toLowerCase()}.svg` });
    expect(guest.consular_districts.map((d) => [d.name, d.address, d.province_codes])).toEqual([
      ['北京领区', '北京市朝阳区亮马桥路 1 号', ['110000', '130000']],
      ['上海领区', '上海市徐汇区淮海中路 2 号', ['310000', '320000']],
    ]);

    const editor = await boss.callContract(adminCatalogueCountryEditor, { visa_country_id: id });
    expect(editor.body.ret, editor.body.msg).toBe(0);
    const [beijing, shanghai] = editor.result!.districts;
    expect(beijing).toMatchObject({ name: '北京领区', in_use: false });
    // Beijing's district also takes Tianjin; Shanghai's is removed.
    const edited = await saveCountry(boss, {
      visa_country_id: id,
      country: { ...content, name: '测试国（改）' },
      districts: [{ ...district({ province_codes: ['110000', '120000', '130000'] }), consular_district_id: beijing!.consular_district_id }],
    });
    expect(edited.body.ret, edited.body.msg).toBe(0);
    const after = (await t.services.catalogue.country(id))!;
    expect(after.name).toBe('测试国（改）');
    expect(after.consular_districts).toEqual([
      expect.objectContaining({ consular_district_id: beijing!.consular_district_id, province_codes: ['110000', '120000', '130000'] }),
    ]);
    expect(shanghai).toBeDefined();
  });

  it("refuses a duplicate ISO code (2346), a district without a province (2347), the importer's other rules (2345); nothing is written", async () => {
    const taken = await t.insertProduct();
    const before = await countries();
    const dup = await saveCountry(boss, { country: await country({ iso_code: taken.iso_code }), districts: [district()] });
    expect(dup.body).toMatchObject({ ret: ErrorCode.CATALOGUE_ISO_TAKEN, msg: '国家代码已被其他国家使用' });

    const empty = await saveCountry(boss, {
      country: await country(),
      districts: [district(), district({ name: '广州领区', province_codes: [] })],
    });
    expect(empty.body.ret).toBe(ErrorCode.CATALOGUE_DISTRICT_NO_PROVINCE);
    expect(empty.body.msg).toBe('第 2 个领区（广州领区）：领区至少要受理一个省份');

    const cases: Array<[Partial<CountryContent>, DistrictContent[], RegExp]> = [
      [{ iso_code: 'z1' }, [district()], /国家代码：格式不对，应为两位大写字母/],
      [{ iso_code: 'ABC' }, [district()], /国家代码：不能超过 2 个字符/],
      [{ name: '  ' }, [district()], /国家名称：不能为空/],
      [{ continent_id: 98 }, [district()], /大洲不存在/],
      [{}, [district({ province_codes: ['999999'] })], /第 1 个领区（北京领区） · 受理省份编码：省份编码 999999 不在地址库中/],
      [{}, [district({ province_codes: ['11'] })], /受理省份编码：“11”格式不对/],
      [{}, [district(), district({ name: '天津领区', province_codes: ['110000'] })], /省份 110000 已由领区“北京领区”受理/],
      [{}, [district(), district()], /领区名称：与第 1 行重复/],
      [{}, [district({ address: '' })], /第 1 个领区 · 领馆地址：不能为空/],
      [{}, [district({ interview_video_url: 'http://evil.example/x' })], /面试指南视频：格式不对/],
    ];
    for (const [over, districts, msg] of cases) {
      const answer = await saveCountry(boss, { country: await country(over), districts });
      expect(answer.body.ret, JSON.stringify(over)).toBe(ErrorCode.CATALOGUE_PLACE_INVALID);
      expect(answer.body.msg).toMatch(msg);
    }
    expect(await countries()).toBe(before);
    for (const body of [{}, { country: {}, districts: [] }, { country: await country(), districts: 'x' }]) {
      expect((await boss.call('/admin-api/catalogue/country_save', body)).body.ret).toBe(ErrorCode.INVALID_PARAMS);
    }
  });

  it('keeps the days the consulates close every year (闭馆日): the slot calendar reads them; a save without the list leaves them; bad days refused', async () => {
    await t.insertProduct(); // the continents the country is filed under
    const content = await country();
    const saved = await saveCountry(boss, {
      country: content,
      districts: [district()],
      national_days: [
        { month_day: '07-04', name: '独立日' },
        { month_day: '12-25', name: '圣诞节' },
      ],
    });
    expect(saved.body.ret, saved.body.msg).toBe(0);
    const id = saved.result!.visa_country_id;
    const editor = async () => (await boss.callContract(adminCatalogueCountryEditor, { visa_country_id: id })).result!;
    expect((await editor()).national_days).toEqual([
      { month_day: '07-04', name: '独立日' },
      { month_day: '12-25', name: '圣诞节' },
    ]);
    // 面试时段's calendar closes the consulate that day (2028-07-04 is a Tuesday; the 3rd stays open).
    const districtId = (await editor()).districts[0]!.consular_district_id;
    const calendar = await boss.callContract(adminSlotCalendar, { consular_district_id: districtId, from: '2028-07-03', to: '2028-07-04' });
    expect(calendar.body.ret, calendar.body.msg).toBe(0);
    expect(calendar.result!.days.map((d) => [d.date, d.closed_for])).toEqual([
      ['2028-07-03', null],
      ['2028-07-04', '独立日'],
    ]);

    // Saved again without the list: unchanged. With a list: replaced.
    expect(
      (
        await saveCountry(boss, {
          visa_country_id: id,
          country: content,
          districts: [{ ...district(), consular_district_id: districtId }],
        })
      ).body.ret,
    ).toBe(0);
    expect((await editor()).national_days).toHaveLength(2);
    const replaced = await saveCountry(boss, {
      visa_country_id: id,
      country: content,
      districts: [{ ...district(), consular_district_id: districtId }],
      national_days: [{ month_day: '10-03', name: '统一日' }],
    });
    expect(replaced.body.ret, replaced.body.msg).toBe(0);
    expect((await editor()).national_days).toEqual([{ month_day: '10-03', name: '统一日' }]);

    const bad: Array<[Array<{ month_day: string; name: string }>, RegExp]> = [
      [[{ month_day: '13-01', name: '某日' }], /第 1 个闭馆日 · 日期（月-日）：格式不对/],
      [[{ month_day: '07-04', name: '' }], /第 1 个闭馆日 · 名称：不能为空/],
      [
        [
          { month_day: '07-04', name: '独立日' },
          { month_day: '07-04', name: '又一个' },
        ],
        /第 2 个闭馆日 · 07-04 已经填过/,
      ],
    ];
    for (const [days, msg] of bad) {
      const answer = await saveCountry(boss, {
        visa_country_id: id,
        country: content,
        districts: [{ ...district(), consular_district_id: districtId }],
        national_days: days,
      });
      expect(answer.body.ret).toBe(ErrorCode.CATALOGUE_PLACE_INVALID);
      expect(answer.body.msg).toMatch(msg);
    }
    expect((await editor()).national_days).toEqual([{ month_day: '10-03', name: '统一日' }]);
  });

  it("keeps a district a product uses (2348), refuses another country's district and an unknown country (2344)", async () => {
    const product = await t.insertProduct({ district: 'own' });
    const editor = (await boss.callContract(adminCatalogueCountryEditor, { visa_country_id: product.visa_country_id })).result!;
    const used = editor.districts.find((d) => d.consular_district_id === product.consular_district_id)!;
    expect(used.in_use).toBe(true);
    const others = editor.districts.filter((d) => d !== used).map(({ in_use: _, ...d }) => d);
    const removing = await saveCountry(boss, {
      visa_country_id: product.visa_country_id,
      country: editor.country,
      districts: others,
    });
    expect(removing.body.ret).toBe(ErrorCode.CATALOGUE_DISTRICT_IN_USE);
    expect(removing.body.msg).toContain(used.name);

    const stranger = await t.insertProduct();
    const foreign = await saveCountry(boss, {
      visa_country_id: product.visa_country_id,
      country: editor.country,
      districts: [{ ...district(), consular_district_id: stranger.districts[0]!.consular_district_id }],
    });
    expect(foreign.body.ret).toBe(ErrorCode.CATALOGUE_PLACE_INVALID);
    expect((await boss.callContract(adminCatalogueCountryEditor, { visa_country_id: 2_000_000_000 })).body.ret).toBe(ErrorCode.CATALOGUE_COUNTRY_NOT_FOUND);
    expect((await saveCountry(boss, { visa_country_id: 2_000_000_000, country: await country(), districts: [district()] })).body.ret).toBe(
      ErrorCode.CATALOGUE_COUNTRY_NOT_FOUND,
    );
  });
});

describe('two editors of one country', () => {
  it('the second save of the same country is refused with 2620 and the first one is kept whole; a workbook import moves the version too', async () => {
    const other = await t.operator({ role: 'supervisor', name: '钱主管' });
    const product = await t.insertProduct({ district: 'own' });
    const id = product.visa_country_id;
    const open = async () => (await boss.callContract(adminCatalogueCountryEditor, { visa_country_id: id })).result!;
    const body = (editor: Awaited<ReturnType<typeof open>>) => ({
      visa_country_id: id,
      version: editor.version,
      country: editor.country,
      districts: editor.districts.map(({ in_use: _, ...d }) => d),
      national_days: editor.national_days,
    });
    // Both open the country (version n); the first saves a new address and a national day.
    const [a, b] = [await open(), await open()];
    expect(a.version).toBeGreaterThanOrEqual(1);
    const first = await saveCountry(boss, {
      ...body(a),
      districts: body(a).districts.map((d, i) => (i === 0 ? { ...d, address: '甲改的地址 1 号' } : d)),
      national_days: [{ month_day: '07-04', name: '甲加的闭馆日' }],
    });
    expect(first.body.ret, first.body.msg).toBe(0);
    expect(first.result!.version).toBe(a.version + 1);
    // The second, from what it read before, is refused; nothing of it is written.
    const second = await saveCountry(other, {
      ...body(b),
      country: { ...b.country, name: '乙改的名字' },
      districts: body(b).districts.map((d, i) => (i === 0 ? { ...d, address: '乙改的地址 2 号' } : d)),
      national_days: [],
    });
    expect(second.body).toMatchObject({ ret: ErrorCode.CATALOGUE_COUNTRY_CONFLICT, msg: '该国家已被他人修改，请刷新后再编辑' });
    const now = await open();
    expect(now.version).toBe(a.version + 1);
    expect(now.country.name).toBe(a.country.name);
    expect(now.districts[0]!.address).toBe('甲改的地址 1 号');
    expect(now.national_days).toEqual([{ month_day: '07-04', name: '甲加的闭馆日' }]);

    // Saved again from the current version: accepted. Two saves of one version at once: exactly one is.
    const again = await saveCountry(other, { ...body(now), country: { ...now.country, hot: now.country.hot + 1 } });
    expect(again.body.ret, again.body.msg).toBe(0);
    const latest = await open();
    const racing = await Promise.all([
      saveCountry(boss, { ...body(latest), country: { ...latest.country, description: '甲同时保存' } }),
      saveCountry(other, { ...body(latest), country: { ...latest.country, description: '乙同时保存' } }),
    ]);
    expect(racing.map((r) => r.body.ret).sort()).toEqual([0, ErrorCode.CATALOGUE_COUNTRY_CONFLICT]);
    const winner = racing.findIndex((r) => r.body.ret === 0) === 0 ? '甲同时保存' : '乙同时保存';
    expect((await open()).country.description).toBe(winner);
    expect((await open()).version).toBe(latest.version + 1);

    // A new country is saved from version 0 only; an edit without a version is a bad body.
    expect((await saveCountry(boss, { version: 3, country: { ...latest.country, iso_code: await unusedIsoCode(t.db) }, districts: [] })).body.ret).toBe(
      ErrorCode.CATALOGUE_COUNTRY_CONFLICT,
    );
    const { version: _, ...unversioned } = body(latest);
    expect((await boss.call('/admin-api/catalogue/country_save', unversioned)).body.ret).toBe(ErrorCode.INVALID_PARAMS);

    // A workbook import that changes the country's consulate moves its version: an editor opened before it is refused.
    const beforeImport = await open();
    const book = await exportBook(t.db);
    book.districts.find((d) => d.country === beforeImport.country.iso_code)!.address = '导入的地址 3 号';
    const imported = await importWorkbook(t.db, await writeWorkbook(book), Date.now());
    expect(imported.applied).toBe(true);
    expect((await open()).version).toBe(beforeImport.version + 1);
    expect((await saveCountry(boss, body(beforeImport))).body.ret).toBe(ErrorCode.CATALOGUE_COUNTRY_CONFLICT);
    expect((await open()).districts[0]!.address).toBe('导入的地址 3 号');
  });
});

describe('bad input', () => {
  it('random bodies to every new call answer an envelope, never 5xx', async () => {
    let seed = 2341;
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const values = (): unknown[] => [null, -1, 0, 1.5, 2 ** 40, '', '中文', 'x'.repeat(300), [], {}, true, ['110000'], 'AB'];
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
    const { reviews } = await productWithReviews([3]);
    const goodCountry = { iso_code: 'QQ', name: '随机国', name_en: 'Random', continent_id: 0, description: '', hot: 0, status: 0 };
    const goodDistrict = { name: '领区', consulate_name: '领馆', city: '城市', address: '地址', province_codes: ['110000'], interview_video_url: null };
    const paths = ['review_list', 'review_moderate', 'country_list', 'country_editor', 'country_save'].map((p) => `/admin-api/catalogue/${p}`);
    const keys = ['visa_product_id', 'review_id', 'hidden', 'reason', 'page', 'visa_country_id', 'country', 'districts'];
    for (let i = 0; i < 150; i += 1) {
      const body: Record<string, unknown> = {};
      for (const key of keys) if (random() < 0.5) body[key] = pick(values());
      if (random() < 0.3) body.review_id = reviews[0]!.review_id;
      if (random() < 0.4) body.country = { ...goodCountry, [pick(Object.keys(goodCountry))]: pick(values()) };
      if (random() < 0.4) body.districts = [{ ...goodDistrict, [pick(Object.keys(goodDistrict))]: pick(values()) }];
      const answer = await boss.call(pick(paths), random() < 0.1 ? '{"country":' : body);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
      if (answer.body.ret !== 0) expect(answer.body.msg).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
