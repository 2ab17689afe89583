// The daily reconciliation on SQLite or PostgreSQL (TEST_DATABASE_URL): real
// payments and a refund made through the sandbox, then a bill with each kind
// of difference — a payment with another amount, a payment of ours missing
// from the bill, a payment and a refund the bill has and we do not — stored
// once per provider and day, counted in the metric, announced to the
// supervisors, listed in the back office and explained by a supervisor (who
// and when kept). The job's schedule (not before 10:00 China time, catching
// up missed days, a failed download retried) and the comparison's rules.
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminReconciliationExplain, adminReconciliationList } from '../../../common/contracts/reconciliation.ts';
import { adminRefundCreate, adminRefundList } from '../../../common/contracts/refund.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { type Customer, eventually, HOUR, type PaymentTestContext, paymentTestContext, T0 } from '../../test-support/fixtures/payment.ts';
import type { BillLine } from '../payment/bill.ts';
import { compareBill, type OurMovement } from './compare.ts';
import { type BillSource, createReconciliationService } from './reconciliation.service.ts';
import { directoryOf } from '../operator/directory.ts';

let ctx: PaymentTestContext;
let alice: Customer;
let boss: Awaited<ReturnType<PaymentTestContext['t']['operator']>>;

beforeAll(async () => {
  ctx = await paymentTestContext();
  alice = await ctx.customer();
  boss = await ctx.t.operator({ role: 'supervisor', name: '王主管' });
});
afterAll(() => ctx.close());

/** A paid order through the sandbox (QR code, paid, notification delivered). */
async function paidOrder(): Promise<{ id: number; total: number; outTradeNo: string; providerTradeNo: string }> {
  const { userOrderId, total } = await ctx.pendingOrder(alice);
  const created = await ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat' }, alice);
  expect(created.ret, created.msg).toBe(0);
  const outTradeNo = created.body.out_trade_no as string;
  const providerTradeNo = `4200${outTradeNo.slice(2)}`;
  expect(
    await ctx.t.app.payments.sandbox.ledger.pay(outTradeNo, { at: ctx.t.clock.now, provider_trade_no: providerTradeNo, notify_id: `N-${outTradeNo}` }),
  ).toBe(true);
  const note = await ctx.signedNotification(outTradeNo);
  expect((await ctx.postNotification(note.body, note.headers)).status).toBe(200);
  return { id: userOrderId, total, outTradeNo, providerTradeNo };
}

function staffDirectory() {
  return directoryOf(async () =>
    (await ctx.t.db.selectFrom('operator').select(['id', 'name', 'status']).execute()).map((row) => ({
      operator_id: row.id,
      name: row.name,
      status: row.status,
    })),
  );
}

function service(providers: readonly BillSource[], registry?: Registry) {
  return createReconciliationService(ctx.t.db, {
    providers: () => providers,
    now: () => ctx.t.clock.now,
    log: { info: () => {}, warn: () => {}, error: () => {} },
    operators: staffDirectory(),
    registry,
  });
}

/** A bill source serving fixed lines for one day (others: an empty bill). */
function billOf(name: string, day: string, lines: BillLine[]): BillSource & { asked: string[] } {
  const asked: string[] = [];
  return {
    name,
    asked,
    async downloadBill(billDate) {
      asked.push(billDate);
      return billDate === day ? lines : [];
    },
  };
}

describe('a day with each kind of difference', () => {
  const DAY = '2026-12-01';
  let matching: Awaited<ReturnType<typeof paidOrder>>;
  let otherAmount: Awaited<ReturnType<typeof paidOrder>>;
  let notInBill: Awaited<ReturnType<typeof paidOrder>>;
  let refund: { out_refund_no: string; amount: number; refunded_at: number };
  let registry: Registry;

  beforeAll(async () => {
    ctx.t.clock.now = T0; // 2026-12-01 10:00 in China
    matching = await paidOrder();
    otherAmount = await paidOrder();
    notInBill = await paidOrder();
    // A partial refund of the first, through the refund worker and the sandbox's notification.
    const panel = (await boss.callContract(adminRefundList, { user_order_id: matching.id })).result!;
    const created = await boss.callContract(adminRefundCreate, {
      user_order_id: matching.id,
      version: panel.version,
      last_refund_id: panel.last_refund_id,
      amount: 1_000,
      reason: '客户申请部分退款',
    });
    expect(created.body.ret, created.body.msg).toBe(0);
    await eventually(async () => {
      await ctx.t.app.jobs.poke('refunds');
      const row = await ctx.t.db.selectFrom('refund').selectAll().where('user_order_id', '=', matching.id).executeTakeFirstOrThrow();
      expect(row.status).toBe('succeeded');
      refund = { out_refund_no: row.out_refund_no, amount: row.amount, refunded_at: row.refunded_at! };
    });
  });

  function bill(): BillLine[] {
    const line = (p: Awaited<ReturnType<typeof paidOrder>>, amount = p.total): BillLine => ({
      kind: 'payment',
      out_trade_no: p.outTradeNo,
      out_refund_no: null,
      provider_trade_no: p.providerTradeNo,
      provider_refund_no: null,
      amount,
      at: T0,
    });
    return [
      line(matching),
      line(otherAmount, otherAmount.total - 100),
      // notInBill: not listed.
      { ...line(matching), out_trade_no: 'YQ20261201100000UNKNOWN001', provider_trade_no: '4200UNKNOWN', amount: 4_321 },
      {
        kind: 'refund',
        out_trade_no: matching.outTradeNo,
        out_refund_no: refund.out_refund_no,
        provider_trade_no: matching.providerTradeNo,
        provider_refund_no: '5030X',
        amount: refund.amount,
        at: refund.refunded_at,
      },
      {
        kind: 'refund',
        out_trade_no: otherAmount.outTradeNo,
        out_refund_no: 'RF-NOT-OURS',
        provider_trade_no: null,
        provider_refund_no: '5030Y',
        amount: 500,
        at: T0,
      },
    ];
  }

  it('stores each difference once, counts it and tells the supervisors', async () => {
    registry = new Registry();
    const sandbox = billOf('sandbox', DAY, bill());
    const reconciliation = service([sandbox], registry);
    ctx.t.clock.now = T0 + 25 * HOUR; // 2026-12-02 11:00 in China
    const noticesBefore = await ctx.t.db.selectFrom('notice').select('notice_id').where('kind', '=', 'reconciliation_difference').execute();
    const outcome = await reconciliation.runDay(sandbox, DAY);
    expect(outcome?.bill_lines).toBe(5);
    const stored = await ctx.t.db
      .withTables<{
        reconciliation_difference: {
          kind: string;
          line_kind: string;
          out_trade_no: string;
          out_refund_no: string | null;
          our_amount: number | null;
          their_amount: number | null;
          user_order_id: number | null;
          provider: string;
          bill_date: string;
        };
      }>()
      .selectFrom('reconciliation_difference')
      .select(['kind', 'line_kind', 'out_trade_no', 'out_refund_no', 'our_amount', 'their_amount', 'user_order_id', 'provider', 'bill_date'])
      .orderBy('kind')
      .orderBy('line_kind')
      .execute();
    expect(stored).toEqual([
      {
        kind: 'amount',
        line_kind: 'payment',
        out_trade_no: otherAmount.outTradeNo,
        out_refund_no: null,
        our_amount: otherAmount.total,
        their_amount: otherAmount.total - 100,
        user_order_id: otherAmount.id,
        provider: 'sandbox',
        bill_date: DAY,
      },
      {
        kind: 'missing_ours',
        line_kind: 'payment',
        out_trade_no: 'YQ20261201100000UNKNOWN001',
        out_refund_no: null,
        our_amount: null,
        their_amount: 4_321,
        user_order_id: null,
        provider: 'sandbox',
        bill_date: DAY,
      },
      {
        kind: 'missing_ours',
        line_kind: 'refund',
        out_trade_no: otherAmount.outTradeNo,
        out_refund_no: 'RF-NOT-OURS',
        our_amount: null,
        their_amount: 500,
        user_order_id: otherAmount.id,
        provider: 'sandbox',
        bill_date: DAY,
      },
      {
        kind: 'missing_theirs',
        line_kind: 'payment',
        out_trade_no: notInBill.outTradeNo,
        out_refund_no: null,
        our_amount: notInBill.total,
        their_amount: null,
        user_order_id: notInBill.id,
        provider: 'sandbox',
        bill_date: DAY,
      },
    ]);
    // The metric, by kind.
    const counted = await registry.getSingleMetric('payment_reconciliation_differences_total')!.get();
    expect(Object.fromEntries(counted.values.map((v) => [v.labels.kind, v.value]))).toEqual({ amount: 1, missing_ours: 2, missing_theirs: 1 });
    const open = await registry.getSingleMetric('payment_reconciliation_open_differences')!.get();
    expect(open.values[0]!.value).toBe(4);
    // A notice to each active supervisor (not to the clerk).
    const notices = await ctx.t.db.selectFrom('notice').selectAll().where('kind', '=', 'reconciliation_difference').execute();
    expect(notices.length - noticesBefore.length).toBe(1);
    expect(notices.at(-1)).toMatchObject({ recipient_kind: 'operator', recipient_id: boss.operatorId, title: '对账发现差异', link: '/admin/reconciliation' });
    expect(notices.at(-1)!.body).toContain('4 处差异');
    // Done: the day is not run again.
    expect(await reconciliation.runDay(sandbox, DAY)).toBeNull();
    expect(sandbox.asked).toEqual([DAY]);
  });

  it('lists the differences in the back office and a supervisor explains one, once', async () => {
    // Sessions of the day after (the clock moved a day on).
    const clerk = await ctx.t.operator();
    const boss = await ctx.t.operator({ role: 'supervisor', name: '李主管' });
    const listed = await clerk.callContract(adminReconciliationList, { status: 'open', page: 1 });
    expect(listed.body.ret, listed.body.msg).toBe(0);
    expect(listed.result).toMatchObject({ open_count: 4, total_count: 4, can_explain: false });
    expect(listed.result!.runs).toEqual([
      expect.objectContaining({ provider: 'sandbox', bill_date: DAY, status: 'done', bill_lines: 5, differences: 4, status_label: '已完成' }),
    ]);
    const amount = listed.result!.page_data.find((d) => d.kind === 'amount')!;
    expect(amount).toMatchObject({ kind_label: '金额不一致', line_kind_label: '支付', provider_label: '沙箱', explained: false });

    // Only a supervisor explains (2281), with a note of 2–500 characters (2284).
    expect((await clerk.callContract(adminReconciliationExplain, { difference_id: amount.difference_id, note: '跨日入账' })).body.ret).toBe(
      ErrorCode.RECONCILIATION_SUPERVISOR_ONLY,
    );
    expect((await boss.callContract(adminReconciliationExplain, { difference_id: amount.difference_id, note: ' 好 ' })).body.ret).toBe(
      ErrorCode.RECONCILIATION_NOTE_INVALID,
    );
    expect((await boss.callContract(adminReconciliationExplain, { difference_id: 999_999, note: '跨日入账' })).body.ret).toBe(
      ErrorCode.RECONCILIATION_DIFFERENCE_NOT_FOUND,
    );
    ctx.t.clock.now += 60_000;
    const explained = await boss.callContract(adminReconciliationExplain, {
      difference_id: amount.difference_id,
      note: '服务商扣了 1 元手续费，\n已与财务核对',
    });
    expect(explained.body.ret, explained.body.msg).toBe(0);
    expect(explained.result).toMatchObject({
      explained: true,
      explained_by: '李主管',
      explained_at: ctx.t.clock.now,
      explanation: '服务商扣了 1 元手续费，\n已与财务核对',
    });
    // Twice: refused, the first note kept.
    const again = await boss.callContract(adminReconciliationExplain, { difference_id: amount.difference_id, note: '另一个说明' });
    expect(again.body.ret).toBe(ErrorCode.RECONCILIATION_ALREADY_EXPLAINED);
    expect(again.body.msg).toMatch(/[\u4e00-\u9fa5]/);

    const open = await boss.callContract(adminReconciliationList, { status: 'open', page: 1 });
    expect(open.result).toMatchObject({ open_count: 3, total_count: 3, can_explain: true });
    const all = await boss.callContract(adminReconciliationList, { status: 'all', page: 1 });
    expect(all.result!.total_count).toBe(4);
    // The explained one last.
    expect(all.result!.page_data.at(-1)).toMatchObject({ difference_id: amount.difference_id, explained_by: '李主管' });
  });
});

describe('the job', () => {
  it('waits for 10:00 China time, catches up missed days, retries a failed download', async () => {
    let failing = true;
    const flaky: BillSource & { asked: string[] } = {
      name: 'nobody-flaky',
      asked: [],
      async downloadBill(billDate) {
        this.asked.push(billDate);
        if (failing) throw new Error('bill not ready');
        return [];
      },
    };
    const quiet = billOf('nobody-quiet', '2000-01-01', []);
    const reconciliation = service([quiet, flaky]);
    ctx.t.clock.now = Date.parse('2026-12-10T09:30:00+08:00');
    // Before 10:00 only the days before yesterday are looked at.
    await reconciliation.runDue();
    expect(quiet.asked.sort()).toEqual(['2026-12-07', '2026-12-08']);
    ctx.t.clock.now = Date.parse('2026-12-10T10:30:00+08:00');
    const outcomes = await reconciliation.runDue();
    expect(outcomes.map((o) => `${o.provider} ${o.bill_date}`)).toEqual(['nobody-quiet 2026-12-09']);
    expect(quiet.asked.sort()).toEqual(['2026-12-07', '2026-12-08', '2026-12-09']);
    // The failing one was asked each time, and its runs stay failed until a download works.
    failing = false;
    const retried = await reconciliation.runDue();
    expect(retried.map((o) => `${o.provider} ${o.bill_date}`).sort()).toEqual([
      'nobody-flaky 2026-12-07',
      'nobody-flaky 2026-12-08',
      'nobody-flaky 2026-12-09',
    ]);
    const runs = await ctx.t.db
      .withTables<{ reconciliation_run: { provider: string; bill_date: string; status: string; attempts: number } }>()
      .selectFrom('reconciliation_run')
      .select(['bill_date', 'status', 'attempts'])
      .where('provider', '=', 'nobody-flaky')
      .orderBy('bill_date')
      .execute();
    expect(runs).toEqual([
      { bill_date: '2026-12-07', status: 'done', attempts: 3 },
      { bill_date: '2026-12-08', status: 'done', attempts: 3 },
      { bill_date: '2026-12-09', status: 'done', attempts: 2 },
    ]);
    expect(await reconciliation.runDue()).toEqual([]);
  });
});

describe('the comparison', () => {
  const ours = (amount: number, at = 0): OurMovement => ({
    kind: 'payment',
    out_trade_no: 'A',
    out_refund_no: null,
    provider_trade_no: 'P',
    user_order_id: 1,
    amount,
    at,
  });
  const line = (amount: number): BillLine => ({
    kind: 'payment',
    out_trade_no: 'A',
    out_refund_no: null,
    provider_trade_no: 'P',
    provider_refund_no: null,
    amount,
    at: 0,
  });

  it('adds up a movement split over several lines', async () => {
    expect(await compareBill([line(600), line(400)], [ours(1_000)], async () => null)).toEqual([]);
  });

  it('matches a bill line with our movement of another day (booked across midnight)', async () => {
    expect(await compareBill([line(1_000)], [], async () => ours(1_000, -1))).toEqual([]);
    expect(await compareBill([line(1_000)], [], async () => ours(900, -1))).toEqual([
      expect.objectContaining({ kind: 'amount', our_amount: 900, their_amount: 1_000 }),
    ]);
  });

  it('keeps payments and refunds of one trade apart', async () => {
    const refund: BillLine = { ...line(1_000), kind: 'refund', out_refund_no: 'R1' };
    expect(await compareBill([refund], [ours(1_000)], async () => null)).toEqual([
      expect.objectContaining({ kind: 'missing_ours', line_kind: 'refund' }),
      expect.objectContaining({ kind: 'missing_theirs', line_kind: 'payment' }),
    ]);
  });
});
