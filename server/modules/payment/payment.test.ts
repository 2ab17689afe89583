// payment_create / payment_query and the provider's notification, on the
// real app and database (SQLite, or PostgreSQL with TEST_DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_LIMITS } from '../../../common/payment.ts';
import { expireUnpaidOrders } from '../order/expiry.ts';
import { type Customer, MINUTE, type PaymentTestContext, eventually, injectTransport, paymentTestContext } from '../../test-support/fixtures/payment.ts';

let ctx: PaymentTestContext;
let alice: Customer;

beforeAll(async () => {
  ctx = await paymentTestContext();
  alice = await ctx.customer();
});
afterAll(() => ctx.close());

async function create(customer: Customer, userOrderId: number, channel = 'wechat') {
  return ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel }, customer);
}

async function query(customer: Customer, userOrderId: number, outTradeNo?: string) {
  return ctx.call('/www/payment/payment_query', { user_order_id: userOrderId, ...(outTradeNo ? { out_trade_no: outTradeNo } : {}) }, customer);
}

/** Creates a payment and pays it at the sandbox without letting the notification through. */
async function paidAtSandboxSilently(userOrderId: number, channel = 'wechat'): Promise<string> {
  const created = await create(alice, userOrderId, channel);
  expect(created.ret).toBe(0);
  const outTradeNo = created.body.out_trade_no as string;
  const at = ctx.t.clock.now;
  expect(await ctx.t.app.payments.sandbox.ledger.pay(outTradeNo, { at, provider_trade_no: `4200${outTradeNo}`, notify_id: `N-${outTradeNo}` })).toBe(true);
  return outTradeNo;
}

describe('payment_create', () => {
  it('gives a QR code of the sandbox pay page for the order total, valid 15 minutes, with its event', async () => {
    const { userOrderId, total } = await ctx.pendingOrder(alice);
    const result = await create(alice, userOrderId);
    expect(result.ret).toBe(0);
    const payment = result.body;
    expect(payment).toMatchObject({ channel: 'wechat', channel_label: '微信支付', amount: total, status: 'pending', provider: 'sandbox', reused: false });
    expect(payment.out_trade_no).toMatch(/^YQ\d{14}[0-9A-F]{12}$/);
    expect(payment.code_url).toBe(`http://localhost:3000/sandbox/pay/${payment.out_trade_no}`);
    expect(payment.qrcode).toMatch(/^data:image\/png;base64,/);
    expect(payment.expires_at).toBe(ctx.t.clock.now + PAYMENT_LIMITS.qrTtlMs);
    const trade = await ctx.t.app.payments.sandbox.ledger.find(payment.out_trade_no);
    expect(trade).toMatchObject({ state: 'NOTPAY', amount: total, channel: 'wechat', expires_at: payment.expires_at });
    expect(await ctx.events(userOrderId, 'payment_create')).toHaveLength(1);
  });

  it('reuses a valid QR code of the same channel and amount; another channel gets its own', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const first = (await create(alice, userOrderId)).body;
    const again = (await create(alice, userOrderId)).body;
    expect(again).toMatchObject({ out_trade_no: first.out_trade_no, reused: true });
    const alipay = (await create(alice, userOrderId, 'alipay')).body;
    expect(alipay).toMatchObject({ channel: 'alipay', channel_label: '支付宝', reused: false });
    expect(alipay.out_trade_no).not.toBe(first.out_trade_no);
    // Less than the reuse margin left: a fresh code rather than one about to die.
    ctx.t.clock.now = first.expires_at - PAYMENT_LIMITS.reuseMarginMs + 1;
    const later = (await create(alice, userOrderId)).body;
    expect(later.reused).toBe(false);
    expect(later.out_trade_no).not.toBe(first.out_trade_no);
    expect(await ctx.events(userOrderId, 'payment_create')).toHaveLength(3);
  });

  it('never makes a QR code that outlives the order', async () => {
    const { userOrderId, expiresAt } = await ctx.pendingOrder(alice);
    ctx.t.clock.now = expiresAt - 5 * MINUTE;
    const payment = (await create(alice, userOrderId)).body;
    expect(payment.expires_at).toBe(expiresAt);
  });

  it('closes a QR code made for an old total when the order total changed', async () => {
    const { userOrderId, total } = await ctx.pendingOrder(alice);
    const old = (await create(alice, userOrderId)).body;
    await ctx.t.db
      .updateTable('user_order')
      .set({ total_amount: total + 5_000 })
      .where('user_order_id', '=', userOrderId)
      .execute();
    const fresh = (await create(alice, userOrderId)).body;
    expect(fresh.amount).toBe(total + 5_000);
    expect((await ctx.payment(old.out_trade_no)).status).toBe('closed');
    expect((await ctx.t.app.payments.sandbox.ledger.find(old.out_trade_no))!.state).toBe('CLOSED');
    expect(await ctx.t.app.payments.sandbox.confirm(old.out_trade_no)).toEqual({ ok: false, reason: 'closed' });
  });

  it('refuses a draft, an unknown channel, another enterprise, an expired, a cancelled and a paid order', async () => {
    const draft = await ctx.draftOrder(alice);
    expect(await create(alice, draft)).toMatchObject({ ret: 1881, msg: '订单尚未确认，请先确认订单再支付' });

    const { userOrderId, expiresAt } = await ctx.pendingOrder(alice);
    expect(await create(alice, userOrderId, 'unionpay')).toMatchObject({ ret: 1885, msg: '请选择微信支付或支付宝' });

    const bob = await ctx.customer();
    const missing = await create(bob, 999_999);
    expect(await create(bob, userOrderId)).toEqual(missing);
    expect(missing).toMatchObject({ ret: 1801, msg: '订单不存在' });
    expect(await query(bob, userOrderId)).toEqual(await query(bob, 999_999));
    expect((await query(bob, userOrderId)).ret).toBe(1801);

    ctx.t.clock.now = expiresAt;
    expect(await create(alice, userOrderId)).toMatchObject({ ret: 1882, msg: '订单已超时，请重新下单' });
    expect((await ctx.order(userOrderId)).status).toBe('cancelled');
    expect(await ctx.events(userOrderId, 'expire')).toHaveLength(1);

    const cancelled = await ctx.pendingOrder(alice);
    await ctx.orders.cancel(alice, cancelled.userOrderId);
    expect((await create(alice, cancelled.userOrderId)).ret).toBe(1815);

    const paid = await ctx.pendingOrder(alice);
    const outTradeNo = await paidAtSandboxSilently(paid.userOrderId);
    expect((await query(alice, paid.userOrderId, outTradeNo)).body.order_paid).toBe(true);
    expect(await create(alice, paid.userOrderId, 'alipay')).toMatchObject({ ret: 1883 });
    // Nothing was written by the refusals.
    expect(await ctx.events(draft, 'payment_create')).toHaveLength(0);
  });

  it('answers 1001 for a missing order id', async () => {
    expect((await ctx.call('/www/payment/payment_create', { channel: 'wechat' }, alice)).ret).toBe(1001);
    expect((await ctx.call('/www/payment/payment_query', { user_order_id: 'x' }, alice)).ret).toBe(1001);
  });
});

describe('the whole sandbox path', () => {
  it('pay page → confirm → signed notification → order processing; the dialog sees it by polling', async () => {
    const { userOrderId, total } = await ctx.pendingOrder(alice);
    const payment = (await create(alice, userOrderId, 'alipay')).body;
    const page = await ctx.t.app.inject({ method: 'GET', url: new URL(payment.code_url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('确认支付');
    expect(page.body).toContain(`￥</small>${(total / 100).toFixed(2)}`);

    const confirmed = await ctx.t.app.inject({
      method: 'POST',
      url: `/sandbox/pay/${payment.out_trade_no}/confirm`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe(`/sandbox/pay/${payment.out_trade_no}?notice=paid`);

    await eventually(async () => expect((await ctx.order(userOrderId)).status).toBe('processing'));
    const order = await ctx.order(userOrderId);
    expect(order).toMatchObject({ step: 'material_review', expires_at: null });
    expect(order.paid_at).not.toBeNull();
    const polled = await query(alice, userOrderId, payment.out_trade_no);
    expect(polled.body).toMatchObject({
      order_status: 'processing',
      step: 'material_review',
      order_paid: true,
      payment: { status: 'paid', status_label: '已支付' },
    });
    expect(await ctx.events(userOrderId, 'pay')).toMatchObject([{ actor: 'system', from_status: 'pending_payment', to_status: 'processing' }]);
    await eventually(async () => expect((await ctx.t.app.payments.sandbox.ledger.find(payment.out_trade_no))!.notify_status).toBe('delivered'));
    expect(await ctx.notifications(payment.out_trade_no)).toMatchObject([{ outcome: 'paid', signature_valid: 1 }]);

    // Paying again on the phone changes nothing.
    const again = await ctx.t.app.inject({ method: 'POST', url: `/sandbox/pay/${payment.out_trade_no}/confirm` });
    expect(again.headers.location).toContain('notice=already_paid');
    // 模拟重复通知: the same notification twice more, answered success, nothing changes.
    const resent = await ctx.t.app.inject({ method: 'POST', url: `/sandbox/pay/${payment.out_trade_no}/renotify` });
    expect(resent.headers.location).toContain('notice=resent');
    const rows = await ctx.notifications(payment.out_trade_no);
    expect(rows.map((row) => row.outcome)).toEqual(['paid', 'duplicate', 'duplicate']);
    expect(new Set(rows.map((row) => row.notify_id)).size).toBe(1);
    expect((await ctx.order(userOrderId)).version).toBe(order.version);
    expect(await ctx.events(userOrderId, 'pay')).toHaveLength(1);
  });
});

describe('the notification', () => {
  it('10 copies at once: one payment paid, the order moved once, one pay event, every copy answered success', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const outTradeNo = await paidAtSandboxSilently(userOrderId);
    const before = await ctx.order(userOrderId);
    const { body, headers } = await ctx.signedNotification(outTradeNo);
    const answers = await Promise.all(Array.from({ length: 10 }, () => ctx.postNotification(body, headers)));
    for (const answer of answers) expect(answer).toEqual({ status: 200, json: { code: 'SUCCESS', message: '成功' } });
    expect(await ctx.order(userOrderId)).toMatchObject({ status: 'processing', version: before.version + 1 });
    expect(await ctx.events(userOrderId, 'pay')).toHaveLength(1);
    const outcomes = (await ctx.notifications(outTradeNo)).map((row) => row.outcome).sort();
    expect(outcomes).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'paid']);
    expect(await ctx.t.db.selectFrom('payment').select('status').where('user_order_id', '=', userOrderId).where('status', '=', 'paid').execute()).toHaveLength(
      1,
    );
  });

  it('after the query fallback booked it, the late notification is a duplicate that changes nothing', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const outTradeNo = await paidAtSandboxSilently(userOrderId);
    const polled = await query(alice, userOrderId);
    expect(polled.body).toMatchObject({ order_status: 'processing', order_paid: true, payment: { out_trade_no: outTradeNo, status: 'paid' } });
    expect((await ctx.events(userOrderId, 'pay'))[0]!.detail).toContain('"source":"query"');
    const after = await ctx.order(userOrderId);
    const { body, headers } = await ctx.signedNotification(outTradeNo);
    expect((await ctx.postNotification(body, headers)).status).toBe(200);
    expect(await ctx.order(userOrderId)).toEqual(after);
    expect(await ctx.events(userOrderId, 'pay')).toHaveLength(1);
    expect((await ctx.notifications(outTradeNo)).map((row) => row.outcome)).toEqual(['duplicate']);
  });

  it('money for a second payment of an order already paid is kept for a refund, and the operators see it', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const first = (await create(alice, userOrderId, 'wechat')).body.out_trade_no as string;
    const second = (await create(alice, userOrderId, 'alipay')).body.out_trade_no as string;
    const { sandbox } = ctx.t.app.payments;
    sandbox.notifier.setTransport(async () => ({ status: 503, body: '' })); // both notifications held back
    expect((await sandbox.confirm(first)).ok).toBe(true);
    expect((await sandbox.confirm(second)).ok).toBe(true);
    const one = await ctx.signedNotification(first);
    const two = await ctx.signedNotification(second);
    expect((await ctx.postNotification(one.body, one.headers)).status).toBe(200);
    const before = await ctx.order(userOrderId);
    expect((await ctx.postNotification(two.body, two.headers)).json.code).toBe('SUCCESS');
    expect(await ctx.payment(first)).toMatchObject({ status: 'paid' });
    expect(await ctx.payment(second)).toMatchObject({ status: 'refund_pending' });
    expect((await ctx.payment(second)).provider_trade_no).not.toBeNull();
    expect(await ctx.order(userOrderId)).toEqual(before);
    const due = await ctx.events(userOrderId, 'payment_refund_due');
    expect(due).toMatchObject([{ actor: 'system', from_status: 'processing', to_status: 'processing' }]);
    expect(due[0]!.detail).toContain('"reason":"order_paid"');
    // Repeating it changes nothing more.
    expect((await ctx.postNotification(two.body, two.headers)).status).toBe(200);
    expect(await ctx.events(userOrderId, 'payment_refund_due')).toHaveLength(1);
    expect((await ctx.notifications(second)).map((row) => row.outcome)).toEqual(['refund_due', 'duplicate']);
    sandbox.notifier.setTransport(injectTransport(ctx.t.app));
  });

  it('two payments of one order notified at the same moment: exactly one pays the order, the other is refunded', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const wechat = await paidAtSandboxSilently(userOrderId, 'wechat');
    const alipay = await paidAtSandboxSilently(userOrderId, 'alipay');
    const notes = await Promise.all([ctx.signedNotification(wechat), ctx.signedNotification(alipay)]);
    const answers = await Promise.all([...notes, ...notes].map((note) => ctx.postNotification(note.body, note.headers)));
    for (const answer of answers) expect(answer.status).toBe(200);
    const statuses = [(await ctx.payment(wechat)).status, (await ctx.payment(alipay)).status].sort();
    expect(statuses).toEqual(['paid', 'refund_pending']);
    expect(await ctx.events(userOrderId, 'pay')).toHaveLength(1);
    expect(await ctx.events(userOrderId, 'payment_refund_due')).toHaveLength(1);
  });

  it('a wrong amount is refused and recorded; nothing changes', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const outTradeNo = await paidAtSandboxSilently(userOrderId);
    const before = await ctx.order(userOrderId);
    const { body, headers } = await ctx.signedNotification(outTradeNo, (b) => ({ ...b, amount: (b.amount as number) - 1 }));
    const answer = await ctx.postNotification(body, headers);
    expect(answer).toEqual({ status: 400, json: { code: 'FAIL', message: '金额不符' } });
    expect(await ctx.order(userOrderId)).toEqual(before);
    expect((await ctx.payment(outTradeNo)).status).toBe('pending');
    expect(await ctx.notifications(outTradeNo)).toMatchObject([{ outcome: 'amount_mismatch', signature_valid: 1 }]);
  });

  it('a bad signature, a changed body or an old timestamp gets 401 and changes nothing', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const outTradeNo = await paidAtSandboxSilently(userOrderId);
    const before = await ctx.order(userOrderId);
    const { body, headers } = await ctx.signedNotification(outTradeNo);
    const forged = await ctx.postNotification(body, { ...headers, 'sandboxpay-signature': Buffer.alloc(32).toString('base64') });
    expect(forged).toEqual({ status: 401, json: { code: 'FAIL', message: '签名错误' } });
    const tampered = await ctx.postNotification(body.replace('"SUCCESS"', '"SUCCESS" '), headers);
    expect(tampered.status).toBe(401);
    const unsigned = await ctx.postNotification(body, { 'content-type': 'application/json' });
    expect(unsigned.status).toBe(401);
    const realNow = ctx.t.clock.now;
    ctx.t.clock.now = realNow + 6 * MINUTE; // a captured notification replayed later
    expect((await ctx.postNotification(body, headers)).status).toBe(401);
    ctx.t.clock.now = realNow;
    expect(await ctx.order(userOrderId)).toEqual(before);
    expect((await ctx.notifications(outTradeNo)).map((row) => [row.outcome, row.signature_valid])).toEqual([
      ['bad_signature', 0],
      ['bad_signature', 0],
      ['bad_signature', 0],
      ['bad_signature', 0],
    ]);
  });

  it('an unknown trade and an unreadable body are refused and recorded', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const outTradeNo = await paidAtSandboxSilently(userOrderId);
    const unknown = await ctx.signedNotification(outTradeNo, (b) => ({ ...b, out_trade_no: 'YQ00000000000000NOSUCHTRADE0' }));
    expect(await ctx.postNotification(unknown.body, unknown.headers)).toEqual({ status: 404, json: { code: 'FAIL', message: '交易不存在' } });
    expect(await ctx.notifications('YQ00000000000000NOSUCHTRADE0')).toMatchObject([{ outcome: 'unknown_trade' }]);
    const malformed = await ctx.signedNotification(outTradeNo, (b) => ({ ...b, amount: 'lots' }));
    expect((await ctx.postNotification(malformed.body, malformed.headers)).status).toBe(400);
    expect((await ctx.notifications(outTradeNo)).map((row) => row.outcome)).toEqual(['malformed']);
    expect((await ctx.order(userOrderId)).status).toBe('pending_payment');
  });

  it('the expiry sweep leaves an order alone while a payment may still arrive; the late notification pays it', async () => {
    const { userOrderId, expiresAt } = await ctx.pendingOrder(alice, { needInterview: true });
    ctx.t.clock.now = expiresAt - 10 * MINUTE;
    const outTradeNo = await paidAtSandboxSilently(userOrderId);
    // The sweep runs before the notification arrives: the pending payment holds the order.
    ctx.t.clock.now = expiresAt + MINUTE;
    expect(await expireUnpaidOrders(ctx.t.db, ctx.t.clock.now, { userOrderId })).toBe(0);
    expect((await ctx.order(userOrderId)).status).toBe('pending_payment');
    const { body, headers } = await ctx.signedNotification(outTradeNo);
    expect((await ctx.postNotification(body, headers)).status).toBe(200);
    expect(await ctx.order(userOrderId)).toMatchObject({ status: 'processing', step: 'material_review', expires_at: null });
    expect((await ctx.payment(outTradeNo)).status).toBe('paid');
  });

  it('defence in depth: money for an order expired after its payment was closed here revives it', async () => {
    const { userOrderId, expiresAt } = await ctx.pendingOrder(alice);
    ctx.t.clock.now = expiresAt - 10 * MINUTE;
    const outTradeNo = await paidAtSandboxSilently(userOrderId);
    // As when the provider once answered that it did not know the trade: closed here, then the order expires.
    ctx.t.clock.now = expiresAt + MINUTE;
    await ctx.t.db.updateTable('payment').set({ status: 'closed' }).where('out_trade_no', '=', outTradeNo).execute();
    expect(await expireUnpaidOrders(ctx.t.db, ctx.t.clock.now, { userOrderId })).toBe(1);
    expect((await ctx.order(userOrderId)).status).toBe('cancelled');
    const { body, headers } = await ctx.signedNotification(outTradeNo);
    expect((await ctx.postNotification(body, headers)).status).toBe(200);
    const order = await ctx.order(userOrderId);
    const payment = await ctx.payment(outTradeNo);
    // Never lost: either the order is revived with the money, or the money is due back.
    expect(order.status === 'processing' ? payment.status === 'paid' : payment.status === 'refund_pending').toBe(true);
  });

  it('settling the payments of an order before its expiry books money paid in time (nothing to revive or refund)', async () => {
    const { userOrderId, expiresAt } = await ctx.pendingOrder(alice, { needInterview: true });
    ctx.t.clock.now = expiresAt - 10 * MINUTE;
    const outTradeNo = await paidAtSandboxSilently(userOrderId);
    ctx.t.clock.now = expiresAt + MINUTE;
    await ctx.t.app.payments.service.reconcileOrder(userOrderId);
    expect(await expireUnpaidOrders(ctx.t.db, ctx.t.clock.now, { userOrderId })).toBe(0);
    expect((await ctx.order(userOrderId)).status).toBe('processing');
    expect((await ctx.payment(outTradeNo)).status).toBe('paid');
    expect((await ctx.events(userOrderId, 'pay'))[0]!.detail).toContain('"source":"expiry"');
  });

  it('money for an order the customer cancelled is kept for a refund', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const outTradeNo = await paidAtSandboxSilently(userOrderId);
    await ctx.orders.cancel(alice, userOrderId);
    const { body, headers } = await ctx.signedNotification(outTradeNo);
    expect((await ctx.postNotification(body, headers)).status).toBe(200);
    expect((await ctx.order(userOrderId)).status).toBe('cancelled');
    expect((await ctx.payment(outTradeNo)).status).toBe('refund_pending');
    expect((await ctx.events(userOrderId, 'payment_refund_due'))[0]!.detail).toContain('"reason":"order_cancelled"');
    expect((await query(alice, userOrderId)).body).toMatchObject({
      order_status: 'cancelled',
      order_paid: false,
      payment: { status: 'refund_pending', status_label: '待退款' },
    });
  });

  it('is not a /www call: no API signature or session, any content type', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const outTradeNo = await paidAtSandboxSilently(userOrderId);
    const { body, headers } = await ctx.signedNotification(outTradeNo);
    expect((await ctx.postNotification(body, { ...headers, 'content-type': 'text/plain' })).status).toBe(200);
    expect((await ctx.order(userOrderId)).status).toBe('processing');
  });
});

describe('payment_query', () => {
  it('without a payment yet says so; with an unknown out_trade_no answers 1884', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    expect((await query(alice, userOrderId)).body).toMatchObject({ order_status: 'pending_payment', order_paid: false, payment: null });
    expect(await query(alice, userOrderId, 'YQNOPE')).toMatchObject({ ret: 1884, msg: '支付记录不存在' });
    const other = await ctx.pendingOrder(alice);
    const otherTrade = (await create(alice, other.userOrderId)).body.out_trade_no as string;
    expect((await query(alice, userOrderId, otherTrade)).ret).toBe(1884);
  });

  it('closes a QR code whose time is up, here and at the provider', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const payment = (await create(alice, userOrderId)).body;
    ctx.t.clock.now = payment.expires_at;
    expect((await query(alice, userOrderId, payment.out_trade_no)).body).toMatchObject({ order_status: 'pending_payment', payment: { status: 'closed' } });
    expect((await ctx.t.app.payments.sandbox.ledger.find(payment.out_trade_no))!.state).toBe('CLOSED');
    // Expired at the sandbox too: the phone can no longer pay.
    expect(await ctx.t.app.payments.sandbox.confirm(payment.out_trade_no)).toEqual({ ok: false, reason: 'closed' });
  });

  it('the sweep books a payment whose notifications were all lost', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const outTradeNo = await paidAtSandboxSilently(userOrderId);
    const payment = await ctx.payment(outTradeNo);
    ctx.t.clock.now = payment.expires_at + 1;
    expect(await ctx.t.app.payments.service.reconcileDue()).toBeGreaterThanOrEqual(1);
    expect((await ctx.order(userOrderId)).status).toBe('processing');
    expect((await ctx.events(userOrderId, 'pay'))[0]!.detail).toContain('"source":"sweep"');
  });
});
