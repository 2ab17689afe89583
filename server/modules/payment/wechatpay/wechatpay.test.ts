// The WeChat Pay APIv3 provider against the local fake of WeChat Pay
// (server/test-support/fakes/wechatpay-fake.ts), on the real app and
// database (SQLite, or PostgreSQL with TEST_DATABASE_URL): a payment by QR
// (Native) and by phone (H5), duplicated, forged and lost notifications,
// refunds (partial, refused, timed out) — never paid or refunded twice.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRefundCreate, adminRefundList } from '../../../../common/contracts/refund.ts';
import { ErrorCode } from '../../../../common/error-codes.ts';
import { type Customer, type PaymentTestContext, paymentTestContext } from '../../../test-support/fixtures/payment.ts';
import { configureWechatPay, wechatPayFakeFor, wechatPayTestKeys } from '../../../test-support/fixtures/wechatpay.ts';
import type { WechatPayFake } from '../../../test-support/fakes/wechatpay-fake.ts';
import { createRefundWorker, providerOfPayment } from '../../refund/refund-worker.ts';
import { parseTradeBill, yuanToCents } from './bill.ts';
import { decryptResource } from './crypto.ts';

const keys = wechatPayTestKeys();
let ctx: PaymentTestContext;
let fake: WechatPayFake;
let alice: Customer;
let boss: Awaited<ReturnType<PaymentTestContext['t']['operator']>>;
/** The client gives up after this long (the fake's stalls are longer). */
const TIMEOUT_MS = 400;

beforeAll(async () => {
  let clock = () => Date.now();
  fake = wechatPayFakeFor(keys, {
    now: () => clock(),
    // WeChat's notifications reach the app in-process (it does not listen in tests).
    transport: async (url, body, headers) => {
      const response = await ctx.t.app.inject({ method: 'POST', url: new URL(url).pathname, payload: body, headers });
      return { status: response.statusCode, body: response.body };
    },
  });
  const base = await fake.listen();
  ctx = await paymentTestContext({ configure: (config) => configureWechatPay(config, keys, base, TIMEOUT_MS) });
  clock = () => ctx.t.clock.now;
  alice = await ctx.customer();
  boss = await ctx.t.operator({ role: 'supervisor' });
  // This file's own worker sends refunds (drained by hand below).
  await ctx.t.app.refunds.stopWorker();
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

async function create(userOrderId: number, scene: 'qr' | 'phone' = 'qr', channel = 'wechat') {
  return ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel, scene }, alice);
}

async function query(userOrderId: number, outTradeNo: string) {
  return (await ctx.call('/www/payment/payment_query', { user_order_id: userOrderId, out_trade_no: outTradeNo }, alice)).body;
}

async function postNotification(body: string, headers: Record<string, string>) {
  const response = await ctx.t.app.inject({
    method: 'POST',
    url: '/pay/notify/wechatpay',
    payload: body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: response.statusCode, body: response.body };
}

async function paidOrder(): Promise<{ id: number; total: number; outTradeNo: string }> {
  const { userOrderId, total } = await ctx.pendingOrder(alice);
  const created = await create(userOrderId);
  expect(created.ret, created.msg).toBe(0);
  expect(await fake.payAndNotify(created.body.out_trade_no)).toBe(204);
  expect((await ctx.order(userOrderId)).status).toBe('processing');
  return { id: userOrderId, total, outTradeNo: created.body.out_trade_no };
}

function refundWorker() {
  return createRefundWorker({
    db: ctx.t.db,
    provider: providerOfPayment(ctx.t.db, ctx.t.app.payments.providers),
    now: () => ctx.t.clock.now,
    sweepMs: 0,
    firstQueryMs: 0,
  });
}

async function refundRows(userOrderId: number) {
  return ctx.t.db.selectFrom('refund').selectAll().where('user_order_id', '=', userOrderId).orderBy('refund_id').execute();
}

async function askRefund(userOrderId: number, amount: number) {
  const panel = (await boss.callContract(adminRefundList, { user_order_id: userOrderId })).result!;
  const answer = await boss.callContract(adminRefundCreate, { user_order_id: userOrderId, version: panel.version, amount, reason: '客户取消部分服务' });
  expect(answer.body.ret, answer.body.msg).toBe(0);
}

describe(`WeChat Pay APIv3 against the fake (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('pays an order by QR code (Native): the signed order, the code_url as the QR code, the signed encrypted notification answered 204', async () => {
    const { userOrderId, total } = await ctx.pendingOrder(alice);
    const created = await create(userOrderId);
    expect(created.ret, created.msg).toBe(0);
    const payment = created.body;
    expect(payment).toMatchObject({ provider: 'wechatpay', scene: 'qr', amount: total, redirect_url: null, reused: false });
    expect(payment.code_url).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(payment.qrcode).toMatch(/^data:image\/png;base64,/);
    const trade = fake.trades.get(payment.out_trade_no)!;
    expect(trade).toMatchObject({ kind: 'native', amount: total, state: 'NOTPAY', notify_url: 'http://localhost:3000/pay/notify/wechatpay' });
    expect(trade.time_expire).toBe(`${new Date(payment.expires_at + 8 * 3_600_000).toISOString().slice(0, 19)}+08:00`);
    expect(trade.description).toMatch(/^易签通-/);
    // Asked again: the same QR code (no second order at WeChat).
    expect((await create(userOrderId)).body).toMatchObject({ out_trade_no: payment.out_trade_no, reused: true });

    expect(await fake.payAndNotify(payment.out_trade_no)).toBe(204);
    expect(await ctx.order(userOrderId)).toMatchObject({ status: 'processing', paid_at: expect.any(Number) });
    const stored = await ctx.payment(payment.out_trade_no);
    expect(stored).toMatchObject({ status: 'paid', amount: total, provider_trade_no: fake.trades.get(payment.out_trade_no)!.transaction_id });
    expect(await ctx.notifications(payment.out_trade_no)).toEqual([{ outcome: 'paid', signature_valid: 1, notify_id: expect.any(String) }]);
    // Every call the provider made was signed as WeChat checks it: no SIGN_ERROR in the fake's log.
    expect(fake.log.filter((entry) => entry.code === 'SIGN_ERROR')).toEqual([]);
  });

  it("pays by phone (H5): the payer's IP, the h5_url with the way back, WeChat's cashier, then the order page's query", async () => {
    const { userOrderId, total } = await ctx.pendingOrder(alice);
    const created = await create(userOrderId, 'phone');
    expect(created.ret, created.msg).toBe(0);
    const payment = created.body;
    expect(payment).toMatchObject({ provider: 'wechatpay', scene: 'phone', code_url: null, qrcode: null, amount: total });
    const back = `http://localhost:3000/order/order-detail/${userOrderId}?pay=${payment.out_trade_no}`;
    const redirect = new URL(payment.redirect_url);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(`${fake.baseUrl}/h5pay/checkmweb`);
    expect(redirect.searchParams.get('redirect_url')).toBe(back);
    expect(fake.trades.get(payment.out_trade_no)).toMatchObject({ kind: 'h5', payer_client_ip: '127.0.0.1', amount: total });

    // The phone opens the cashier and pays; WeChat sends it back to our order page.
    const page = await fetch(payment.redirect_url);
    expect(await page.text()).toContain('确认支付');
    const confirm = await fetch(`${fake.baseUrl}/h5pay/confirm${redirect.search}`, { method: 'POST', redirect: 'manual' });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(back);
    expect(await query(userOrderId, payment.out_trade_no)).toMatchObject({ order_paid: true, payment: { status: 'paid', scene: 'phone' } });
  });

  it('books a duplicated notification once and answers it 204 again', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const { out_trade_no: outTradeNo } = (await create(userOrderId)).body;
    fake.pay(outTradeNo);
    const note = fake.paymentNotification(outTradeNo);
    const [a, b] = await Promise.all([postNotification(note.body, note.headers), postNotification(note.body, note.headers)]);
    expect([a.status, b.status]).toEqual([204, 204]);
    expect(await fake.resend(note)).toBe(204);
    expect(await ctx.events(userOrderId, 'pay')).toHaveLength(1);
    expect((await ctx.notifications(outTradeNo)).map((n) => n.outcome).sort()).toEqual(['duplicate', 'duplicate', 'paid']);
  });

  it('refuses forged notifications (another key, a changed body, a stale timestamp, another serial) with 401 and a readable-but-wrong one with 400; nothing is booked', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const { out_trade_no: outTradeNo } = (await create(userOrderId)).body;
    fake.pay(outTradeNo);
    const note = fake.paymentNotification(outTradeNo);
    const forger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const { createSign } = await import('node:crypto');
    const forgedSignature = createSign('RSA-SHA256')
      .update(`${note.headers['Wechatpay-Timestamp']}\n${note.headers['Wechatpay-Nonce']}\n${note.body}\n`)
      .sign(forger, 'base64');
    const cases: Array<[string, string, Record<string, string>]> = [
      ['another key', note.body, { ...note.headers, 'Wechatpay-Signature': forgedSignature }],
      ['a changed body', note.body.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" '), note.headers],
      ['another serial', note.body, { ...note.headers, 'Wechatpay-Serial': 'PUB_KEY_ID_0000' }],
      ['no signature', note.body, { ...note.headers, 'Wechatpay-Signature': '' }],
    ];
    for (const [why, body, headers] of cases) {
      const answer = await postNotification(body, headers);
      expect(answer.status, why).toBe(401);
      expect(JSON.parse(answer.body), why).toEqual({ code: 'FAIL', message: '签名错误' });
    }
    // Signed right, six minutes old: a replay.
    const old = ctx.t.clock.now;
    ctx.t.clock.now = old - 6 * 60_000;
    const stale = fake.paymentNotification(outTradeNo);
    ctx.t.clock.now = old;
    expect((await postNotification(stale.body, stale.headers)).status).toBe(401);
    // Signed right but encrypted with another APIv3 key: unreadable, 400.
    const parsed = JSON.parse(note.body) as { resource: { algorithm: string; ciphertext: string; associated_data: string; nonce: string } };
    expect(decryptResource(Buffer.from(keys.apiV3Key), parsed.resource)).toContain(outTradeNo);
    expect(() => decryptResource(Buffer.from('x'.repeat(32)), parsed.resource)).toThrow();
    const garbled = JSON.stringify({ ...parsed, resource: { ...parsed.resource, ciphertext: Buffer.from('garbage-garbage-garbage').toString('base64') } });
    expect((await postNotification(garbled, fake.signedHeaders(garbled))).status).toBe(400);

    expect((await ctx.order(userOrderId)).status).toBe('pending_payment');
    expect((await ctx.payment(outTradeNo)).status).toBe('pending');
    expect((await ctx.notifications(outTradeNo)).length).toBe(0);
  });

  it('recovers a lost notification by the query (out-trade-no), booked once', async () => {
    const { userOrderId, total } = await ctx.pendingOrder(alice);
    const { out_trade_no: outTradeNo } = (await create(userOrderId)).body;
    fake.pay(outTradeNo);
    expect(await query(userOrderId, outTradeNo)).toMatchObject({ order_paid: true, payment: { status: 'paid', amount: total } });
    // The notification arrives after all: acknowledged, nothing more booked.
    const note = fake.paymentNotification(outTradeNo);
    expect((await postNotification(note.body, note.headers)).status).toBe(204);
    expect(await ctx.events(userOrderId, 'pay')).toHaveLength(1);
  });

  it('a query that times out changes nothing; a QR code WeChat does not answer in time is 1886 and nothing is stored', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const { out_trade_no: outTradeNo } = (await create(userOrderId)).body;
    fake.pay(outTradeNo);
    fake.stallNext(/^\/v3\/pay\/transactions\/out-trade-no\//, TIMEOUT_MS * 3);
    expect(await query(userOrderId, outTradeNo)).toMatchObject({ order_paid: false, payment: { status: 'pending' } });
    expect(await query(userOrderId, outTradeNo)).toMatchObject({ order_paid: true, payment: { status: 'paid' } });
    expect(await ctx.events(userOrderId, 'pay')).toHaveLength(1);

    const other = await ctx.pendingOrder(alice);
    fake.stallNext(/^\/v3\/pay\/transactions\/native$/, TIMEOUT_MS * 3);
    const late = await create(other.userOrderId);
    expect(late.ret).toBe(ErrorCode.PAYMENT_PROVIDER_UNAVAILABLE);
    expect(await ctx.t.db.selectFrom('payment').select('out_trade_no').where('user_order_id', '=', other.userOrderId).execute()).toEqual([]);
  });

  it('refunds part of a payment: signed request with the trade total, then the signed refund notification settles it', async () => {
    const { id, total, outTradeNo } = await paidOrder();
    await askRefund(id, 1_000);
    await refundWorker().drain();
    const [row] = await refundRows(id);
    expect(row).toMatchObject({ status: 'processing', amount: 1_000 });
    const atWechat = fake.refunds.get(row!.out_refund_no)!;
    expect(atWechat).toMatchObject({
      out_trade_no: outTradeNo,
      amount: 1_000,
      status: 'PROCESSING',
      notify_url: 'http://localhost:3000/pay/refund-notify/wechatpay',
    });
    expect(row!.provider_refund_no).toBe(atWechat.refund_id);
    expect(fake.trades.get(outTradeNo)).toMatchObject({ refunded: 1_000, amount: total });

    expect(await fake.finishRefund(row!.out_refund_no, 'SUCCESS')).toBe(204);
    expect((await refundRows(id))[0]).toMatchObject({ status: 'succeeded', refunded_at: expect.any(Number) });
    // The same notification again changes nothing.
    const last = fake.notificationsSent.at(-1)!;
    expect(await fake.deliver(last.url, last.body)).toBe(204);
    expect((await refundRows(id))[0]!.status).toBe('succeeded');
  });

  it('a refund WeChat refuses (more than is left of the trade) is failed with its reason; the money is refundable again', async () => {
    const { id, total, outTradeNo } = await paidOrder();
    // Someone refunded most of the trade in WeChat's merchant console: what remains is less than asked.
    fake.trades.get(outTradeNo)!.refunded = total - 500;
    await askRefund(id, 1_000);
    await refundWorker().drain();
    const [row] = await refundRows(id);
    expect(row).toMatchObject({ status: 'failed' });
    expect(row!.last_error).toContain('INVALID_REQUEST');
    expect(fake.refunds.has(row!.out_refund_no)).toBe(false);

    // WeChat refusing for another reason (the merchant's balance) fails it too, with WeChat's code.
    fake.trades.get(outTradeNo)!.refunded = 0;
    fake.refuseRefunds({ status: 403, code: 'NOT_ENOUGH', message: '基本账户余额不足' });
    await askRefund(id, 700);
    await refundWorker().drain();
    fake.refuseRefunds(null);
    expect((await refundRows(id))[1]).toMatchObject({ status: 'failed', last_error: expect.stringContaining('NOT_ENOUGH') });
  });

  it('WeChat timing out on a refund: asked again with the same out_refund_no, refunded once', async () => {
    const { id, outTradeNo } = await paidOrder();
    await askRefund(id, 1_500);
    fake.stallNext(/^\/v3\/refund\/domestic\/refunds$/, TIMEOUT_MS * 3);
    const first = await refundWorker().drain();
    expect(first.retried).toBe(1);
    const [row] = await refundRows(id);
    expect(row).toMatchObject({ status: 'pending', last_error: expect.stringContaining('in time') });
    // WeChat did take it (the answer was late): one refund there.
    expect(fake.refunds.get(row!.out_refund_no)).toMatchObject({ amount: 1_500 });

    ctx.t.clock.now += 10 * 60_000;
    await refundWorker().drain();
    expect((await refundRows(id))[0]).toMatchObject({ status: 'processing' });
    expect([...fake.refunds.values()].filter((r) => r.out_trade_no === outTradeNo)).toHaveLength(1);
    expect(fake.trades.get(outTradeNo)!.refunded).toBe(1_500);

    // The refund notification is lost: the worker's query settles it.
    await fake.finishRefund(row!.out_refund_no, 'SUCCESS', false);
    await refundWorker().drain();
    expect((await refundRows(id))[0]).toMatchObject({ status: 'succeeded' });
  });

  it('refuses to start with a key missing, naming it', async () => {
    const { loadConfig } = await import('../../../config.ts');
    expect(() => loadConfig({ PAYMENT_WECHAT_PROVIDER: 'wechatpay', WECHATPAY_MCHID: keys.mchid })).toThrow(/WECHATPAY_APPID.*WECHATPAY_MERCHANT_SERIAL/);
  });
});

describe(`WeChat Pay trade bill (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  const chinaDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
  const wechat = () => ctx.t.app.payments.providers.byName('wechatpay')!;

  it('reads the signed tradebill answer and the signed download into payment and refund lines in cents', async () => {
    // The earlier tests' payments and refunds are this day's ledger at the fake (refunds finished in them).
    const day = chinaDay(ctx.t.clock.now);
    // Before 10:00 the next day WeChat is still making it (STATEMENT_CREATING): tried again later, not "nothing".
    await expect(wechat().downloadBill!(day)).rejects.toThrow(/STATEMENT_CREATING/);
    ctx.t.clock.now = Date.parse(`${day}T11:00:00+08:00`) + 86_400_000;
    const lines = await wechat().downloadBill!(day);

    const paid = [...fake.trades.values()].filter((t) => t.transaction_id && t.success_time?.startsWith(day));
    expect(paid.length).toBeGreaterThan(2);
    expect(lines.filter((l) => l.kind === 'payment').sort((a, b) => a.out_trade_no.localeCompare(b.out_trade_no))).toEqual(
      paid
        .sort((a, b) => a.out_trade_no.localeCompare(b.out_trade_no))
        .map((t) => ({
          kind: 'payment',
          out_trade_no: t.out_trade_no,
          out_refund_no: null,
          provider_trade_no: t.transaction_id,
          provider_refund_no: null,
          amount: t.amount,
          at: Math.floor(Date.parse(t.success_time!) / 1000) * 1000,
        })),
    );
    const refunded = [...fake.refunds.values()].filter((r) => r.status === 'SUCCESS');
    expect(refunded.length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.kind === 'refund').map((l) => [l.out_trade_no, l.out_refund_no, l.provider_refund_no, l.amount])).toEqual(
      expect.arrayContaining(refunded.map((r) => [r.out_trade_no, r.out_refund_no, r.refund_id, r.amount])),
    );
    expect(lines.filter((l) => l.kind === 'refund')).toHaveLength(refunded.length);
    // Both calls were signed: the tradebill request and the download itself.
    const calls = fake.log.filter((l) => l.url.startsWith('/v3/bill'));
    expect(calls.at(-2)).toMatchObject({ method: 'GET', status: 200 });
    expect(calls.at(-2)!.url).toBe(`/v3/bill/tradebill?bill_date=${day}&bill_type=ALL`);
    expect(calls.at(-1)).toMatchObject({ method: 'GET', status: 200 });
    expect(calls.at(-1)!.url).toMatch(/^\/v3\/billdownload\/file\?token=/);
  });

  it('refuses a bill file that does not match the SHA1 in the signed answer', async () => {
    const day = chinaDay(ctx.t.clock.now - 86_400_000);
    fake.tamperNextBill();
    await expect(wechat().downloadBill!(day)).rejects.toThrow(/does not match its SHA1 hash/);
    // The next download is whole again.
    expect((await wechat().downloadBill!(day)).length).toBeGreaterThan(0);
  });

  it('a day without trades (400 NO_STATEMENT_EXIST) is an empty bill', async () => {
    const quiet = chinaDay(ctx.t.clock.now - 7 * 86_400_000);
    expect(await wechat().downloadBill!(quiet)).toEqual([]);
    expect(fake.log.at(-1)).toMatchObject({ status: 400, code: 'NO_STATEMENT_EXIST' });
  });

  it('the daily reconciliation against the fake finds a payment missing from WeChat’s bill, and the one only WeChat booked', async () => {
    const day = chinaDay(ctx.t.clock.now - 86_400_000);
    const paid = [...fake.trades.values()].filter((t) => t.transaction_id && t.success_time?.startsWith(day));
    // The forged-notification test's payer did pay at WeChat, but only forged notifications reached us: pending on our side.
    const unbooked: typeof paid = [];
    for (const trade of paid) if ((await ctx.payment(trade.out_trade_no)).status === 'pending') unbooked.push(trade);
    expect(unbooked).toHaveLength(1);
    const dropped = paid.find((t) => t !== unbooked[0])!;
    fake.setBillEdit((rows) => rows.filter((row) => !(row.state === 'SUCCESS' && row.out_trade_no === dropped.out_trade_no)));
    const outcome = await ctx.t.services.reconciliation.runDay(wechat(), day);
    fake.setBillEdit(null);
    expect(outcome!.differences.map((d) => [d.kind, d.line_kind, d.out_trade_no, d.our_amount, d.their_amount])).toEqual(
      expect.arrayContaining([
        ['missing_theirs', 'payment', dropped.out_trade_no, dropped.amount, null],
        ['missing_ours', 'payment', unbooked[0]!.out_trade_no, null, unbooked[0]!.amount],
      ]),
    );
    expect(outcome!.differences).toHaveLength(2);
  });
});

describe('WeChat Pay trade bill file', () => {
  it('reads columns by name (older bills without 订单金额), keeps a comma in 商品名称 from shifting them, and stops at the summary', () => {
    const bill = [
      '交易时间,公众账号ID,商户号,微信订单号,商户订单号,交易状态,应结订单金额,微信退款单号,商户退款单号,退款金额,商品名称',
      '`2026-11-27 09:30:05,`wx1,`1900009191,`4200001,`YQ1,`SUCCESS,`1200.50,`0,`0,`0.00,`易签通-日本签证,加急',
      '`2026-11-27 15:00:00,`wx1,`1900009191,`4200001,`YQ1,`REFUND,`0.00,`50001,`RF1,`0.5,`易签通-日本签证,加急',
      '`2026-11-27 16:00:00,`wx1,`1900009191,`4200002,`YQ2,`REVOKED,`0.00,`0,`0,`0.00,`x',
      '总交易单数,应结订单总金额,退款总金额',
      '`3,`1200.50,`0.50',
    ].join('\r\n');
    expect(parseTradeBill(bill)).toEqual([
      {
        kind: 'payment',
        out_trade_no: 'YQ1',
        out_refund_no: null,
        provider_trade_no: '4200001',
        provider_refund_no: null,
        amount: 120_050,
        at: Date.parse('2026-11-27T09:30:05+08:00'),
      },
      {
        kind: 'refund',
        out_trade_no: 'YQ1',
        out_refund_no: 'RF1',
        provider_trade_no: '4200001',
        provider_refund_no: '50001',
        amount: 50,
        at: Date.parse('2026-11-27T15:00:00+08:00'),
      },
    ]);
    expect(() => parseTradeBill('总交易单数,应结订单总金额\r\n`0,`0.00')).toThrow(/not a trade bill/);
    expect(yuanToCents('0.01')).toBe(1);
    expect(() => yuanToCents('1.234')).toThrow(/not an amount/);
  });
});
