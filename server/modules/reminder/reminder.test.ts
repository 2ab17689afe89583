// The reminders of issue 29 part 5 (decision 0047) on SQLite or PostgreSQL
// (TEST_DATABASE_URL): the payment receipt written with the payment event
// (once, however many notifications arrive), and the three scheduled jobs run
// on the app's runner at instants set on the app clock (t.clock.now) — each
// sends once per order/applicant and occasion, and again for a new occasion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../common/format.ts';
import { formatPayAmount } from '../../../common/payment.ts';
import { toJson } from '../../db/json.ts';
import { type Customer, eventually, HOUR, MINUTE, type PaymentTestContext, paymentTestContext, T0 } from '../../test-support/fixtures/payment.ts';
import { OUTBOX_JOB } from '../notification/outbox.ts';
import { noticesOf as noticesOfEvent } from '../order-notices/notice-kinds.ts';
import { departureRisk } from '../order/sla.ts';
import { EXPIRY_WARNING_MS, REMINDER_JOBS } from './reminders.ts';

let ctx: PaymentTestContext;
let customer: Customer;
const EMAIL = 'reminders@example.com';

beforeAll(async () => {
  ctx = await paymentTestContext({
    configure: (config) => {
      // The tests look at the queued e-mails; nothing sends behind their back.
      config.NOTICE_OUTBOX_SWEEP_SECONDS = 0;
    },
  });
  // The outbox would send (and change) the queued rows after each poke: off for these tests.
  await ctx.t.app.jobs.disable(OUTBOX_JOB);
  customer = await ctx.customer();
  await ctx.t.db.updateTable('account').set({ email: EMAIL }).where('id', '=', customer.accountId).execute();
});

afterAll(async () => {
  await ctx?.close();
});

/** Runs one job on the app's runner now (as its timer would) and checks the run succeeded. */
async function runJob(name: string): Promise<void> {
  const before = ctx.t.app.jobs.states().find((job) => job.name === name)!.runs;
  ctx.t.app.jobs.poke(name);
  await eventually(async () => {
    await ctx.t.app.jobs.settled(name);
    expect(ctx.t.app.jobs.states().find((job) => job.name === name)!.runs).toBeGreaterThan(before);
  });
  expect(ctx.t.app.jobs.states().find((job) => job.name === name)!.lastOutcome).toBe('ok');
}

function noticesOf(userOrderId: number, kind: string) {
  return ctx.t.db
    .selectFrom('notice')
    .select(['notice_id', 'recipient_kind', 'recipient_id', 'title', 'body', 'link', 'created_at'])
    .where('user_order_id', '=', userOrderId)
    .where('kind', '=', kind)
    .orderBy('notice_id')
    .execute();
}

function emailsOf(userOrderId: number, kind: string) {
  return ctx.t.db
    .selectFrom('notice_email')
    .innerJoin('notice', 'notice.notice_id', 'notice_email.notice_id')
    .select(['notice_email.to_address', 'notice_email.subject', 'notice_email.text', 'notice_email.status'])
    .where('notice.user_order_id', '=', userOrderId)
    .where('notice.kind', '=', kind)
    .orderBy('notice_email.notice_email_id')
    .execute();
}

/** An order of the customer paid through the sandbox's pay page (processing, material_review); returns it and its trade. */
async function paidOrder(options: { needInterview?: boolean } = {}): Promise<{ userOrderId: number; outTradeNo: string; total: number }> {
  const { userOrderId, total } = await ctx.pendingOrder(customer, options);
  const payment = await ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat' }, customer);
  expect(payment.ret).toBe(0);
  const confirmed = await ctx.t.app.inject({
    method: 'POST',
    url: `/sandbox/pay/${payment.body.out_trade_no}/confirm`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  expect(confirmed.statusCode).toBe(303);
  await eventually(async () => expect(await ctx.order(userOrderId)).toMatchObject({ status: 'processing', step: 'material_review' }));
  return { userOrderId, outTradeNo: payment.body.out_trade_no as string, total };
}

describe('the payment receipt (with the payment event)', () => {
  it('tells the customer the order number, amount, method and time (China time), once though the notification comes twice', async () => {
    ctx.t.clock.now = T0;
    const { userOrderId, outTradeNo, total } = await paidOrder();
    const orderNo = (await ctx.t.db.selectFrom('user_order').select('order_no').where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow()).order_no!;
    const paidAt = (await ctx.payment(outTradeNo)).paid_at!;

    // The provider sends its notification again (and again): a duplicate, no second event, no second receipt.
    for (let i = 0; i < 2; i += 1) {
      const again = await ctx.signedNotification(outTradeNo);
      expect((await ctx.postNotification(again.body, again.headers)).status).toBe(200);
    }
    expect(await ctx.events(userOrderId, 'pay')).toHaveLength(1);

    const receipts = await noticesOf(userOrderId, 'payment_receipt');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({
      recipient_kind: 'customer',
      recipient_id: customer.accountId,
      title: '支付成功',
      link: `/order/order-detail/${userOrderId}`,
    });
    const body = receipts[0]!.body;
    expect(body).toContain(`订单号：${orderNo}`);
    expect(body).toContain(`支付金额：${formatPayAmount(total)}`);
    expect(body).toContain('支付方式：微信支付');
    expect(body).toContain(`支付时间：${formatDateTime(paidAt)}（北京时间）`);
    // T0 is 10:00 in China (02:00 UTC): the time printed is China's, not the server's zone.
    expect(formatDateTime(T0)).toBe('2026-12-01 10:00');

    const emails = await emailsOf(userOrderId, 'payment_receipt');
    expect(emails).toEqual([expect.objectContaining({ to_address: EMAIL, subject: '【易签通】支付成功', status: 'pending' })]);
    expect(emails[0]!.text).toContain(`支付金额：${formatPayAmount(total)}`);
  });
});

describe('the warning before an unpaid order is cancelled automatically (reminder-expiry)', () => {
  it(`warns once, ${EXPIRY_WARNING_MS / MINUTE} minutes before the 24 h are up, and never a paid or cancelled order`, async () => {
    ctx.t.clock.now = T0;
    const { userOrderId, expiresAt } = await ctx.pendingOrder(customer);
    expect(expiresAt).toBe(T0 + 24 * HOUR);
    const draft = await ctx.draftOrder(customer);
    const { userOrderId: paid } = await paidOrder();

    // 31 minutes before: too early.
    ctx.t.clock.now = expiresAt - 31 * MINUTE;
    await runJob(REMINDER_JOBS.expiry);
    expect(await noticesOf(userOrderId, 'expiry_warning')).toHaveLength(0);

    // 29 minutes before: warned, with the time of the cancellation in China time.
    ctx.t.clock.now = expiresAt - 29 * MINUTE;
    await runJob(REMINDER_JOBS.expiry);
    const warnings = await noticesOf(userOrderId, 'expiry_warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ recipient_kind: 'customer', recipient_id: customer.accountId, title: '订单即将自动取消' });
    expect(warnings[0]!.body).toContain(`将于 ${formatDateTime(expiresAt)}（北京时间，约 29 分钟后）自动取消`);
    expect(warnings[0]!.created_at).toBe(expiresAt - 29 * MINUTE);
    expect(await emailsOf(userOrderId, 'expiry_warning')).toEqual([expect.objectContaining({ to_address: EMAIL, subject: '【易签通】订单即将自动取消' })]);
    // The draft (created at the same instant) is warned too; the paid order is not.
    expect(await noticesOf(draft, 'expiry_warning')).toHaveLength(1);
    expect(await noticesOf(paid, 'expiry_warning')).toHaveLength(0);

    // Later sweeps, and another instance's, send nothing more.
    ctx.t.clock.now = expiresAt - 5 * MINUTE;
    await runJob(REMINDER_JOBS.expiry);
    await runJob(REMINDER_JOBS.expiry);
    expect(await noticesOf(userOrderId, 'expiry_warning')).toHaveLength(1);
    expect(await emailsOf(userOrderId, 'expiry_warning')).toHaveLength(1);
    expect(await ctx.t.db.selectFrom('reminder_sent').selectAll().where('user_order_id', '=', userOrderId).execute()).toEqual([
      expect.objectContaining({ kind: 'expiry_warning', applicant_id: 0, occasion: String(expiresAt) }),
    ]);

    // A cancelled order within the window is not warned.
    ctx.t.clock.now = T0 + HOUR;
    const cancelled = (await ctx.pendingOrder(customer)).userOrderId;
    expect((await ctx.call('/www/order/order_cancel', { user_order_id: cancelled }, customer)).ret).toBe(0);
    ctx.t.clock.now = T0 + 25 * HOUR - 10 * MINUTE;
    await runJob(REMINDER_JOBS.expiry);
    expect(await noticesOf(cancelled, 'expiry_warning')).toHaveLength(0);
  });
});

describe('the interview tomorrow (reminder-interview)', () => {
  it('tells the day before (China time, from 09:00) with place and time, once per applicant and appointment', async () => {
    ctx.t.clock.now = T0;
    const { userOrderId } = await paidOrder({ needInterview: true });
    const operator = await ctx.t.operator();
    const applicants = await ctx.t.db
      .selectFrom('order_applicant')
      .select(['applicant_id', 'name'])
      .where('user_order_id', '=', userOrderId)
      .orderBy('sort')
      .execute();
    expect(applicants).toHaveLength(2);
    for (const applicant of applicants) {
      await ctx.t.db
        .insertInto('interview_notice')
        .values({
          user_order_id: userOrderId,
          applicant_id: applicant.applicant_id,
          interview_date: '2026-12-03',
          start_time: '09:30',
          end_time: '10:00',
          consulate_name: '日本国驻上海总领事馆',
          consulate_address: '上海市长宁区万山路8号',
          process: '',
          attention: '',
          telephone: '021-52574766',
          materials: toJson(['护照原件']),
          published_by: operator.operatorId,
          published_at: T0,
          updated_at: T0,
        })
        .execute();
    }

    // Two days before (Tue 10:00) and the day before at 08:59 China time: nothing yet.
    await runJob(REMINDER_JOBS.interview);
    ctx.t.clock.now = Date.parse('2026-12-02T00:59:00Z');
    await runJob(REMINDER_JOBS.interview);
    expect(await noticesOf(userOrderId, 'interview_tomorrow')).toHaveLength(0);

    // The day before at 09:00 China time: one reminder per applicant.
    ctx.t.clock.now = Date.parse('2026-12-02T01:00:00Z');
    await runJob(REMINDER_JOBS.interview);
    const reminders = await noticesOf(userOrderId, 'interview_tomorrow');
    expect(reminders).toHaveLength(2);
    for (const [i, applicant] of applicants.entries()) {
      expect(reminders[i]).toMatchObject({ recipient_kind: 'customer', recipient_id: customer.accountId, title: '明天面试/录指纹提醒' });
      expect(reminders[i]!.body).toContain(`申请人${applicant.name}明天（2026-12-03）09:30–10:00 在日本国驻上海总领事馆（上海市长宁区万山路8号）面试/录指纹`);
      expect(reminders[i]!.link).toBe(`/order/order-interview-notification/${userOrderId}`);
    }
    expect(await emailsOf(userOrderId, 'interview_tomorrow')).toHaveLength(2);

    // The rest of the day: nothing more.
    ctx.t.clock.now = Date.parse('2026-12-02T15:00:00Z');
    await runJob(REMINDER_JOBS.interview);
    expect(await noticesOf(userOrderId, 'interview_tomorrow')).toHaveLength(2);

    // The first applicant's appointment moves to Friday: told again the day before the new one.
    await ctx.t.db
      .updateTable('interview_notice')
      .set({ interview_date: '2026-12-04', start_time: '14:00', end_time: '14:30' })
      .where('applicant_id', '=', applicants[0]!.applicant_id)
      .execute();
    // The second's moves to Friday too, but a result is in for them: no appointment left to keep.
    await ctx.t.db.updateTable('interview_notice').set({ interview_date: '2026-12-04' }).where('applicant_id', '=', applicants[1]!.applicant_id).execute();
    await ctx.t.db.updateTable('order_applicant').set({ status: 'issued' }).where('applicant_id', '=', applicants[1]!.applicant_id).execute();
    ctx.t.clock.now = Date.parse('2026-12-03T02:00:00Z');
    await runJob(REMINDER_JOBS.interview);
    const after = await noticesOf(userOrderId, 'interview_tomorrow');
    expect(after).toHaveLength(3);
    expect(after[2]!.body).toContain(`申请人${applicants[0]!.name}明天（2026-12-04）14:00–14:30 在`);
  });
});

describe('the departure date at risk (reminder-departure)', () => {
  it('tells the customer and the assignee once per order and departure date; the supervisors when nobody took the order', async () => {
    ctx.t.clock.now = T0;
    const assignee = await ctx.t.operator();
    const supervisor = await ctx.t.operator({ role: 'supervisor' });
    const taken = (await paidOrder()).userOrderId;
    const untaken = (await paidOrder()).userOrderId;
    const comfortable = (await paidOrder()).userOrderId;
    const resulted = (await paidOrder()).userOrderId;
    await ctx.t.db.updateTable('user_order').set({ assignee_operator_id: assignee.operatorId }).where('user_order_id', '=', taken).execute();
    // Tue 2026-12-01: Dec 1, 2, 3, 4 and 7 are 5 working days before the 8th, fewer than the product's 7.
    await ctx.t.db.updateTable('user_order').set({ departure_date: '2026-12-08' }).where('user_order_id', 'in', [taken, untaken, resulted]).execute();
    await ctx.t.db.updateTable('user_order').set({ departure_date: '2026-12-28' }).where('user_order_id', '=', comfortable).execute();
    // A result is in (the order is on its way back): not at risk any more.
    await ctx.t.db.updateTable('user_order').set({ step: 'returning' }).where('user_order_id', '=', resulted).execute();

    await runJob(REMINDER_JOBS.departure);
    const toTaken = await noticesOf(taken, 'departure_at_risk');
    expect(toTaken.map((n) => [n.recipient_kind, n.recipient_id])).toEqual([
      ['customer', customer.accountId],
      ['operator', assignee.operatorId],
    ]);
    expect(toTaken[0]).toMatchObject({ title: '出发日期临近，签证可能来不及', link: `/order/order-detail/${taken}` });
    expect(toTaken[0]!.body).toContain('出发日期为 2026-12-08，距今仅剩 5 个工作日，而办理预计还需 7 个工作日');
    expect(toTaken[1]).toMatchObject({ title: '出发日期临近，签证结果未出', link: `/admin/orders/${taken}` });
    // The customer's by e-mail too; the operator's in the back office's notices only.
    expect(await emailsOf(taken, 'departure_at_risk')).toEqual([
      expect.objectContaining({ to_address: EMAIL, subject: '【易签通】出发日期临近，签证可能来不及' }),
    ]);
    const toUntaken = await noticesOf(untaken, 'departure_at_risk');
    expect(toUntaken.map((n) => [n.recipient_kind, n.recipient_id])).toEqual([
      ['customer', customer.accountId],
      ['operator', supervisor.operatorId],
    ]);
    expect(await noticesOf(comfortable, 'departure_at_risk')).toHaveLength(0);
    expect(await noticesOf(resulted, 'departure_at_risk')).toHaveLength(0);

    // The next sweeps (the next day too): nothing more.
    ctx.t.clock.now = T0 + 24 * HOUR;
    await runJob(REMINDER_JOBS.departure);
    await runJob(REMINDER_JOBS.departure);
    expect(await noticesOf(taken, 'departure_at_risk')).toHaveLength(2);

    // The departure date changes and is still at risk: told again, with the new date.
    await ctx.t.db.updateTable('user_order').set({ departure_date: '2026-12-09' }).where('user_order_id', '=', taken).execute();
    await runJob(REMINDER_JOBS.departure);
    const again = await noticesOf(taken, 'departure_at_risk');
    expect(again).toHaveLength(4);
    expect(again[2]!.body).toContain('出发日期为 2026-12-09，距今仅剩 5 个工作日');

    // Moved to a comfortable date: nothing.
    await ctx.t.db.updateTable('user_order').set({ departure_date: '2027-01-29' }).where('user_order_id', '=', taken).execute();
    await runJob(REMINDER_JOBS.departure);
    expect(await noticesOf(taken, 'departure_at_risk')).toHaveLength(4);
  });
});

describe('the rules behind them (pure)', () => {
  it('a paid price difference: the assignee is told as before, the customer gets the receipt of the difference', () => {
    const paidAt = Date.parse('2026-12-01T16:30:00Z');
    const drafts = noticesOfEvent(
      {
        event_id: 5,
        event: 'price_difference_pay',
        to_step: 'page_check',
        created_at: paidAt,
        detail: { price_difference_id: 2, amount: 12_050, channel: 'alipay', paid_at: paidAt },
      },
      { user_order_id: 7, order_no: 'YD20261201000007', account_id: 3, product_title: '日本旅游签证', assignee_operator_id: 41 },
    );
    expect(drafts.map((d) => [d.kind, d.recipient_kind, d.recipient_id])).toEqual([
      ['price_difference_pay', 'operator', 41],
      ['payment_receipt', 'customer', 3],
    ]);
    expect(drafts[1]).toMatchObject({ title: '补差价支付成功', link: '/order/order-detail/7' });
    // 16:30 UTC is 00:30 the next day in China.
    expect(drafts[1]!.body).toContain(
      '订单号：YD20261201000007；支付项目：补差价；支付金额：￥120.50；支付方式：支付宝；支付时间：2026-12-02 00:30（北京时间）',
    );
    expect(drafts[1]!.email!.subject).toBe('【易签通】补差价支付成功');
  });

  it('departure at risk: the working days left (China calendar) against those the processing still needs', () => {
    const order = { status: 'processing', step: 'material_review' as const, departure_date: '2026-12-08', step_entered_at: T0 };
    expect(departureRisk(order, 7, T0)).toEqual({ daysLeft: 5, daysNeeded: 7 });
    expect(departureRisk(order, 5, T0)).toBeNull();
    // Submitted two working days ago: what is left of the processing counts.
    const submitted = { ...order, step: 'submitted' as const, step_entered_at: Date.parse('2026-11-27T02:00:00Z') };
    expect(departureRisk(submitted, 7, T0)).toBeNull();
    expect(departureRisk({ ...submitted, departure_date: '2026-12-03' }, 7, T0)).toEqual({ daysLeft: 2, daysNeeded: 5 });
    // A result in (returning), or an order not in processing: never at risk.
    expect(departureRisk({ ...order, step: 'returning' }, 7, T0)).toBeNull();
    expect(departureRisk({ ...order, status: 'pending_payment' }, 7, T0)).toBeNull();
  });
});
