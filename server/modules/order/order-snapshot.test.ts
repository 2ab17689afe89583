// Orders keep the product they were placed with (issue 26), on SQLite or
// PostgreSQL (TEST_DATABASE_URL): a supervisor publishes a new price, takes a
// checklist item off and changes the photo rule; the order placed before still
// shows the old price, the old checklist (upload page and workbench) and the
// old photo rule (the removed item's row is retired, not deleted); an order placed
// after gets the new ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCatalogueDraftPublish, adminCatalogueDraftSave, adminCatalogueProductEditor } from '../../../common/contracts/catalogue-admin.ts';
import { adminOrderWorkbench } from '../../../common/contracts/admin-order.ts';
import { draftOrder, newCustomer } from '../../test-support/fixtures/material.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';

let t: TestApp;
let boss: Awaited<ReturnType<TestApp['operator']>>;

beforeAll(async () => {
  t = await createTestApp();
  boss = await t.operator({ role: 'supervisor', name: '王主管' });
});
afterAll(() => t.close());

async function uploadPage(token: string, userOrderId: number) {
  const answer = await t.call('/www/order/material_list', { user_order_id: userOrderId }, { token });
  expect(answer.body.ret, answer.body.msg).toBe(0);
  return answer.body.body as {
    photo_spec: { width: number; height: number; color: number } | null;
    applicants: { electronic: { material_id: number; name: string }[] }[];
  };
}

async function workbench(userOrderId: number) {
  const answer = await boss.callContract(adminOrderWorkbench, { user_order_id: userOrderId });
  expect(answer.body.ret, answer.body.msg).toBe(0);
  return answer.result!;
}

describe('a published product change', () => {
  it('leaves an order placed before with its price, checklist and photo rule; a new order gets the new ones', async () => {
    const product = await t.insertProduct({ price: 50_000, photo: true });
    const id = product.visa_product_id;
    const customer = await newCustomer(t);
    const before = await draftOrder(t, customer, id, [0]);
    const pageBefore = await uploadPage(customer.token, before.userOrderId);
    const namesBefore = pageBefore.applicants[0]!.electronic.map((m) => m.name);
    expect(namesBefore.length).toBeGreaterThan(1);
    const removed = namesBefore[0]!;

    const editor = (await boss.callContract(adminCatalogueProductEditor, { visa_product_id: id })).result!;
    const oldPhoto = editor.content.photo!;
    const newPhoto = { color: (oldPhoto.color === 0 ? 1 : 0) as 0 | 1, width: 51, height: 51 };
    const checklists = editor.content.checklists.map((c) => (c.identity_id === 0 ? { ...c, materials: c.materials.filter((m) => m.name !== removed) } : c));
    const saved = await boss.callContract(adminCatalogueDraftSave, {
      visa_product_id: id,
      version: 0,
      content: { ...editor.content, sell_price: 77_700, distributor_discount: null, photo: newPhoto, checklists },
    });
    expect(saved.body.ret, saved.body.msg).toBe(0);
    t.clock.now += 1000;
    const published = await boss.callContract(adminCatalogueDraftPublish, { draft_id: saved.result!.draft_id, version: 1 });
    expect(published.body.ret, published.body.msg).toBe(0);

    // The order placed before: upload page, workbench and detail as placed.
    const pageAfter = await uploadPage(customer.token, before.userOrderId);
    expect(pageAfter.applicants[0]!.electronic.map((m) => m.name)).toEqual(namesBefore);
    expect(pageAfter.photo_spec).toMatchObject({ color: oldPhoto.color, width: oldPhoto.width, height: oldPhoto.height });
    const bench = await workbench(before.userOrderId);
    expect(JSON.stringify(bench)).toContain(removed);
    const detail = await t.call('/www/order/order_detail_get', { user_order_id: before.userOrderId }, { token: customer.token });
    expect(detail.body.ret, detail.body.msg).toBe(0);
    expect(JSON.stringify(detail.body.body)).not.toContain('77700');

    // The item the product no longer lists is retired, not deleted: a file the order uploads for it keeps its row.
    const removedItem = pageAfter.applicants[0]!.electronic.find((m) => m.name === removed)!;
    const row = await t.db.selectFrom('visa_product_material').select('retired').where('material_id', '=', removedItem.material_id).executeTakeFirstOrThrow();
    expect(row.retired).toBe(1);

    // The guest page and a new order: the new price, checklist and photo rule.
    const after = await draftOrder(t, customer, id, [0]);
    const newOrder = await t.db.selectFrom('user_order').selectAll().where('user_order_id', '=', after.userOrderId).executeTakeFirstOrThrow();
    expect(newOrder.unit_price).toBe(77_700);
    const pageNew = await uploadPage(customer.token, after.userOrderId);
    expect(pageNew.applicants[0]!.electronic.map((m) => m.name)).toEqual(namesBefore.filter((n) => n !== removed));
    expect(pageNew.photo_spec).toMatchObject(newPhoto);
    expect(JSON.stringify(await workbench(after.userOrderId))).not.toContain(removed);
    const oldOrder = await t.db.selectFrom('user_order').selectAll().where('user_order_id', '=', before.userOrderId).executeTakeFirstOrThrow();
    expect(oldOrder.unit_price).toBe(50_000);
  });
});
