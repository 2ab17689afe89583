// The login-only pages' in-process reads (decision 0011): each answers what
// its signed call answers, for the session's customer only — another
// enterprise's order is 1801 like a missing one, an id the call's contract
// refuses is 1001 — and a read that fails outright rejects (the page shows
// "failed") instead of passing for a refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderList as orderListContract } from '../../common/contracts/order.ts';
import { ErrorCode } from '../../common/error-codes.ts';
import { applicant, newCustomer, type OrderTestContext, orderTestContext } from '../test-support/fixtures/order.ts';
import { customerReads } from './customer-reads.ts';

let ctx: OrderTestContext;
let owner: Awaited<ReturnType<typeof newCustomer>>;
let other: Awaited<ReturnType<typeof newCustomer>>;
let userOrderId: number;

beforeAll(async () => {
  ctx = await orderTestContext();
  owner = await newCustomer(ctx.t);
  other = await newCustomer(ctx.t);
  const created = await ctx.service.create(owner, {
    visa_product_id: ctx.products.plain.visa_product_id,
    consular_district_id: ctx.products.plainDistrict.consular_district_id,
    departure_date: '2027-01-20',
    applicants: [applicant(1), applicant(2)],
  });
  userOrderId = created.user_order_id;
});
afterAll(async () => {
  await ctx.close();
});

describe('customer reads', () => {
  it('answer what the signed calls answer, for the owner', async () => {
    const reads = customerReads(ctx.t.services, owner);
    const token = await ctx.t.login(owner.account, owner.password);
    const detail = await reads.orderDetail(userOrderId);
    const called = await ctx.t.call('/www/order/order_detail_get', { user_order_id: userOrderId }, { token });
    expect(detail).toEqual({ ok: true, body: called.body.body });

    const list = await reads.orderList('all', 1);
    expect(list.ok && orderListContract.result.parse(list.body).page_data.map((o) => o.user_order_id)).toEqual([userOrderId]);
    for (const answer of [await reads.materialList(userOrderId), await reads.insurancePlans(userOrderId), await reads.addresses('return')]) {
      expect(answer.ok).toBe(true);
    }
  });

  it("answer another enterprise's order like a missing one, and see none of it in the list", async () => {
    const reads = customerReads(ctx.t.services, other);
    for (const answer of [
      await reads.orderDetail(userOrderId),
      await reads.materialList(userOrderId),
      await reads.interviewSlots(userOrderId),
      await reads.insurancePlans(userOrderId),
    ]) {
      expect(answer).toEqual({ ok: false, ret: ErrorCode.ORDER_NOT_FOUND, msg: '订单不存在' });
    }
    expect(await reads.orderList('all', 1)).toEqual({ ok: true, body: { page_data: [], total_count: 0 } });
  });

  it("refuse an id the call's contract refuses (1001) before any query", async () => {
    const reads = customerReads(ctx.t.services, owner);
    expect(await reads.materialList(2 ** 31)).toMatchObject({ ok: false, ret: ErrorCode.INVALID_PARAMS });
    expect(await reads.orderDetail(0)).toMatchObject({ ok: false, ret: ErrorCode.INVALID_PARAMS });
  });

  it('reject when the read itself fails, rather than answer a refusal', async () => {
    const reads = customerReads(ctx.t.services, owner);
    await ctx.t.db.schema.alterTable('order_applicant').renameTo('order_applicant_hidden').execute();
    try {
      await expect(reads.orderDetail(userOrderId)).rejects.toThrow();
    } finally {
      await ctx.t.db.schema.alterTable('order_applicant_hidden').renameTo('order_applicant').execute();
    }
    expect((await reads.orderDetail(userOrderId)).ok).toBe(true);
  });
});
