// 产品管理 (issue 26) on SQLite or PostgreSQL (TEST_DATABASE_URL): a change
// is a draft the guest page does not see until it is published; publishing
// writes the product, moves its page-cache version and keeps an audit (who,
// when, before and after); a new product published is ordered by a customer;
// a placed order keeps what it was bought with; two editors never overwrite
// each other; bad content is refused with a Chinese message and nothing is
// stored; random bodies never answer 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminCatalogueDraftPublish,
  adminCatalogueDraftSave,
  adminCatalogueProductEditor,
  type ProductContent,
} from '../../../common/contracts/catalogue-admin.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { draftOrder, newCustomer } from '../../test-support/fixtures/material.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';

let t: TestApp;
let boss: Awaited<ReturnType<TestApp['operator']>>;
let other: Awaited<ReturnType<TestApp['operator']>>;

beforeAll(async () => {
  t = await createTestApp();
  boss = await t.operator({ role: 'supervisor', name: '王主管' });
  other = await t.operator({ role: 'supervisor', name: '李主管' });
});
afterAll(() => t.close());

async function editorOf(visaProductId?: number, draftId?: number) {
  const answer = await boss.callContract(adminCatalogueProductEditor, {
    ...(visaProductId ? { visa_product_id: visaProductId } : {}),
    ...(draftId ? { draft_id: draftId } : {}),
  });
  expect(answer.body.ret, answer.body.msg).toBe(0);
  return answer.result!;
}

async function draftCount(): Promise<number> {
  return Number(
    (
      await t.db
        .selectFrom('product_draft')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

/** A complete new product of the factory's country: one offered identity with two materials. */
async function newContent(): Promise<ProductContent> {
  const existing = await t.insertProduct();
  const editor = await editorOf(existing.visa_product_id);
  return {
    ...editor.content,
    product_special_desc: '后台新建 · 五年多次',
    sell_price: 45_600,
    distributor_discount: { desc: '企业价', price: 42_000 },
    basic_info: [{ title: '费用说明', content: '含签证费与服务费' }],
    common_info: [{ type: 0, num: 5, unit: '工作日', title: '办理时长' }],
    procedure: [{ icon: 'form', title: '填写表单' }],
    handle_process: [{ title: '提交资料', content: '上传电子资料' }],
    reminder: '请提前一个月办理。\n节假日顺延。',
    photo: { color: 1, width: 35, height: 45 },
    checklists: [0, 1, 2, 3, 4].map((identity_id) => ({
      identity_id,
      offered: identity_id === 0,
      materials:
        identity_id === 0
          ? [
              { required: true, attr: 0 as const, name: '护照首页', attention: '清晰彩色扫描', sample: null },
              { required: false, attr: 1 as const, name: '在职证明原件', attention: '加盖公章', sample: '/static/samples/work.png' },
            ]
          : [],
    })),
  };
}

async function saveNew(content: ProductContent) {
  const saved = await boss.callContract(adminCatalogueDraftSave, { version: 0, content });
  expect(saved.body.ret, saved.body.msg).toBe(0);
  return saved.result!;
}

describe('who may', () => {
  it('refuses an operator (2003) and a caller without a session (1201)', async () => {
    const op = await t.operator({ role: 'operator' });
    expect((await op.call('/admin-api/catalogue/product_list', {})).body.ret).toBe(ErrorCode.OPERATOR_FORBIDDEN);
    expect((await t.call('/admin-api/catalogue/product_list', {})).body.ret).toBe(ErrorCode.NOT_LOGGED_IN);
  });
});

describe('drafts and publishing', () => {
  it('a saved draft leaves the guest page alone; publishing changes it, moves its cache version and is audited', async () => {
    const product = await t.insertProduct({ price: 30_000 });
    const id = product.visa_product_id;
    const editor = await editorOf(id);
    expect(editor).toMatchObject({ visa_product_id: id, draft_id: null, version: 0 });
    expect(editor.content.sell_price).toBe(30_000);

    const versionBefore = await t.services.catalogue.productVersion(id);
    const changed = { ...editor.content, sell_price: 35_000, reminder: '新的温馨提示', listed: true };
    const saved = await boss.callContract(adminCatalogueDraftSave, { visa_product_id: id, version: 0, content: changed });
    expect(saved.body.ret, saved.body.msg).toBe(0);
    expect((await t.services.catalogue.productDetail(id))!.sell_price).toBe(30_000);
    expect(await t.services.catalogue.productVersion(id)).toBe(versionBefore);

    // The list shows the draft and who saved it.
    const list = await boss.call('/admin-api/catalogue/product_list', { keyword: String(id) });
    expect(list.body.body.list).toEqual([expect.objectContaining({ visa_product_id: id, draft: expect.objectContaining({ updated_by: '王主管' }) })]);

    t.clock.now += 1000;
    const published = await boss.callContract(adminCatalogueDraftPublish, { draft_id: saved.result!.draft_id, version: saved.result!.version });
    expect(published.body.ret, published.body.msg).toBe(0);
    const detail = (await t.services.catalogue.productDetail(id))!;
    expect(detail).toMatchObject({ sell_price: 35_000, reminder: '新的温馨提示' });
    // The guest page cache's version moved: every instance renders the page afresh on its next request (decision 0004).
    expect(await t.services.catalogue.productVersion(id)).not.toBe(versionBefore);
    // The draft is gone; the editor shows the published content.
    expect(await editorOf(id)).toMatchObject({ draft_id: null, version: 0, content: expect.objectContaining({ sell_price: 35_000 }) });

    const audit = await boss.call('/admin-api/catalogue/publication_list', { visa_product_id: id });
    expect(audit.body.body.list).toEqual([
      expect.objectContaining({
        operator_name: '王主管',
        published_at: t.clock.now,
        changes: [
          { field: 'sell_price', label: '价格', before: 30_000, after: 35_000 },
          expect.objectContaining({ field: 'reminder', label: '温馨提示', after: '新的温馨提示' }),
        ],
      }),
    ]);
  });

  it('a new product is published with every field, and a customer orders it', async () => {
    const content = await newContent();
    const draft = await saveNew(content);
    const opened = await editorOf(undefined, draft.draft_id);
    expect(opened).toMatchObject({ visa_product_id: null, draft_id: draft.draft_id, version: 1, published: null });
    expect((await boss.call('/admin-api/catalogue/product_list', {})).body.body.new_drafts).toContainEqual(
      expect.objectContaining({ draft_id: draft.draft_id, updated_by: '王主管' }),
    );

    const published = await boss.callContract(adminCatalogueDraftPublish, { draft_id: draft.draft_id, version: 1 });
    expect(published.body.ret, published.body.msg).toBe(0);
    const id = published.result!.visa_product_id;
    const detail = (await t.services.catalogue.productDetail(id))!;
    expect(detail).toMatchObject({
      product_special_desc: '后台新建 · 五年多次',
      sell_price: 45_600,
      distributor_discount: { desc: '企业价', price: 42_000 },
      basic_info: [{ title: '费用说明', content: '含签证费与服务费' }],
      common_info: [{ type: 0, num: 5, unit: '工作日', title: '办理时长' }],
      procedure: [{ icon: 'form', title: '填写表单' }],
      handle_process: [{ title: '提交资料', content: '上传电子资料' }],
      photo_param: { color: 1, width: 35, height: 45 },
      offline: true,
      status: 0,
    });
    expect(detail.identity_material[0]!.material_required.map((m) => m.elec_name)).toEqual(['护照首页']);
    expect(detail.identity_material[0]!.material_optional.map((m) => m.paper_name)).toEqual(['在职证明原件']);
    expect(detail.identity_material[1]!.material_required).toEqual([]);
    // Its first publication lists every field as new.
    const audit = await boss.call('/admin-api/catalogue/publication_list', { visa_product_id: id });
    expect(audit.body.body.list[0].changes).toContainEqual(expect.objectContaining({ field: 'sell_price', before: null, after: 45_600 }));

    const customer = await newCustomer(t);
    const order = await draftOrder(t, customer, id, [0]);
    expect(order.userOrderId).toBeGreaterThan(0);
  });

  it('a placed order keeps the price and product it was bought with when the product is edited', async () => {
    const product = await t.insertProduct({ price: 50_000 });
    const customer = await newCustomer(t);
    const order = await draftOrder(t, customer, product.visa_product_id, [0]);
    const before = await t.db.selectFrom('user_order').selectAll().where('user_order_id', '=', order.userOrderId).executeTakeFirstOrThrow();

    const editor = await editorOf(product.visa_product_id);
    const saved = await boss.callContract(adminCatalogueDraftSave, {
      visa_product_id: product.visa_product_id,
      version: 0,
      content: { ...editor.content, sell_price: 99_900, product_special_desc: '改名后的产品', reject_refund: !editor.content.reject_refund },
    });
    expect(saved.body.ret, saved.body.msg).toBe(0);
    t.clock.now += 1000;
    expect((await boss.callContract(adminCatalogueDraftPublish, { draft_id: saved.result!.draft_id, version: 1 })).body.ret).toBe(0);

    const after = await t.db.selectFrom('user_order').selectAll().where('user_order_id', '=', order.userOrderId).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    const detail = await t.call('/www/order/order_detail_get', { user_order_id: order.userOrderId }, { token: customer.token });
    expect(detail.body.ret, detail.body.msg).toBe(0);
    expect(JSON.stringify(detail.body.body)).not.toContain('改名后的产品');
    expect(JSON.stringify(detail.body.body)).not.toContain('99900');
  });
});

describe('checklists and the files orders uploaded', () => {
  it('a material that stays keeps its id; one an order has a file for cannot be removed (2329), others can', async () => {
    const product = await t.insertProduct();
    const id = product.visa_product_id;
    const customer = await newCustomer(t);
    const order = await draftOrder(t, customer, id, [0]);
    const materials = await t.db
      .selectFrom('visa_product_material')
      .selectAll()
      .where('visa_product_id', '=', id)
      .where('identity_id', '=', 0)
      .orderBy('sort')
      .execute();
    const [used, unused] = [materials[0]!, materials[1]!];
    await t.db
      .insertInto('order_material_file')
      .values({
        user_order_id: order.userOrderId,
        applicant_id: order.applicants[0]!.applicant_id,
        material_id: used.material_id,
        kind: 'material',
        storage_key: `test/${id}/${used.material_id}`,
        file_name: 'scan.jpg',
        content_type: 'image/jpeg',
        size_bytes: 1000,
        sha256: 'a'.repeat(64),
        account_id: customer.accountId,
        created_at: t.clock.now,
      })
      .execute();

    const editor = await editorOf(id);
    const employed = editor.content.checklists[0]!;
    const withoutUsed = { ...employed, materials: employed.materials.filter((m) => m.name !== used.name) };
    const saved = await boss.callContract(adminCatalogueDraftSave, {
      visa_product_id: id,
      version: 0,
      content: { ...editor.content, checklists: [withoutUsed, ...editor.content.checklists.slice(1)] },
    });
    expect(saved.body.ret, saved.body.msg).toBe(0);
    const refused = await boss.callContract(adminCatalogueDraftPublish, { draft_id: saved.result!.draft_id, version: 1 });
    expect(refused.body).toMatchObject({
      ret: ErrorCode.CATALOGUE_MATERIAL_IN_USE,
      msg: `资料「${used.name}」已有订单上传了文件，不能删除（可修改注意事项和样例）`,
    });
    // Nothing of the publication was applied; the draft is still there.
    const employedAfterRefusal = await t.db
      .selectFrom('visa_product_material')
      .select('material_id')
      .where('visa_product_id', '=', id)
      .where('identity_id', '=', 0)
      .execute();
    expect(employedAfterRefusal).toHaveLength(materials.length);
    expect((await editorOf(id)).draft_id).toBe(saved.result!.draft_id);

    // Removing the unused one and changing the used one's notes publishes; the used one keeps its id.
    const reworked = {
      ...employed,
      materials: employed.materials.filter((m) => m.name !== unused.name).map((m) => (m.name === used.name ? { ...m, attention: '新的注意事项' } : m)),
    };
    const again = await boss.callContract(adminCatalogueDraftSave, {
      draft_id: saved.result!.draft_id,
      version: 1,
      content: { ...editor.content, checklists: [reworked, ...editor.content.checklists.slice(1)] },
    });
    expect(again.body.ret, again.body.msg).toBe(0);
    const published = await boss.callContract(adminCatalogueDraftPublish, { draft_id: saved.result!.draft_id, version: 2 });
    expect(published.body.ret, published.body.msg).toBe(0);
    const after = await t.db.selectFrom('visa_product_material').selectAll().where('visa_product_id', '=', id).where('identity_id', '=', 0).execute();
    expect(after.find((m) => m.material_id === used.material_id)).toMatchObject({ attention: '新的注意事项' });
    // The order placed before lists the removed one (issue 26): it is retired, off the product, not deleted.
    expect(after.find((m) => m.material_id === unused.material_id)).toMatchObject({ retired: 1 });
    expect((await editorOf(id)).content.checklists[0]!.materials.map((m) => m.name)).not.toContain(unused.name);
  });
});

describe('two editors', () => {
  it('the second save of the same product is refused with 2324 and the first one is kept', async () => {
    const product = await t.insertProduct();
    const id = product.visa_product_id;
    const [a, b] = [await editorOf(id), await editorOf(id)];
    const first = await boss.callContract(adminCatalogueDraftSave, {
      visa_product_id: id,
      version: a.version,
      content: { ...a.content, reminder: '甲的修改' },
    });
    expect(first.body.ret, first.body.msg).toBe(0);
    const second = await other.callContract(adminCatalogueDraftSave, {
      visa_product_id: id,
      version: b.version,
      content: { ...b.content, reminder: '乙的修改' },
    });
    expect(second.body).toMatchObject({ ret: ErrorCode.CATALOGUE_DRAFT_CONFLICT, msg: '该产品已被他人修改，请刷新后再编辑' });

    // Both opened version 1 of the draft; the first save wins, the second (stale) one is refused.
    const opened = await editorOf(id);
    expect(opened.content.reminder).toBe('甲的修改');
    const again = await boss.callContract(adminCatalogueDraftSave, {
      draft_id: opened.draft_id!,
      version: opened.version,
      content: { ...opened.content, reminder: '甲再改' },
    });
    expect(again.body.ret).toBe(0);
    const stale = await other.callContract(adminCatalogueDraftSave, { draft_id: opened.draft_id!, version: opened.version, content: opened.content });
    expect(stale.body.ret).toBe(ErrorCode.CATALOGUE_DRAFT_CONFLICT);
    // A publish of a version no longer current is refused too; the current one publishes.
    expect((await other.callContract(adminCatalogueDraftPublish, { draft_id: opened.draft_id!, version: opened.version })).body.ret).toBe(
      ErrorCode.CATALOGUE_DRAFT_CONFLICT,
    );
    expect((await editorOf(id)).content.reminder).toBe('甲再改');
    const publishes = await Promise.all([
      boss.callContract(adminCatalogueDraftPublish, { draft_id: opened.draft_id!, version: again.result!.version }),
      other.callContract(adminCatalogueDraftPublish, { draft_id: opened.draft_id!, version: again.result!.version }),
    ]);
    expect(publishes.map((p) => p.body.ret).sort()).toEqual([0, expect.any(Number)]);
    expect(publishes.filter((p) => p.body.ret === 0)).toHaveLength(1);
    expect((await t.services.catalogue.productDetail(id))!.reminder).toBe('甲再改');
    expect((await boss.call('/admin-api/catalogue/publication_list', { visa_product_id: id })).body.body.list).toHaveLength(1);
  });
});

describe('bad content', () => {
  it('is refused with a Chinese message and nothing is stored', async () => {
    const good = await newContent();
    const country = await t.insertProduct({ country: { iso_code: 'QZ' } });
    const otherDistrict = await t.db
      .selectFrom('consular_district')
      .select('consular_district_id')
      .where('visa_country_id', '=', country.visa_country_id)
      .executeTakeFirst();
    const cases: [Partial<ProductContent>, number, RegExp][] = [
      [{ sell_price: -100 }, ErrorCode.CATALOGUE_PRICE_INVALID, /价格须为不小于 0 的整数/],
      [{ sell_price: 123.45 }, ErrorCode.CATALOGUE_PRICE_INVALID, /单位：分/],
      [{ distributor_discount: { desc: '企业价', price: -1 } }, ErrorCode.CATALOGUE_PRICE_INVALID, /企业价/],
      [{ photo: { color: 0, width: 5, height: 45 } }, ErrorCode.CATALOGUE_PHOTO_SIZE_INVALID, /照片尺寸须在 20–80 毫米之间/],
      [{ photo: { color: 0, width: 35, height: 200 } }, ErrorCode.CATALOGUE_PHOTO_SIZE_INVALID, /毫米/],
      [
        { checklists: good.checklists.map((c) => ({ ...c, offered: c.identity_id <= 1 })) },
        ErrorCode.CATALOGUE_CHECKLIST_EMPTY,
        /「自由职业者」的材料清单为空/,
      ],
      [{ checklists: good.checklists.map((c) => ({ ...c, offered: false })) }, ErrorCode.CATALOGUE_CHECKLIST_EMPTY, /至少接受一种申请人身份/],
      [{ visa_country_id: 999_999 }, ErrorCode.CATALOGUE_REFERENCE_INVALID, /国家、签证类型或领区不存在/],
      [{ consular_district_id: otherDistrict?.consular_district_id ?? 999_999 }, ErrorCode.CATALOGUE_REFERENCE_INVALID, /领区/],
      [{ product_special_desc: '   ' }, ErrorCode.CATALOGUE_FIELD_INVALID, /请填写产品说明/],
      [{ pass_rate: 10_001 }, ErrorCode.CATALOGUE_FIELD_INVALID, /出签率/],
      [{ need_days: 0 }, ErrorCode.CATALOGUE_FIELD_INVALID, /办理工作日/],
    ];
    const drafts = await draftCount();
    for (const [change, ret, msg] of cases) {
      const answer = await boss.call('/admin-api/catalogue/draft_save', { version: 0, content: { ...good, ...change } });
      expect(answer.body.ret, JSON.stringify(change)).toBe(ret);
      expect(answer.body.msg).toMatch(msg);
      expect(answer.status).toBe(200);
    }
    // Shapes the contract refuses: a string price, an unknown icon, four checklists.
    for (const change of [{ sell_price: '100' }, { procedure: [{ icon: 'rocket', title: 'x' }] }, { checklists: good.checklists.slice(1) }]) {
      const answer = await boss.call('/admin-api/catalogue/draft_save', { version: 0, content: { ...good, ...change } });
      expect(answer.body).toMatchObject({ ret: ErrorCode.INVALID_PARAMS, msg: expect.stringMatching(/[\u4e00-\u9fff]/) });
    }
    expect(await draftCount()).toBe(drafts);
  });

  it('random bodies to every call answer an envelope, never 5xx', async () => {
    let seed = 26;
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const values = (): unknown[] => [null, -1, 0, 1.5, 2 ** 40, '', '中文', 'x'.repeat(300), [], {}, { content: {} }, true];
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
    const good = await newContent();
    const paths = [
      '/admin-api/catalogue/product_list',
      '/admin-api/catalogue/product_editor',
      '/admin-api/catalogue/draft_save',
      '/admin-api/catalogue/draft_publish',
      '/admin-api/catalogue/draft_discard',
      '/admin-api/catalogue/publication_list',
    ];
    const keys = ['visa_product_id', 'draft_id', 'version', 'page', 'keyword', 'content'];
    for (let i = 0; i < 120; i += 1) {
      const body: Record<string, unknown> = {};
      for (const key of keys) if (random() < 0.5) body[key] = pick(values());
      if (random() < 0.4) {
        const field = pick(Object.keys(good));
        body.content = { ...good, [field]: pick(values()) };
      }
      const answer = await boss.call(pick(paths), random() < 0.1 ? '{"content":' : body);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
      if (answer.body.ret !== 0) expect(answer.body.msg).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
