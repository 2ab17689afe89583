// Refunds through the real app on SQLite or PostgreSQL (TEST_DATABASE_URL):
// the refused applicant's refund (once, even from two transactions at the
// same time; none without 拒签退全款), the supervisor's refund by hand and
// the full refund that closes an order before submission, the worker that
// gives refunds to the sandbox provider (once, even with two workers, or two
// instances with their job runners and connection pools), the sandbox's signed
// refund notification (duplicated, badly signed) and the query fallback when
// it is lost, the customer's order detail, bad input, and the after-commit
// hook that sends a result_reject's refund right after its commit (no timer;
// none for a rolled-back change).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOrderQueue } from '../../../common/contracts/admin-order.ts';
import { adminRefundClose, adminRefundCreate, adminRefundFailedCount, adminRefundList } from '../../../common/contracts/refund.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { type Customer, eventually, MINUTE, type PaymentTestContext, paymentTestContext } from '../../test-support/fixtures/payment.ts';
import type { NotifyTransport } from '../payment/sandbox-notifier.ts';
import { sandboxRefundNotificationBody } from '../payment/sandbox-notifier.ts';
import { signedSandboxHeaders } from '../payment/sandbox-signature.ts';
import type { PaymentProvider } from '../payment/provider.ts';
import { refundOnRejection } from './on-rejection.ts';
import { createRefundWorker, installRefundWorker, REFUND_JOB } from './refund-worker.ts';
import { createOrderLifecycle } from '../order/lifecycle.ts';
import { createJobRunner } from '../../platform/jobs.ts';

let ctx: PaymentTestContext;
let alice: Customer;
let op: Awaited<ReturnType<PaymentTestContext['t']['operator']>>;
let boss: Awaited<ReturnType<PaymentTestContext['t']['operator']>>;
let delivered: NotifyTransport;

beforeAll(async () => {
  ctx = await paymentTestContext();
  alice = await ctx.customer();
  op = await ctx.t.operator();
  boss = await ctx.t.operator({ role: 'supervisor' });
  delivered = async (url, body, headers) => {
    const response = await ctx.t.app.inject({ method: 'POST', url: new URL(url).pathname, payload: body, headers });
    return { status: response.statusCode, body: response.body };
  };
});
afterAll(() => ctx.close());

/** A paid order (processing · material_review); with `rejectRefund` its product has 拒签退全款. */
async function paidOrder(options: { rejectRefund?: boolean; step?: string } = {}): Promise<{ id: number; total: number; outTradeNo: string }> {
  const { userOrderId, total } = await ctx.pendingOrder(alice);
  const created = await ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat' }, alice);
  expect(created.ret, created.msg).toBe(0);
  const outTradeNo = created.body.out_trade_no as string;
  expect(
    await ctx.t.app.payments.sandbox.ledger.pay(outTradeNo, { at: ctx.t.clock.now, provider_trade_no: `4200${outTradeNo}`, notify_id: `N-${outTradeNo}` }),
  ).toBe(true);
  const note = await ctx.signedNotification(outTradeNo);
  expect((await ctx.postNotification(note.body, note.headers)).status).toBe(200);
  expect((await ctx.order(userOrderId)).status).toBe('processing');
  // Test set-up (the product's flag and the order's step are other modules' business).
  await ctx.t.db
    .updateTable('user_order')
    .set({ reject_refund: options.rejectRefund ? 1 : 0, ...(options.step ? { step: options.step as 'submitted' } : {}) })
    .where('user_order_id', '=', userOrderId)
    .execute();
  return { id: userOrderId, total, outTradeNo };
}

async function applicantsOf(userOrderId: number) {
  return ctx.t.db.selectFrom('order_applicant').select(['applicant_id', 'name']).where('user_order_id', '=', userOrderId).orderBy('sort').execute();
}

async function refunds(userOrderId: number) {
  return ctx.t.db.selectFrom('refund').selectAll().where('user_order_id', '=', userOrderId).orderBy('refund_id').execute();
}

/** The app's worker is stopped by an earlier test: a worker of the test's own sends the order's refunds (and asks about those sent). */
async function sendRefunds(userOrderId: number) {
  await createRefundWorker({ db: ctx.t.db, provider: ctx.t.app.payments.sandbox.provider, now: () => ctx.t.clock.now, sweepMs: 0 }).drain();
  return refunds(userOrderId);
}

async function panel(userOrderId: number) {
  return (await op.callContract(adminRefundList, { user_order_id: userOrderId })).result!;
}

async function detail(userOrderId: number) {
  const answer = await ctx.call('/www/order/order_detail_get', { user_order_id: userOrderId }, alice);
  expect(answer.ret, answer.msg).toBe(0);
  return answer.body;
}

function rejectTwiceAtOnce(userOrderId: number, applicantId: number) {
  const at = ctx.t.clock.now;
  return Promise.all([
    ctx.t.db.transaction().execute((trx) => refundOnRejection(trx, { userOrderId, applicantId, at })),
    ctx.t.db.transaction().execute((trx) => refundOnRejection(trx, { userOrderId, applicantId, at })),
  ]);
}

/** Lets the sandbox's notifications through (in-process), or drops them (a lost notification). */
function notifications(mode: 'delivered' | 'lost') {
  ctx.t.app.payments.sandbox.notifier.setTransport(mode === 'delivered' ? delivered : async () => ({ status: 503, body: 'lost' }));
}

describe(`refunds (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it("creates a refused applicant's refund once, even when asked twice at the same time, and it reaches 已退款 through the signed notification", async () => {
    notifications('delivered');
    const { id, total } = await paidOrder({ rejectRefund: true });
    const [first] = await applicantsOf(id);
    const [a, b] = await rejectTwiceAtOnce(id, first!.applicant_id);
    // Both calls answer the one refund: the applicant's share (2 applicants, no insurance: half the total).
    expect(a).toEqual({ refundId: expect.any(Number), amount: total / 2 });
    expect(b).toEqual(a);
    expect(await refunds(id)).toHaveLength(1);
    expect(await ctx.events(id, 'refund_create')).toHaveLength(1);
    // Asked again later: the same refund, nothing new written.
    expect(
      await ctx.t.db.transaction().execute((trx) => refundOnRejection(trx, { userOrderId: id, applicantId: first!.applicant_id, at: ctx.t.clock.now })),
    ).toEqual(a);
    expect(await ctx.events(id, 'refund_create')).toHaveLength(1);
    // The customer is told (in-app and e-mail queue).
    const notices = await ctx.t.db.selectFrom('notice').select(['kind', 'recipient_id']).where('user_order_id', '=', id).execute();
    expect(notices).toContainEqual({ kind: 'refund_create', recipient_id: alice.accountId });

    // The worker (poked after the commit) gives it to the sandbox; the sandbox's notification settles it.
    await eventually(async () => expect((await refunds(id))[0]!.status).toBe('succeeded'));
    const [refund] = await refunds(id);
    expect(refund).toMatchObject({ kind: 'rejection', applicant_id: first!.applicant_id, amount: total / 2, refunded_at: expect.any(Number) });
    expect(await ctx.events(id, 'refund_settle')).toHaveLength(1);
    const sandbox = await ctx.t.db
      .withTables<{ payment_sandbox_refund: { out_refund_no: string; state: string; amount: number } }>()
      .selectFrom('payment_sandbox_refund')
      .selectAll()
      .where('out_refund_no', '=', refund!.out_refund_no)
      .execute();
    expect(sandbox).toMatchObject([{ state: 'SUCCESS', amount: total / 2 }]);
    // The customer's order detail shows it, 已退款.
    const shown = await detail(id);
    expect(shown.refunds).toMatchObject([
      {
        refund_id: refund!.refund_id,
        applicant_id: first!.applicant_id,
        applicant_name: first!.name,
        kind: 'rejection',
        amount: total / 2,
        status: 'succeeded',
        status_label: '已退款',
      },
    ]);
    const kinds = (await ctx.t.db.selectFrom('notice').select('kind').where('user_order_id', '=', id).execute()).map((row) => row.kind);
    expect(kinds).toContain('refund_settle');
  });

  it("works inside a result_reject change's own transaction, as the result service calls it, even when the result is recorded twice at once", async () => {
    notifications('delivered');
    const { id, total } = await paidOrder({ rejectRefund: true, step: 'submitted' });
    const [, second] = await applicantsOf(id);
    const lifecycle = createOrderLifecycle(ctx.t.db, { now: () => ctx.t.clock.now });
    const reject = () =>
      lifecycle.change(op.principal, id, (_order, at) => {
        let refund: { refundId: number; amount: number } | null = null;
        return {
          event: 'result_reject',
          applicants: [{ applicant_id: second!.applicant_id, set: { status: 'rejected' } }],
          within: async (trx) => {
            refund = await refundOnRejection(trx, { userOrderId: id, applicantId: second!.applicant_id, at });
          },
          detail: () => ({ applicant_id: second!.applicant_id, refund }),
        };
      });
    const states = await Promise.all([reject(), reject()]);
    expect(states.every((state) => state.status === 'processing')).toBe(true);
    const made = await refunds(id);
    expect(made).toMatchObject([{ kind: 'rejection', applicant_id: second!.applicant_id, amount: total / 2 }]);
    expect(await ctx.events(id, 'refund_create')).toHaveLength(1);
    // The result's own audit row names the refund.
    const results = await ctx.events(id, 'result_reject');
    expect(results.length).toBeGreaterThanOrEqual(1);
    expect(results[0]!.detail).toContain(`"refundId":${made[0]!.refund_id}`);
    // The version the result change returned is the order's (refund_create does not move it).
    expect((await ctx.order(id)).version).toBe(Math.max(...states.map((state) => state.version)));
    await eventually(async () => expect((await refunds(id))[0]!.status).toBe('succeeded'));
  });

  it('every applicant refused on a 拒签退全款 order: their shares give back the whole payment', async () => {
    const { id } = await paidOrder({ rejectRefund: true, step: 'submitted' });
    const applicants = await applicantsOf(id);
    for (const applicant of applicants) {
      await ctx.t.db.updateTable('order_applicant').set({ status: 'rejected' }).where('applicant_id', '=', applicant.applicant_id).execute();
      await ctx.t.db.transaction().execute((trx) => refundOnRejection(trx, { userOrderId: id, applicantId: applicant.applicant_id, at: ctx.t.clock.now }));
    }
    // The two shares are the whole payment.
    const made = await refunds(id);
    expect(made.reduce((sum, refund) => sum + refund.amount, 0)).toBe((await panel(id)).paid_total);
  });

  it('makes no refund when the product has no 拒签退全款, or for an applicant of another order', async () => {
    const { id } = await paidOrder({ rejectRefund: false });
    const [first] = await applicantsOf(id);
    expect(await rejectTwiceAtOnce(id, first!.applicant_id)).toEqual([null, null]);
    expect(await refunds(id)).toHaveLength(0);
    expect(await ctx.events(id, 'refund_create')).toHaveLength(0);

    const other = await paidOrder({ rejectRefund: true });
    expect(
      await ctx.t.db.transaction().execute((trx) => refundOnRejection(trx, { userOrderId: other.id, applicantId: first!.applicant_id, at: ctx.t.clock.now })),
    ).toBeNull();
    expect(await refunds(other.id)).toHaveLength(0);
  });

  it('refunds by hand for supervisors only, never more than remains, and refuses a double submission', async () => {
    notifications('delivered');
    const { id, total } = await paidOrder({ rejectRefund: true });
    const seen = await panel(id);
    expect(seen).toMatchObject({ paid_total: total, refunded_total: 0, refundable: total, can_refund: true, can_close: true, list: [], last_refund_id: 0 });
    const ask = (by: typeof op, amount: number, reason = '客户取消部分服务', extra: { version?: number; last_refund_id?: number } = {}) =>
      by.callContract(adminRefundCreate, { user_order_id: id, version: extra.version ?? seen.version, last_refund_id: extra.last_refund_id, amount, reason });

    const byOperator = await ask(op, 1_000);
    expect(byOperator.body.ret).toBe(ErrorCode.REFUND_SUPERVISOR_ONLY);
    expect(byOperator.body.msg).toBe('只有主管可以退款');
    expect((await ask(boss, 0)).body.ret).toBe(ErrorCode.REFUND_AMOUNT_INVALID);
    expect((await ask(boss, -5)).body.ret).toBe(ErrorCode.REFUND_AMOUNT_INVALID);
    expect((await ask(boss, 10.5)).body.ret).toBe(ErrorCode.REFUND_AMOUNT_INVALID);
    expect((await ask(boss, 1_000, ' ')).body.ret).toBe(ErrorCode.REFUND_REASON_INVALID);
    expect((await ask(boss, total + 1)).body.ret).toBe(ErrorCode.REFUND_AMOUNT_EXCEEDS);
    expect((await ask(boss, 1_000, '客户取消部分服务', { version: seen.version - 1 })).body.ret).toBe(ErrorCode.REFUND_ORDER_STALE);
    expect(await refunds(id)).toHaveLength(0);

    const made = await ask(boss, 1_000, '客户取消部分服务', { last_refund_id: 0 });
    expect(made.body.ret, made.body.msg).toBe(0);
    expect(made.result).toMatchObject({ refunded_total: 1_000, refundable: total - 1_000, list: [{ kind: 'manual', amount: 1_000, created_by: boss.name }] });
    // The same form sent again (a double click): the refund list moved on, refused.
    expect((await ask(boss, 1_000, '客户取消部分服务', { last_refund_id: 0 })).body.ret).toBe(ErrorCode.REFUND_ORDER_STALE);
    // A refund moves the order's version: the panel seen before it is stale.
    const after = made.result!.version;
    expect(after).toBe(seen.version + 1);
    expect((await ask(boss, 1_000)).body.ret).toBe(ErrorCode.REFUND_ORDER_STALE);
    // Never more than what remains, pending refunds included.
    expect((await ask(boss, total - 1_000 + 1, '退回剩余款项', { version: after, last_refund_id: made.result!.last_refund_id })).body.ret).toBe(
      ErrorCode.REFUND_AMOUNT_EXCEEDS,
    );
    // Two at the same time for the whole rest, from the same panel: one wins, the other is stale.
    const rest = total - 1_000;
    const both = await Promise.all([ask(boss, rest, '退回剩余款项', { version: after }), ask(boss, rest, '退回剩余款项', { version: after })]);
    expect(both.map((answer) => answer.body.ret).sort()).toEqual([0, ErrorCode.REFUND_ORDER_STALE].sort());
    const all = await refunds(id);
    expect(all.reduce((sum, refund) => sum + refund.amount, 0)).toBe(total);
    expect((await ask(boss, 1, '退回剩余款项', { version: (await panel(id)).version })).body.ret).toBe(ErrorCode.REFUND_NOTHING_PAID);
    // A refused applicant now gets nothing more: nothing is left of the payment.
    const [first] = await applicantsOf(id);
    expect(await rejectTwiceAtOnce(id, first!.applicant_id)).toEqual([null, null]);
    expect(await ctx.events(id, 'refund_create')).toHaveLength(2);
    await eventually(async () => expect((await refunds(id)).every((refund) => refund.status === 'succeeded')).toBe(true));

    // Not for an unpaid order.
    const { userOrderId: unpaid } = await ctx.pendingOrder(alice);
    const unpaidPanel = await panel(unpaid);
    expect(unpaidPanel).toMatchObject({ can_refund: false, can_close: false, refundable: 0 });
    expect(
      (await boss.callContract(adminRefundCreate, { user_order_id: unpaid, version: unpaidPanel.version, amount: 100, reason: '测试退款' })).body.ret,
    ).toBe(ErrorCode.REFUND_ORDER_STATE);
  });

  it('makes one refund of twenty parallel submissions of the same panel (same version)', async () => {
    const { id } = await paidOrder();
    const seen = await panel(id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => boss.callContract(adminRefundCreate, { user_order_id: id, version: seen.version, amount: 100, reason: '重复提交测试' })),
    );
    const rets = answers.map((answer) => answer.body.ret);
    expect(rets.filter((ret) => ret === 0)).toHaveLength(1);
    expect(rets.filter((ret) => ret === ErrorCode.REFUND_ORDER_STALE)).toHaveLength(19);
    expect(await refunds(id)).toHaveLength(1);
    expect(await ctx.events(id, 'refund_create')).toHaveLength(1);
  });

  it('closes an order with a full refund before submission only (supervisor), and it shows under 已取消/已退款', async () => {
    notifications('delivered');
    const submitted = await paidOrder({ step: 'submitted' });
    const late = await panel(submitted.id);
    expect(late.can_close).toBe(false);
    expect((await boss.callContract(adminRefundClose, { user_order_id: submitted.id, version: late.version, reason: '客户取消行程' })).body.ret).toBe(
      ErrorCode.REFUND_CLOSE_NOT_ALLOWED,
    );

    const { id, total } = await paidOrder();
    const seen = await panel(id);
    expect((await op.callContract(adminRefundClose, { user_order_id: id, version: seen.version, reason: '客户取消行程' })).body.ret).toBe(
      ErrorCode.REFUND_SUPERVISOR_ONLY,
    );
    expect((await boss.callContract(adminRefundClose, { user_order_id: id, version: seen.version, reason: '' })).body.ret).toBe(
      ErrorCode.REFUND_REASON_INVALID,
    );
    expect((await boss.callContract(adminRefundClose, { user_order_id: id, version: seen.version + 1, reason: '客户取消行程' })).body.ret).toBe(
      ErrorCode.REFUND_ORDER_STALE,
    );
    const closed = await boss.callContract(adminRefundClose, { user_order_id: id, version: seen.version, reason: '客户取消行程' });
    expect(closed.body.ret, closed.body.msg).toBe(0);
    expect(closed.result).toMatchObject({
      status: 'refunded',
      refundable: 0,
      refunded_total: total,
      can_close: false,
      can_refund: false,
      list: [{ kind: 'close', amount: total }],
    });
    expect(await ctx.events(id, 'close_refund')).toMatchObject([{ from_status: 'processing', to_status: 'refunded', actor: 'operator' }]);
    // Again: the order is no longer before submission.
    expect((await boss.callContract(adminRefundClose, { user_order_id: id, version: closed.result!.version, reason: '客户取消行程' })).body.ret).toBe(
      ErrorCode.REFUND_CLOSE_NOT_ALLOWED,
    );
    await eventually(async () => expect((await refunds(id))[0]!.status).toBe('succeeded'));
    const shown = await detail(id);
    expect(shown).toMatchObject({ status: 'refunded', status_label: '已退款', refunds: [{ kind: 'close', amount: total, status_label: '已退款' }] });
    const list = await ctx.call('/www/order/order_list', { tab: 'closed' }, alice);
    expect(list.ret).toBe(0);
    expect((list.body.page_data as Array<{ user_order_id: number }>).map((order) => order.user_order_id)).toContain(id);
  });

  it('settles a refund once on its notification: a duplicate is answered ok and changes nothing, a bad signature is refused', async () => {
    notifications('lost');
    const { id, total } = await paidOrder();
    const seen = await panel(id);
    expect((await boss.callContract(adminRefundCreate, { user_order_id: id, version: seen.version, amount: 2_000, reason: '服务费调整' })).body.ret).toBe(0);
    await eventually(async () => expect((await refunds(id))[0]!.status).toBe('processing'));
    const [refund] = await refunds(id);
    const sandboxRefund = await ctx.t.app.payments.sandbox.ledger.findRefund(refund!.out_refund_no, ctx.t.clock.now);
    expect(sandboxRefund).toMatchObject({ state: 'SUCCESS', amount: 2_000 });
    const body = sandboxRefundNotificationBody(sandboxRefund!);
    const post = async (payload: string, headers: Record<string, string>) => {
      const response = await ctx.t.app.inject({ method: 'POST', url: '/pay/refund-notify/sandbox', payload, headers });
      return { status: response.statusCode, json: response.json() as { code: string } };
    };

    // Badly signed (another secret), or signed but changed afterwards: refused, nothing changes.
    expect(await post(body, signedSandboxHeaders('not-the-secret', body, ctx.t.clock.now))).toMatchObject({ status: 401, json: { code: 'FAIL' } });
    const forged = body.replace('"amount":2000', `"amount":${total}`);
    expect(await post(forged, signedSandboxHeaders(ctx.secret, body, ctx.t.clock.now))).toMatchObject({ status: 401 });
    expect((await refunds(id))[0]!.status).toBe('processing');
    expect(await ctx.events(id, 'refund_settle')).toHaveLength(0);

    // The real one, twice at once and once more: settled once.
    const headers = () => signedSandboxHeaders(ctx.secret, body, ctx.t.clock.now);
    const answers = await Promise.all([post(body, headers()), post(body, headers())]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await post(body, headers())).toMatchObject({ status: 200, json: { code: 'SUCCESS' } });
    const [settled] = await refunds(id);
    expect(settled).toMatchObject({ status: 'succeeded', refunded_at: expect.any(Number) });
    expect(await ctx.events(id, 'refund_settle')).toHaveLength(1);
    const outcomes = (
      await ctx.t.db.selectFrom('payment_notification').select(['outcome', 'signature_valid']).where('notify_id', '=', sandboxRefund!.notify_id).execute()
    ).map((row) => row.outcome);
    expect(outcomes.filter((outcome) => outcome === 'refund_succeeded')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'refund_duplicate')).toHaveLength(2);
    // The sandbox's own duplicate sending is answered success too.
    notifications('delivered');
    expect(await ctx.t.app.payments.sandbox.notifier.resendRefund(refund!.out_refund_no, 2)).toEqual([true, true]);
    expect(await ctx.events(id, 'refund_settle')).toHaveLength(1);
  });

  it("settles by querying the provider when the refund's notification is lost", async () => {
    notifications('lost');
    const { id } = await paidOrder();
    const seen = await panel(id);
    expect((await boss.callContract(adminRefundCreate, { user_order_id: id, version: seen.version, amount: 3_000, reason: '服务费调整' })).body.ret).toBe(0);
    await eventually(async () => expect((await refunds(id))[0]!.status).toBe('processing'));
    // Nothing comes; a minute later the worker asks the sandbox, which says SUCCESS.
    ctx.t.clock.now += 2 * MINUTE;
    await ctx.t.app.refunds.worker.drain();
    expect((await refunds(id))[0]).toMatchObject({ status: 'succeeded' });
    expect(await ctx.events(id, 'refund_settle')).toMatchObject([{ detail: expect.stringContaining('"source":"query"') }]);
    expect((await detail(id)).refunds).toMatchObject([{ status: 'succeeded', status_label: '已退款' }]);
  });

  it('sends each refund to the provider once, even with two workers draining at the same time; a refusal fails it and frees the money', async () => {
    await ctx.t.app.refunds.stopWorker();
    notifications('lost');
    const provider = ctx.t.app.payments.sandbox.provider;
    const calls: string[] = [];
    const counting: Pick<PaymentProvider, 'refund' | 'queryRefund'> = {
      refund: async (input) => {
        calls.push(input.out_refund_no);
        // A slow provider: both workers are busy at once.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return provider.refund(input);
      },
      queryRefund: (no) => provider.queryRefund(no),
    };
    const { id, total } = await paidOrder();
    for (const amount of [1_000, 2_000, 3_000]) {
      const seen = await panel(id);
      expect((await boss.callContract(adminRefundCreate, { user_order_id: id, version: seen.version, amount, reason: '分次退款' })).body.ret).toBe(0);
    }
    const workers = [1, 2].map(() => createRefundWorker({ db: ctx.t.db, provider: counting, now: () => ctx.t.clock.now, sweepMs: 0 }));
    const results = await Promise.all(workers.map((worker) => worker.drain()));
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(3);
    const made = await refunds(id);
    expect(calls.sort()).toEqual(made.map((refund) => refund.out_refund_no).sort());
    expect(made.every((refund) => refund.status === 'processing')).toBe(true);
    // Nothing is due any more: a second drain calls nobody.
    await Promise.all(workers.map((worker) => worker.drain()));
    expect(calls).toHaveLength(3);

    // A refund the provider refuses for good (more than its trade has left) fails, and its money is refundable again.
    const rest = total - 6_000;
    const extra = await ctx.t.db
      .insertInto('refund')
      .values({
        ...made[0]!,
        refund_id: undefined,
        amount: rest + 1,
        out_refund_no: `RFTEST${id}`,
        status: 'pending',
        next_attempt_at: ctx.t.clock.now,
        attempts: 0,
        claimed_until: null,
        claim_token: null,
      })
      .returning('refund_id')
      .executeTakeFirstOrThrow();
    await workers[0]!.drain();
    expect(
      await ctx.t.db.selectFrom('refund').select(['status', 'last_error']).where('refund_id', '=', extra.refund_id).executeTakeFirstOrThrow(),
    ).toMatchObject({
      status: 'failed',
      last_error: expect.stringContaining('NOT_ENOUGH'),
    });
  });

  it("tells the operators of a refund the provider refused: the 工作台 count and the queue's 退款失败 filter, until a refund by hand gives the money back", async () => {
    notifications('delivered');
    const { id, total, outTradeNo } = await paidOrder();
    const failedQueue = async () =>
      (await op.callContract(adminOrderQueue, { refund: 'failed', assignee: 'all', page: 1, page_size: 100 })).result!.list.map((row) => row.user_order_id);
    const count = async () => (await op.callContract(adminRefundFailedCount, {})).result!;
    const before = await count();
    expect(await failedQueue()).not.toContain(id);

    // The trade's money was given back at the provider outside this system (its merchant console):
    // the provider refuses our refund for good (NOT_ENOUGH), the refund fails.
    const sandboxRefunds = ctx.t.db.withTables<{
      payment_sandbox_refund: {
        out_refund_no: string;
        out_trade_no: string;
        provider_refund_no: string;
        amount: number;
        reason: string;
        state: string;
        notify_id: string;
        created_at: number;
        succeeds_at: number;
        success_at: number | null;
        notified_at: number | null;
      };
    }>();
    await sandboxRefunds
      .insertInto('payment_sandbox_refund')
      .values({
        out_refund_no: `RFCONSOLE${id}`,
        out_trade_no: outTradeNo,
        provider_refund_no: `5030CONSOLE${id}`,
        amount: total,
        reason: '商户平台退款',
        state: 'SUCCESS',
        notify_id: `NC${id}`,
        created_at: ctx.t.clock.now,
        succeeds_at: ctx.t.clock.now,
        success_at: ctx.t.clock.now,
        notified_at: ctx.t.clock.now,
      })
      .execute();
    const seen = await panel(id);
    expect((await boss.callContract(adminRefundCreate, { user_order_id: id, version: seen.version, amount: 5_000, reason: '客户取消加急服务' })).body.ret).toBe(
      0,
    );
    await eventually(async () => expect((await sendRefunds(id)).map((refund) => refund.status)).toEqual(['failed']));

    // Any operator sees it: one more failed refund on one more order, and the order under 退款失败.
    expect(await count()).toEqual({ refund_count: before.refund_count + 1, order_count: before.order_count + 1 });
    expect(await failedQueue()).toContain(id);
    const [row] = (await op.callContract(adminOrderQueue, { refund: 'failed', q: String(id), assignee: 'all', page: 1 })).result!.list;
    expect(row).toMatchObject({ user_order_id: id, step: 'material_review', step_label: '资料审核中' });
    // The plain queue's own filters still apply on top of it.
    expect((await op.callContract(adminOrderQueue, { refund: 'failed', step: 'submitted', q: String(id), assignee: 'all', page: 1 })).result!.total).toBe(0);

    // A refund by hand that is itself refused keeps it listed (the new failure is the one to redo).
    await ctx.t.clock.now++;
    const again = await panel(id);
    expect((await boss.callContract(adminRefundCreate, { user_order_id: id, version: again.version, amount: 5_000, reason: '重新发起退款' })).body.ret).toBe(0);
    await eventually(async () => expect((await sendRefunds(id)).map((refund) => refund.status)).toEqual(['failed', 'failed']));
    expect(await failedQueue()).toContain(id);
    expect((await count()).refund_count).toBe(before.refund_count + 1);

    // The console's refund is undone at the provider; the supervisor refunds again and it succeeds: the order leaves the list.
    await sandboxRefunds.updateTable('payment_sandbox_refund').set({ state: 'CLOSED' }).where('out_refund_no', '=', `RFCONSOLE${id}`).execute();
    ctx.t.clock.now += 1_000;
    const last = await panel(id);
    expect(last.refundable).toBe(total);
    const redo = await boss.callContract(adminRefundCreate, { user_order_id: id, version: last.version, amount: 5_000, reason: '重新发起退款' });
    expect(redo.body.ret, redo.body.msg).toBe(0);
    // Pending already counts as the redo: the money is on its way.
    expect(await failedQueue()).not.toContain(id);
    await eventually(async () => expect((await sendRefunds(id)).map((refund) => refund.status)).toEqual(['failed', 'failed', 'succeeded']));
    expect(await failedQueue()).not.toContain(id);
    expect(await count()).toEqual(before);
  });

  it("a refused applicant's refund that fails is not cleared by another applicant's rejection refund, nor listed once nothing is left to give back", async () => {
    notifications('delivered');
    const { id, total } = await paidOrder({ rejectRefund: true });
    const [first, second] = await applicantsOf(id);
    await ctx.t.db.transaction().execute((trx) => refundOnRejection(trx, { userOrderId: id, applicantId: first!.applicant_id, at: ctx.t.clock.now }));
    await eventually(async () => expect((await sendRefunds(id)).map((refund) => refund.status)).toEqual(['succeeded']));
    // The provider's final word on it is a refusal (ABNORMAL), as its notification or query may say.
    await ctx.t.db.updateTable('refund').set({ status: 'failed', refunded_at: null }).where('user_order_id', '=', id).execute();
    const listed = async () =>
      (await op.callContract(adminOrderQueue, { refund: 'failed', q: String(id), assignee: 'all', page: 1 })).result!.list.map((row) => row.user_order_id);
    expect(await listed()).toEqual([id]);
    // The second applicant's rejection refund is the system's, not an answer to the failure.
    ctx.t.clock.now += 1_000;
    await ctx.t.db.transaction().execute((trx) => refundOnRejection(trx, { userOrderId: id, applicantId: second!.applicant_id, at: ctx.t.clock.now }));
    await eventually(async () => expect((await sendRefunds(id)).map((refund) => refund.status)).toEqual(['failed', 'succeeded']));
    expect(await listed()).toEqual([id]);
    // Completed since (results in, passports home): still listed, its status standing in for the step.
    await ctx.t.db.updateTable('user_order').set({ status: 'completed', step: null }).where('user_order_id', '=', id).execute();
    const [row] = (await op.callContract(adminOrderQueue, { refund: 'failed', q: String(id), assignee: 'all', page: 1 })).result!.list;
    expect(row).toMatchObject({ user_order_id: id, step: null, step_label: '已完成', overdue: false, departure_at_risk: false });
    // Not in the plain queue, which is processing orders.
    expect((await op.callContract(adminOrderQueue, { q: String(id), assignee: 'all', page: 1 })).result!.total).toBe(0);
    // Everything paid given back by other refunds (here: booked directly): nothing is owed, the order leaves the list.
    await ctx.t.db.updateTable('refund').set({ amount: total }).where('user_order_id', '=', id).where('status', '=', 'succeeded').execute();
    expect(await listed()).toEqual([]);
  });

  it('the failed-refund count and filter are for operators only, and a bad filter value is refused in the envelope', async () => {
    const asCustomer = await ctx.call('/admin-api/order/refund_failed_count', {}, alice);
    expect(asCustomer.ret).toBe(ErrorCode.NOT_LOGGED_IN);
    expect(asCustomer.msg).toMatch(/[\u4e00-\u9fff]/);
    expect((await ctx.call('/admin-api/order/queue', { refund: 'failed' }, alice)).ret).toBe(ErrorCode.NOT_LOGGED_IN);
    expect((await ctx.t.call('/admin-api/order/refund_failed_count', {})).body.ret).toBe(ErrorCode.NOT_LOGGED_IN);
    for (const refund of ['nope', 'FAILED', 1, null, ['failed'], { failed: true }]) {
      const answer = await op.call('/admin-api/order/queue', { refund });
      expect(answer.status, JSON.stringify(refund)).toBeLessThan(500);
      expect(answer.body.ret, JSON.stringify(refund)).toBe(ErrorCode.INVALID_PARAMS);
      expect(answer.body.msg).toMatch(/[\u4e00-\u9fff]/);
    }
    const extra = await op.call('/admin-api/order/refund_failed_count', { refund: 'x'.repeat(10_000) });
    expect(extra.status).toBeLessThan(500);
  });

  it('never answers bad input with a 500', async () => {
    const { id } = await paidOrder();
    const bad: Array<[string, unknown]> = [
      ['/admin-api/order/refund_list', {}],
      ['/admin-api/order/refund_list', { user_order_id: 'x' }],
      ['/admin-api/order/refund_list', { user_order_id: 99_999_999 }],
      ['/admin-api/order/refund_create', { user_order_id: id }],
      ['/admin-api/order/refund_create', { user_order_id: id, version: 'v', amount: '100', reason: 5 }],
      ['/admin-api/order/refund_create', { user_order_id: id, version: 1, amount: 1e30, reason: '很长'.repeat(600) }],
      ['/admin-api/order/refund_create', { user_order_id: -1, version: 1, amount: 100, reason: '测试退款' }],
      ['/admin-api/order/close_refund', { user_order_id: id, version: null, reason: null }],
      ['/admin-api/order/close_refund', { user_order_id: 2 ** 40, version: 1, reason: '测试退款' }],
    ];
    for (const [path, payload] of bad) {
      const answer = await boss.call(path, payload);
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.body.ret, `${path} ${JSON.stringify(payload)}`).not.toBe(0);
    }
    expect((await boss.call('/admin-api/order/refund_list', { user_order_id: 99_999_999 })).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    for (const payload of ['', 'not json', '{"notify_id":1}', JSON.stringify({ out_refund_no: 'x'.repeat(5000) })]) {
      const response = await ctx.t.app.inject({ method: 'POST', url: '/pay/refund-notify/sandbox', payload, headers: { 'content-type': 'application/json' } });
      expect(response.statusCode).toBe(401);
    }
    // Signed but unreadable, or for a refund we do not have.
    const junk = '{"hello":"world"}';
    const response = await ctx.t.app.inject({
      method: 'POST',
      url: '/pay/refund-notify/sandbox',
      payload: junk,
      headers: signedSandboxHeaders(ctx.secret, junk, ctx.t.clock.now),
    });
    expect(response.statusCode).toBe(400);
    const unknown = JSON.stringify({
      notify_id: 'n1',
      out_refund_no: 'RFNOPE',
      out_trade_no: 'YQNOPE',
      provider_refund_no: '5030',
      refund_status: 'SUCCESS',
      amount: 100,
      success_at: ctx.t.clock.now,
    });
    const answered = await ctx.t.app.inject({
      method: 'POST',
      url: '/pay/refund-notify/sandbox',
      payload: unknown,
      headers: signedSandboxHeaders(ctx.secret, unknown, ctx.t.clock.now),
    });
    expect(answered.statusCode).toBe(404);
  });

  it('sends each refund once when two instances (each its job runner and connection pool) are poked at the same time', async () => {
    await ctx.t.app.refunds.stopWorker();
    notifications('lost');
    const provider = ctx.t.app.payments.sandbox.provider;
    const calls: string[] = [];
    const counting: Pick<PaymentProvider, 'refund' | 'queryRefund'> = {
      refund: async (input) => {
        calls.push(input.out_refund_no);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return provider.refund(input);
      },
      queryRefund: (no) => provider.queryRefund(no),
    };
    const { id } = await paidOrder();
    for (const amount of [500, 600, 700, 800, 900]) {
      const seen = await panel(id);
      expect((await boss.callContract(adminRefundCreate, { user_order_id: id, version: seen.version, amount, reason: '分次退款' })).body.ret).toBe(0);
    }
    const other = ctx.database.open();
    const runners = [ctx.t.db, other.db].map((db) => {
      const jobs = createJobRunner({ log: { warn: () => {} } });
      jobs.register(createRefundWorker({ db, provider: counting, now: () => ctx.t.clock.now, sweepMs: 0, batch: 2 }).job);
      jobs.start();
      return jobs;
    });
    try {
      for (let round = 0; round < 3; round += 1) for (const jobs of runners) jobs.poke(REFUND_JOB);
      await Promise.all(runners.map((jobs) => jobs.settled(REFUND_JOB)));
      const made = await refunds(id);
      expect(made).toHaveLength(5);
      // Every refund of the order sent, none twice (nor any other refund still pending in this database).
      expect(new Set(calls).size).toBe(calls.length);
      expect(calls.filter((no) => made.some((refund) => refund.out_refund_no === no)).sort()).toEqual(made.map((refund) => refund.out_refund_no).sort());
      expect(made.every((refund) => refund.status !== 'pending' && refund.attempts === 1)).toBe(true);
    } finally {
      await Promise.all(runners.map((jobs) => jobs.stop()));
      await other.destroy();
    }
  });

  it('sends a refund made inside a result_reject change to the provider right after the commit, with no timer; a rolled-back change runs no hook', async () => {
    // The app's worker is off; this runner's job has no interval (no sweep): only the after-commit hook can run it.
    await ctx.t.app.refunds.stopWorker();
    notifications('lost');
    const provider = ctx.t.app.payments.sandbox.provider;
    const calls: string[] = [];
    const recording: Pick<PaymentProvider, 'refund' | 'queryRefund'> = {
      refund: async (input) => {
        calls.push(input.out_refund_no);
        return provider.refund(input);
      },
      queryRefund: (no) => provider.queryRefund(no),
    };
    const { id } = await paidOrder({ rejectRefund: true, step: 'submitted' });
    // Refunds other tests left pending are not this test's: settled first, so the runner's only work is the new one.
    await sendRefunds(id);
    await createRefundWorker({ db: ctx.t.db, provider, now: () => ctx.t.clock.now, sweepMs: 0 }).drain();
    const jobs = createJobRunner({ log: { warn: () => {} } });
    installRefundWorker(jobs, createRefundWorker({ db: ctx.t.db, provider: recording, now: () => ctx.t.clock.now, sweepMs: 0 }), ctx.t.db);
    jobs.start();
    const state = () => jobs.states().find((job) => job.name === REFUND_JOB)!;
    // Its run at start (what a stopped instance left) finds nothing.
    await new Promise((resolve) => setImmediate(resolve));
    await jobs.settled(REFUND_JOB);
    expect(state()).toMatchObject({ intervalMs: 0, runs: 1 });
    expect(calls).toEqual([]);
    try {
      const [first, second] = await applicantsOf(id);
      const lifecycle = createOrderLifecycle(ctx.t.db, { now: () => ctx.t.clock.now });
      const reject = (applicantId: number, failAfterRefund: boolean) =>
        lifecycle.change(op.principal, id, (_order, at) => ({
          event: 'result_reject',
          applicants: [{ applicant_id: applicantId, set: { status: 'rejected' } }],
          within: async (trx) => {
            await refundOnRejection(trx, { userOrderId: id, applicantId, at });
            if (failAfterRefund) throw new Error('the result could not be stored');
          },
          detail: { applicant_id: applicantId },
        }));

      // Rolled back after the refund_create was written: no refund, no hook, no run.
      await expect(reject(first!.applicant_id, true)).rejects.toThrow('the result could not be stored');
      await new Promise((resolve) => setImmediate(resolve));
      await jobs.settled(REFUND_JOB);
      expect(state()).toMatchObject({ runs: 1, running: false, pending: false });
      expect(await refunds(id)).toHaveLength(0);
      expect(await ctx.events(id, 'refund_create')).toHaveLength(0);

      // Committed: the hook pokes the job as the change returns; its run gives the refund to the provider.
      await reject(second!.applicant_id, false);
      expect(state().pending || state().running).toBe(true);
      await jobs.settled(REFUND_JOB);
      const made = await refunds(id);
      expect(made).toMatchObject([{ kind: 'rejection', applicant_id: second!.applicant_id }]);
      expect(calls).toEqual([made[0]!.out_refund_no]);
      expect(made[0]!.status).not.toBe('pending');
      expect(state()).toMatchObject({ runs: 2, lastOutcome: 'ok' });
    } finally {
      await jobs.stop();
    }
  });
});

describe('a provider that refunds at once (Alipay: alipay.trade.refund answers synchronously)', () => {
  it('books the SUCCESS answer at the send (refund_settle once, no query, no notification needed) and never sends it again', async () => {
    await ctx.t.app.refunds.stopWorker();
    notifications('delivered');
    const { id } = await paidOrder();
    // Refunds other tests left are settled first by the sandbox: the worker below sees only this one.
    await sendRefunds(id);
    const seen = await panel(id);
    const asked = await boss.callContract(adminRefundCreate, {
      user_order_id: id,
      version: seen.version,
      last_refund_id: seen.last_refund_id,
      amount: 1_500,
      reason: '客户取消部分服务',
    });
    expect(asked.body.ret, asked.body.msg).toBe(0);
    const calls: string[] = [];
    const queried: string[] = [];
    const atOnce: Pick<PaymentProvider, 'refund' | 'queryRefund'> = {
      refund: async (input) => {
        calls.push(input.out_refund_no);
        return {
          ok: true,
          refund: { ...input, provider_refund_no: '2026120122001400000001', status: 'SUCCESS', success_at: ctx.t.clock.now - 1_000 },
        };
      },
      queryRefund: async (no) => {
        queried.push(no);
        return null;
      },
    };
    const worker = createRefundWorker({ db: ctx.t.db, provider: atOnce, now: () => ctx.t.clock.now, sweepMs: 0 });
    expect(await worker.drain()).toMatchObject({ sent: 1, settled: 1, retried: 0, failed: 0 });
    const [made] = await refunds(id);
    expect(made).toMatchObject({ status: 'succeeded', refunded_at: ctx.t.clock.now - 1_000, provider_refund_no: '2026120122001400000001', amount: 1_500 });
    expect(await ctx.events(id, 'refund_settle')).toHaveLength(1);
    expect((await panel(id)).list[0]).toMatchObject({ status: 'succeeded', status_label: '已退款' });
    // Final: never sent again nor asked about, however long the worker runs (other tests' refunds may be).
    ctx.t.clock.now += 3_600_000;
    await worker.drain();
    expect(calls.filter((no) => no === made!.out_refund_no)).toHaveLength(1);
    expect(queried).not.toContain(made!.out_refund_no);
    expect(await ctx.events(id, 'refund_settle')).toHaveLength(1);
  });
});
