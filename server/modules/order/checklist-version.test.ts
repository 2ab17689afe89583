// Orders share checklist versions (migration 059), on SQLite or PostgreSQL
// (TEST_DATABASE_URL): orders placed while the product shows the same list
// name the same version, each identity its own; the view order_checklist_item
// reads as the copied rows did; the migration moves copied rows into versions
// and back without changing what any order reads.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../../db/migrations/2026-11-29-059-checklist-versions.ts';
import { draftOrder, newCustomer } from '../../test-support/fixtures/material.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { type ChecklistItem, checklistVersions } from './checklist-version.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function checklistRows(userOrderIds: number[]) {
  return t.db
    .selectFrom('order_checklist_item')
    .select(['user_order_id', 'material_id', 'identity_id', 'required', 'attr', 'name', 'attention', 'sample', 'sort'])
    .where('user_order_id', 'in', userOrderIds)
    .orderBy('user_order_id')
    .orderBy('material_id')
    .execute();
}

describe('checklist versions', () => {
  it('the digest names the list, not the order the database read it in, and changes with any field', () => {
    const a: ChecklistItem = { material_id: 11, identity_id: 0, required: 1, attr: 0, name: '护照原件', attention: '有效期6个月以上', sample: null, sort: 0 };
    const b: ChecklistItem = { material_id: 12, identity_id: 0, required: 1, attr: 1, name: '照片', attention: '白底', sample: 'sample.jpg', sort: 1 };
    const [one] = checklistVersions([a, b]);
    const [same] = checklistVersions([b, a]);
    const [changed] = checklistVersions([a, { ...b, attention: '蓝底' }]);
    expect(one!.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(same!.digest).toBe(one!.digest);
    expect(changed!.digest).not.toBe(one!.digest);
    expect(
      checklistVersions([a, { material_id: 21, identity_id: 3, required: 1, attr: 0, name: '在职证明', attention: '', sample: null, sort: 0 }]).map(
        (v) => v.identity_id,
      ),
    ).toEqual([0, 3]);
  });

  it('orders of the same list share one version per identity, and read exactly the product checklist of their applicants', async () => {
    const product = await t.insertProduct();
    const id = product.visa_product_id;
    const customer = await newCustomer(t);
    const first = await draftOrder(t, customer, id, [0, 3]);
    const second = await draftOrder(t, customer, id, [0]);
    const links = await t.db
      .selectFrom('order_checklist')
      .select(['user_order_id', 'identity_id', 'digest'])
      .where('user_order_id', 'in', [first.userOrderId, second.userOrderId])
      .orderBy('user_order_id')
      .orderBy('identity_id')
      .execute();
    expect(links.map((l) => [l.user_order_id, l.identity_id])).toEqual([
      [first.userOrderId, 0],
      [first.userOrderId, 3],
      [second.userOrderId, 0],
    ]);
    expect(links[2]!.digest).toBe(links[0]!.digest);
    expect(links[1]!.digest).not.toBe(links[0]!.digest);
    const versions = await t.db.selectFrom('checklist_version').select(['digest', 'visa_product_id']).where('visa_product_id', '=', id).execute();
    expect(versions).toHaveLength(2);

    // The view: each order's rows are the product's live materials of its identities.
    const live = await t.db
      .selectFrom('visa_product_material')
      .select(['material_id', 'identity_id', 'required', 'attr', 'name', 'attention', 'sample', 'sort'])
      .where('visa_product_id', '=', id)
      .where('retired', '=', 0)
      .orderBy('material_id')
      .execute();
    const rows = await checklistRows([first.userOrderId, second.userOrderId]);
    expect(rows.filter((r) => r.user_order_id === first.userOrderId).map(({ user_order_id: _, ...r }) => r)).toEqual(
      live.filter((m) => m.identity_id === 0 || m.identity_id === 3),
    );
    expect(rows.filter((r) => r.user_order_id === second.userOrderId).map(({ user_order_id: _, ...r }) => r)).toEqual(live.filter((m) => m.identity_id === 0));
  });

  it('any change to a material moves the product serial, and the next order gets the list as changed', async () => {
    const product = await t.insertProduct();
    const id = product.visa_product_id;
    const customer = await newCustomer(t);
    const serial = async () =>
      (await t.db.selectFrom('visa_product').select('checklist_serial').where('visa_product_id', '=', id).executeTakeFirstOrThrow()).checklist_serial;
    const digestOf = async (userOrderId: number) =>
      (
        await t.db
          .selectFrom('order_checklist')
          .select('digest')
          .where('user_order_id', '=', userOrderId)
          .where('identity_id', '=', 0)
          .executeTakeFirstOrThrow()
      ).digest;

    const first = await draftOrder(t, customer, id, [0]);
    const [material] = await t.db
      .selectFrom('visa_product_material')
      .select(['material_id', 'name'])
      .where('visa_product_id', '=', id)
      .where('identity_id', '=', 0)
      .execute();
    // Written straight to the table, as no module does: the trigger still counts it.
    const before = await serial();
    await t.db.updateTable('visa_product_material').set({ attention: '请提供近三个月的原件' }).where('material_id', '=', material!.material_id).execute();
    expect(await serial()).toBeGreaterThan(before);
    const second = await draftOrder(t, customer, id, [0]);
    expect(await digestOf(second.userOrderId)).not.toBe(await digestOf(first.userOrderId));
    const changed = await t.db
      .selectFrom('order_checklist_item')
      .select('attention')
      .where('user_order_id', '=', second.userOrderId)
      .where('material_id', '=', material!.material_id)
      .executeTakeFirstOrThrow();
    expect(changed.attention).toBe('请提供近三个月的原件');
    const kept = await t.db
      .selectFrom('order_checklist_item')
      .select('attention')
      .where('user_order_id', '=', first.userOrderId)
      .where('material_id', '=', material!.material_id)
      .executeTakeFirstOrThrow();
    expect(kept.attention).not.toBe('请提供近三个月的原件');

    // A material added and one deleted move it too.
    const added = await serial();
    await t.db
      .insertInto('visa_product_material')
      .values({ visa_product_id: id, identity_id: 0, required: 0, attr: 0, name: '结婚证', attention: '', sample: null, sort: 99 })
      .execute();
    expect(await serial()).toBeGreaterThan(added);
    const third = await draftOrder(t, customer, id, [0]);
    const names = await t.db.selectFrom('order_checklist_item').select('name').where('user_order_id', '=', third.userOrderId).execute();
    expect(names.map((n) => n.name)).toContain('结婚证');
    const deleted = await serial();
    await t.db.deleteFrom('visa_product_material').where('visa_product_id', '=', id).where('name', '=', '结婚证').execute();
    expect(await serial()).toBeGreaterThan(deleted);
  });

  it('the migration moves copied rows into versions and back, and orders read the same rows either way', async () => {
    const product = await t.insertProduct();
    const customer = await newCustomer(t);
    const orders = [
      await draftOrder(t, customer, product.visa_product_id, [0, 3]),
      await draftOrder(t, customer, product.visa_product_id, [3, 0]),
      await draftOrder(t, customer, product.visa_product_id, [1]),
    ].map((o) => o.userOrderId);
    const before = await checklistRows(orders);
    expect(before.length).toBeGreaterThan(0);

    await migration.down(t.db);
    const copied = await sql<{ n: number }>`select count(*) as n from order_checklist_item where user_order_id in (${sql.join(orders)})`.execute(t.db);
    expect(Number(copied.rows[0]!.n)).toBe(before.length);

    await migration.up(t.db);
    expect(await checklistRows(orders)).toEqual(before);
    const digests = await t.db.selectFrom('order_checklist').select('digest').distinct().where('user_order_id', 'in', orders).execute();
    expect(digests).toHaveLength(3); // identities 0, 3 and 1

    // During a rolling upgrade the previous release inserts copies into order_checklist_item (now the view):
    // they land in order_checklist_copy, and the view reads that order from them.
    const rolling = await draftOrder(t, customer, product.visa_product_id, [1]);
    const rows = await checklistRows([rolling.userOrderId]);
    await t.db.deleteFrom('order_checklist').where('user_order_id', '=', rolling.userOrderId).execute();
    expect(await checklistRows([rolling.userOrderId])).toEqual([]);
    await sql`insert into order_checklist_item (user_order_id, material_id, identity_id, required, attr, name, attention, sample, sort)
      select cast(${rolling.userOrderId} as integer), material_id, identity_id, required, attr, name, attention, sample, sort
      from visa_product_material where visa_product_id = ${product.visa_product_id} and identity_id = 1 and retired = 0`.execute(t.db);
    expect(await checklistRows([rolling.userOrderId])).toEqual(rows);
    const copies = await t.db.selectFrom('order_checklist_copy').select('material_id').where('user_order_id', '=', rolling.userOrderId).execute();
    expect(copies).toHaveLength(rows.length);

    // And a new order after the round trip shares the moved version.
    const again = await draftOrder(t, customer, product.visa_product_id, [1]);
    const link = await t.db.selectFrom('order_checklist').select('digest').where('user_order_id', '=', again.userOrderId).executeTakeFirstOrThrow();
    expect(digests.map((d) => d.digest)).toContain(link.digest);
  });
});
