// The operator's workbench in one read (issue 24, decision 0035): the
// /admin-api/order/workbench answer carries the order's version and the
// events the caller may fire, and every panel exactly as the panel's own
// call answers it — the workbench page reads nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOrderTake, adminOrderWorkbench } from '../../../common/contracts/admin-order.ts';
import { orderDetailGet } from '../../../common/contracts/order.ts';
import { adminInterviewPanel } from '../../../common/contracts/interview-notice.ts';
import { adminMailGet } from '../../../common/contracts/mail.ts';
import { adminPageCheckDetail } from '../../../common/contracts/page-check.ts';
import { adminPriceDifferenceList } from '../../../common/contracts/price-difference.ts';
import { adminRefundList } from '../../../common/contracts/refund.ts';
import { adminShipBackGet } from '../../../common/contracts/ship-back.ts';
import { adminTravellerMessages } from '../../../common/contracts/traveller-message.ts';
import { adminResultDetail } from '../../../common/contracts/visa-result.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
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

describe(`the operator's workbench (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('one read: the order with its version and allowed events, and every panel as its own call answers it', async () => {
    const id = await ctx.paidOrder(alice);
    const op = await ctx.t.operator();
    const boss = await ctx.t.operator({ role: 'supervisor' });

    const before = (await op.callContract(adminOrderWorkbench, { user_order_id: id })).result!;
    // Nobody's yet: the operator may take it (assign), not review it.
    expect(before.order).toMatchObject({ user_order_id: id, status: 'processing', step: 'material_review', assignee: null });
    expect(before.order.allowed_events).toContain('assign');
    expect(before.can_review).toBe(false);

    await op.callContract(adminOrderTake, { user_order_id: id });
    for (const caller of [op, boss]) {
      const bench = (await caller.callContract(adminOrderWorkbench, { user_order_id: id })).result!;
      expect(bench.order.version).toBe(before.order.version + 1);
      expect(bench.order.allowed_events).toContain('material_review');
      expect(bench.can_review).toBe(true);
      // An event the rules refuse now is never also allowed, and carries the rule's Chinese reason.
      for (const blocked of bench.order.blocked_events) {
        expect(bench.order.allowed_events).not.toContain(blocked.event);
        expect(blocked.reason).toMatch(/[\u4e00-\u9fff]/);
      }
      const own = async <R>(contract: { path: string; result: { parse(v: unknown): R } }) => {
        const answer = await caller.call(contract.path, { user_order_id: id });
        return answer.body.ret === 0 ? contract.result.parse(answer.body.body) : null;
      };
      expect(bench.panels).toEqual({
        page_check: await own(adminPageCheckDetail),
        mail: await own(adminMailGet),
        ship_back: await own(adminShipBackGet),
        interview: bench.product.need_interview ? await own(adminInterviewPanel) : null,
        price_difference: await own(adminPriceDifferenceList),
        refund: await own(adminRefundList),
        result: await own(adminResultDetail),
        traveller_messages: await own(adminTravellerMessages),
      });
      // The panels that always answer for a paid order do.
      expect(bench.panels.price_difference).toMatchObject({ version: bench.order.version });
      expect(bench.panels.refund).not.toBeNull();
      expect(bench.panels.result).not.toBeNull();
      expect(bench.panels.traveller_messages).not.toBeNull();
    }
  });

  it('shows each applicant’s passport number and expiry, with the customer’s warning when it runs out less than six months after the trip', async () => {
    const id = await ctx.paidOrder(alice);
    const op = await ctx.t.operator();
    const applicants = await ctx.t.db.selectFrom('order_applicant').select('applicant_id').where('user_order_id', '=', id).orderBy('sort').execute();
    // Departure 2026-12-28 and the product's 30-day stay: the trip ends 2027-01-26, the passport must last until 2027-07-26.
    await ctx.t.db
      .updateTable('order_applicant')
      .set({ passport_no: 'E12345678', passport_expiry: '2027-07-25' })
      .where('applicant_id', '=', applicants[0]!.applicant_id)
      .execute();
    await ctx.t.db
      .updateTable('order_applicant')
      .set({ passport_no: 'EA7654321', passport_expiry: '2027-07-26' })
      .where('applicant_id', '=', applicants[1]!.applicant_id)
      .execute();
    const bench = (await op.callContract(adminOrderWorkbench, { user_order_id: id })).result!;
    const customerView = (await ctx.t.callContract(orderDetailGet, { user_order_id: id }, { token: alice.token })).result!;
    const warning =
      '护照有效期不足行程结束后6个月，可能被拒签，请尽快更换护照（护照有效期至 2027-07-25；行程按出发日期 2026-12-28 加签证停留 30 天计至 2027-01-26，护照需有效至 2027-07-26）';
    expect(bench.applicants.map((a) => [a.passport_no, a.passport_expiry, a.passport_warning])).toEqual([
      ['E12345678', '2027-07-25', warning],
      ['EA7654321', '2027-07-26', null],
    ]);
    // The same words the customer sees before payment and on the order detail.
    expect(customerView.applicants.map((a) => a.passport_warning)).toEqual(bench.applicants.map((a) => a.passport_warning));

    // Without an expiry there is nothing to warn about; the number still shows.
    await ctx.t.db.updateTable('order_applicant').set({ passport_expiry: null }).where('applicant_id', '=', applicants[0]!.applicant_id).execute();
    const later = (await op.callContract(adminOrderWorkbench, { user_order_id: id })).result!;
    expect(later.applicants[0]).toMatchObject({ passport_no: 'E12345678', passport_expiry: null, passport_warning: null });
  });

  it('refuses a missing order as the call always did', async () => {
    const op = await ctx.t.operator();
    expect((await op.callContract(adminOrderWorkbench, { user_order_id: 999_999 })).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
  });
});
