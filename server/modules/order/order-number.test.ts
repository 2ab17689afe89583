// The readable order number (issue 27, migration 041): written with the order
// on both databases, shown in the list and the detail, and backfilled by the
// migration for the orders placed before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderNumber } from '../../../common/order-number.ts';
import * as migration041 from '../../db/migrations/2026-11-28-041-order-number.ts';
import { applicant, newCustomer, type OrderTestContext, orderTestContext } from '../../test-support/fixtures/order.ts';
import type { Customer } from '../../platform/principal.ts';

let ctx: OrderTestContext;
let alice: Customer;

beforeAll(async () => {
  ctx = await orderTestContext();
  alice = await newCustomer(ctx.t);
});
afterAll(async () => {
  await ctx?.close();
});

const create = (customer: Customer) =>
  ctx.service.create(customer, { visa_product_id: ctx.products.plain.visa_product_id, departure_date: '2026-12-28', applicants: [applicant(1)] });

describe('orderNumber (pure)', () => {
  it('is YD, the China date of the order and the id padded to at least 6 digits', () => {
    // 2026-11-27 16:30 UTC is already 28 November in China.
    expect(orderNumber(42, Date.parse('2026-11-27T16:30:00Z'))).toBe('YD20261128000042');
    expect(orderNumber(12_345_678, Date.parse('2026-12-01T02:00:00Z'))).toBe('YD2026120112345678');
  });
});

describe(`order numbers (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('gives every new order its own number, shown in the list and the detail', async () => {
    const first = await create(alice);
    const second = await create(alice);
    const rows = await ctx.t.db
      .selectFrom('user_order')
      .select(['user_order_id', 'order_no', 'created_at'])
      .where('user_order_id', 'in', [first.user_order_id, second.user_order_id])
      .orderBy('user_order_id')
      .execute();
    for (const row of rows) expect(row.order_no).toBe(orderNumber(row.user_order_id, row.created_at));
    expect(rows[0]!.order_no).not.toBe(rows[1]!.order_no);

    const detail = await ctx.service.detail(alice, first.user_order_id);
    expect(detail.order_no).toBe(rows[0]!.order_no);
    const list = await ctx.service.list(alice, 'all', 1);
    expect(list.page_data.find((o) => o.user_order_id === second.user_order_id)?.order_no).toBe(rows[1]!.order_no);
  });

  it('is backfilled by migration 041 for the orders placed before it, and stays unique', async () => {
    const placed = await create(alice);
    // Back to the schema before 041, then forward again: the existing row gets its number from SQL.
    await migration041.down(ctx.t.db);
    await migration041.up(ctx.t.db);
    const row = await ctx.t.db
      .selectFrom('user_order')
      .select(['user_order_id', 'order_no', 'created_at'])
      .where('user_order_id', '=', placed.user_order_id)
      .executeTakeFirstOrThrow();
    expect(row.order_no).toBe(orderNumber(row.user_order_id, row.created_at));
    const other = await create(alice);
    await expect(
      ctx.t.db.updateTable('user_order').set({ order_no: row.order_no }).where('user_order_id', '=', other.user_order_id).execute(),
    ).rejects.toThrow();
  });
});
