// Issue 27's queue calls through the real app (/admin-api, signed, operator
// sessions) on SQLite or PostgreSQL: bulk take and bulk assign (each order on
// its own, refusals reported per order in Chinese, assign for supervisors
// only, bad lists refused whole), the 即将超时 filter, sorting by due time, and
// the saved view kept per operator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminOrderAssignMany,
  adminOrderQueue,
  adminOrderTake,
  adminOrderTakeMany,
  adminQueueView,
  adminQueueViewSave,
} from '../../../common/contracts/admin-order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { QUEUE_BULK_MAX } from '../../../common/review.ts';
import type { Customer } from '../../test-support/fixtures/material.ts';
import { reviewTestContext, type ReviewTestContext } from '../../test-support/fixtures/review.ts';

let ctx: ReviewTestContext;
let alice: Customer;

beforeAll(async () => {
  ctx = await reviewTestContext();
  alice = await ctx.customer();
});
afterAll(async () => {
  await ctx?.close();
});

const chinese = /[\u4e00-\u9fff]/;

/** The order number people know an order by (YD…). */
async function orderNo(userOrderId: number): Promise<string | null> {
  return (await ctx.t.db.selectFrom('user_order').select('order_no').where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow()).order_no;
}

describe(`queue bulk calls and saved views (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('bulk take: free orders taken, one already taken by another and a missing one reported per order in Chinese', async () => {
    const [free1, free2, theirs] = [await ctx.paidOrder(alice), await ctx.paidOrder(alice), await ctx.paidOrder(alice)];
    const op = await ctx.t.operator();
    const other = await ctx.t.operator();
    expect((await other.callContract(adminOrderTake, { user_order_id: theirs })).body.ret).toBe(0);
    const missing = 2_000_000_000;

    const answer = await op.callContract(adminOrderTakeMany, { user_order_ids: [free1, theirs, free2, missing] });
    expect(answer.body.ret).toBe(0);
    expect(answer.result).toMatchObject({ succeeded: 2, failed: 2 });
    const rows = answer.result!.results;
    expect(rows.map((row) => row.user_order_id)).toEqual([free1, theirs, free2, missing]);
    expect(rows[0]).toMatchObject({ ret: 0, msg: '' });
    expect(rows[1]).toMatchObject({ ret: ErrorCode.REVIEW_ALREADY_TAKEN, version: null });
    expect(rows[3]).toMatchObject({ ret: ErrorCode.ORDER_NOT_FOUND, version: null });
    for (const row of [rows[1]!, rows[3]!]) expect(row.msg).toMatch(chinese);
    // Each row names its order by the number people know (YD…), the page's failure list shows it; none for a missing id.
    for (const [index, id] of [free1, theirs, free2].entries()) expect(rows[index]!.order_no).toBe(await orderNo(id));
    expect(rows[1]!.order_no).toMatch(/^YD\d+/);
    expect(rows[3]!.order_no).toBeNull();
    expect((await ctx.order(free1)).assignee_operator_id).toBe(op.operatorId);
    expect((await ctx.order(free2)).assignee_operator_id).toBe(op.operatorId);
    expect((await ctx.order(theirs)).assignee_operator_id).toBe(other.operatorId);
    // Taking one's own again changes nothing and succeeds.
    expect((await op.callContract(adminOrderTakeMany, { user_order_ids: [free1] })).result).toMatchObject({ succeeded: 1, failed: 0 });
  });

  it('bulk assign: supervisors only; an inactive or unknown assignee refuses the whole call; each order reported', async () => {
    const [a, b] = [await ctx.paidOrder(alice), await ctx.paidOrder(alice)];
    const op = await ctx.t.operator();
    const boss = await ctx.t.operator({ role: 'supervisor' });

    const refused = await op.callContract(adminOrderAssignMany, { user_order_ids: [a, b], operator_id: op.operatorId });
    expect(refused.body.ret).not.toBe(0);
    expect(refused.body.msg).toMatch(chinese);
    expect((await ctx.order(a)).assignee_operator_id).toBeNull();

    const nobody = await boss.callContract(adminOrderAssignMany, { user_order_ids: [a], operator_id: 2_000_000_000 });
    expect(nobody.body.ret).toBe(ErrorCode.REVIEW_OPERATOR_NOT_FOUND);
    expect(nobody.body.msg).toMatch(chinese);

    // A draft order (not paid) is refused for itself; the others are assigned.
    const { userOrderId: draft } = await import('../../test-support/fixtures/material.ts').then((m) =>
      m.draftOrder(ctx.t, alice, ctx.products.withPhoto.visa_product_id, [0]),
    );
    const answer = await boss.callContract(adminOrderAssignMany, { user_order_ids: [a, draft, b], operator_id: op.operatorId });
    expect(answer.body.ret).toBe(0);
    expect(answer.result).toMatchObject({ succeeded: 2, failed: 1 });
    expect(answer.result!.results[1]!.ret).not.toBe(0);
    expect(answer.result!.results[1]!.msg).toMatch(chinese);
    expect(answer.result!.results[1]!.order_no).toBe(await orderNo(draft));
    expect((await ctx.order(a)).assignee_operator_id).toBe(op.operatorId);
    expect((await ctx.order(b)).assignee_operator_id).toBe(op.operatorId);
    const events = await ctx.events(a);
    expect(events.at(-1)).toMatchObject({ event: 'assign', actor: 'operator', actor_id: boss.operatorId });
  });

  it('refuses a bad list whole with a Chinese message: empty, repeated, too long, not ids', async () => {
    const op = await ctx.t.operator();
    const boss = await ctx.t.operator({ role: 'supervisor' });
    const tooMany = Array.from({ length: QUEUE_BULK_MAX + 1 }, (_, i) => i + 1);
    for (const payload of [
      { user_order_ids: [] },
      { user_order_ids: [1, 1] },
      { user_order_ids: tooMany },
      { user_order_ids: ['abc'] },
      { user_order_ids: 5 },
      { user_order_ids: [0] },
      {},
    ]) {
      const answer = await ctx.t.call(adminOrderTakeMany.path, payload, { token: op.token });
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.ret, JSON.stringify(payload)).toBe(ErrorCode.INVALID_PARAMS);
      expect(answer.body.msg).toMatch(chinese);
    }
    const noAssignee = await ctx.t.call(adminOrderAssignMany.path, { user_order_ids: [1] }, { token: boss.token });
    expect(noAssignee.body.ret).toBe(ErrorCode.INVALID_PARAMS);
    expect(noAssignee.body.msg).toMatch(chinese);
  });

  it('即将超时 lists orders due within a day (overdue included); due time sorts both ways', async () => {
    const [soon, later, overdue] = [await ctx.paidOrder(alice), await ctx.paidOrder(alice), await ctx.paidOrder(alice)];
    const now = ctx.t.clock.now;
    const hour = 3_600_000;
    const set = (id: number, due: number) => ctx.t.db.updateTable('user_order').set({ step_due_at: due }).where('user_order_id', '=', id).execute();
    await set(soon, now + 2 * hour);
    await set(later, now + 72 * hour);
    await set(overdue, now - hour);
    const boss = await ctx.t.operator({ role: 'supervisor' });
    const ours = new Set([soon, later, overdue]);

    const dueSoon = (await boss.callContract(adminOrderQueue, { due_soon: true, page_size: 100 })).result!.list.map((row) => row.user_order_id);
    expect(dueSoon).toContain(soon);
    expect(dueSoon).toContain(overdue);
    expect(dueSoon).not.toContain(later);

    const asc = (await boss.callContract(adminOrderQueue, { page_size: 100 })).result!.list.filter((row) => ours.has(row.user_order_id));
    expect(asc.map((row) => row.user_order_id)).toEqual([overdue, soon, later]);
    const desc = (await boss.callContract(adminOrderQueue, { sort: 'due_desc', page_size: 100 })).result!.list.filter((row) => ours.has(row.user_order_id));
    expect(desc.map((row) => row.user_order_id)).toEqual([later, soon, overdue]);
    const badSort = await ctx.t.call(adminOrderQueue.path, { sort: 'sideways' }, { token: boss.token });
    expect(badSort.body.ret).toBe(ErrorCode.INVALID_PARAMS);
    expect(badSort.body.msg).toMatch(chinese);
  });

  it('keeps each operator’s last chosen view: 全部 until chosen, then their own choice only', async () => {
    const op = await ctx.t.operator();
    const other = await ctx.t.operator();
    expect((await op.callContract(adminQueueView, {})).result).toEqual({ view: 'all' });
    expect((await op.callContract(adminQueueViewSave, { view: 'mine' })).result).toEqual({ view: 'mine' });
    expect((await op.callContract(adminQueueViewSave, { view: 'due_soon' })).result).toEqual({ view: 'due_soon' });
    expect((await other.callContract(adminQueueViewSave, { view: 'mine' })).result).toEqual({ view: 'mine' });
    expect((await op.callContract(adminQueueView, {})).result).toEqual({ view: 'due_soon' });
    expect((await other.callContract(adminQueueView, {})).result).toEqual({ view: 'mine' });
    const bad = await ctx.t.call(adminQueueViewSave.path, { view: 'everything' }, { token: op.token });
    expect(bad.body.ret).toBe(ErrorCode.INVALID_PARAMS);
    expect(bad.body.msg).toMatch(chinese);
  });
});
