// The Alipay provider through the real app (SQLite, or PostgreSQL with
// TEST_DATABASE_URL) against the local fake of Alipay's gateway
// (server/test-support/fakes/alipay-fake.ts), with keys generated here: a
// payment by QR code (precreate) and by phone (WAP), a duplicated
// notification, a forged one, a lost one recovered by the query, a partial
// refund (Alipay answers at once: booked without a notification), a refund
// Alipay refuses, and Alipay timing out (asked again with the same number:
// never paid or refunded twice). Every request the provider sends passes the
// fake's checks (signature, app_id, timestamp, amounts…): none is refused
// unless the test means it.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminRefundCreate, adminRefundList } from '../../../../common/contracts/refund.ts';
import { type AlipayFake, createAlipayFake } from '../../../test-support/fakes/alipay-fake.ts';
import { type Customer, type PaymentTestContext, paymentTestContext } from '../../../test-support/fixtures/payment.ts';
import { createRefundWorker } from '../../refund/refund-worker.ts';
import { alipayKeysFrom } from './alipay-config.ts';
import { createAlipayProvider } from './alipay-provider.ts';
import { cents, chinaTime, parseChinaTime, rsa2Sign, signContent, yuan } from './alipay-format.ts';

const APP_ID = '2021000149612345';
const appKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const alipayKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const strangerKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });

let ctx: PaymentTestContext;
let fake: AlipayFake;
let alice: Customer;

beforeAll(async () => {
  fake = createAlipayFake({
    appId: APP_ID,
    appPublicKey: appKeys.publicKey,
    alipayPrivateKey: alipayKeys.privateKey,
    now: () => ctx.t.clock.now,
    // The app does not listen in tests: Alipay's notification reaches it in-process.
    deliver: async (url, body) => {
      const response = await ctx.t.app.inject({
        method: 'POST',
        url: new URL(url).pathname,
        payload: body,
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      });
      return response.body;
    },
  });
  await fake.start();
  ctx = await paymentTestContext({
    configure: (config) => {
      config.PAYMENT_ALIPAY_PROVIDER = 'alipay';
      config.ALIPAY_APP_ID = APP_ID;
      // Alipay's key tool prints bare base64 (PKCS#1 for most languages): the provider takes it as it is.
      config.ALIPAY_APP_PRIVATE_KEY = appKeys.privateKey.export({ type: 'pkcs1', format: 'der' }).toString('base64');
      config.ALIPAY_PUBLIC_KEY = alipayKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
      config.ALIPAY_GATEWAY = fake.gateway;
      config.ALIPAY_TIMEOUT_MS = 400;
    },
  });
  alice = await ctx.customer();
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
afterEach(() => {
  // Every request the provider made passed the gateway's checks, unless a test took the refusals it meant.
  expect(fake.refusals).toEqual([]);
});

function payAlipay(userOrderId: number, scene: 'qr' | 'phone' = 'qr') {
  return ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'alipay', scene }, alice);
}

/** A paid order: QR code, scanned and paid at the fake, the notification delivered. */
async function paidOrder(): Promise<{ id: number; total: number; outTradeNo: string }> {
  const { userOrderId, total } = await ctx.pendingOrder(alice);
  const created = await payAlipay(userOrderId);
  expect(created.ret, created.msg).toBe(0);
  const outTradeNo = created.body.out_trade_no as string;
  fake.pay(outTradeNo);
  expect(await fake.notify(outTradeNo)).toBe(true);
  expect((await ctx.order(userOrderId)).status).toBe('processing');
  return { id: userOrderId, total, outTradeNo };
}

describe('Alipay formats', () => {
  it('writes cents as yuan with two decimals and reads them back', () => {
    expect([0, 1, 10, 100, 12_345].map(yuan)).toEqual(['0.00', '0.01', '0.10', '1.00', '123.45']);
    expect(['123.45', '123.4', '123', '-0.50', '1.234', 'x'].map(cents)).toEqual([12_345, 12_340, 12_300, -50, null, null]);
  });

  it("writes China's wall clock whatever the server's time zone", () => {
    expect(chinaTime(Date.parse('2026-12-01T02:00:00Z'))).toBe('2026-12-01 10:00:00');
    expect(parseChinaTime('2026-12-01 10:00:00')).toBe(Date.parse('2026-12-01T02:00:00Z'));
    expect(parseChinaTime('2026-12-01T10:00:00')).toBeNull();
  });
});

describe('Alipay keys', () => {
  it('reads them from files or inline, names a missing or doubled one, and never shows a key in an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'alipay-keys-'));
    const privatePem = appKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const publicPem = alipayKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    writeFileSync(join(dir, 'app.pem'), privatePem);
    writeFileSync(join(dir, 'alipay.pem'), `${publicPem}\n`);
    const keys = alipayKeysFrom({ ALIPAY_APP_ID: APP_ID, ALIPAY_APP_PRIVATE_KEY_FILE: join(dir, 'app.pem'), ALIPAY_PUBLIC_KEY_FILE: join(dir, 'alipay.pem') });
    expect(keys).toMatchObject({
      appId: APP_ID,
      privateKey: privatePem.trim(),
      alipayPublicKey: publicPem.trim(),
      gateway: 'https://openapi.alipay.com/gateway.do',
    });
    expect(() =>
      alipayKeysFrom({
        ALIPAY_APP_ID: APP_ID,
        ALIPAY_APP_PRIVATE_KEY: privatePem,
        ALIPAY_APP_PRIVATE_KEY_FILE: join(dir, 'app.pem'),
        ALIPAY_PUBLIC_KEY: publicPem,
      }),
    ).toThrow(/set ALIPAY_APP_PRIVATE_KEY or ALIPAY_APP_PRIVATE_KEY_FILE, not both/);
    expect(() => alipayKeysFrom({ ALIPAY_APP_ID: APP_ID, ALIPAY_APP_PRIVATE_KEY_FILE: join(dir, 'missing.pem'), ALIPAY_PUBLIC_KEY: publicPem })).toThrow(
      /ALIPAY_APP_PRIVATE_KEY_FILE: cannot read/,
    );
    // A key that is not one: the error names the variable, not the text.
    const broken = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ-not-a-key';
    let message = '';
    try {
      createAlipayProvider({
        appId: APP_ID,
        privateKey: broken,
        alipayPublicKey: publicPem,
        gateway: 'http://127.0.0.1:9/gateway.do',
        timeoutMs: 500,
        notifyUrl: 'http://x/pay/notify/alipay',
        now: Date.now,
        tradeOfRefund: async () => null,
      });
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain('ALIPAY_APP_PRIVATE_KEY');
    expect(message).not.toContain('MIIEvQ');
  });
});

describe('Alipay payment', () => {
  it('pays an order by QR code: precreate, the signed notification answered `success`', async () => {
    const { userOrderId, total } = await ctx.pendingOrder(alice);
    const created = await payAlipay(userOrderId);
    expect(created.ret, created.msg).toBe(0);
    expect(created.body).toMatchObject({ provider: 'alipay', scene: 'qr', channel: 'alipay', amount: total, redirect_url: null });
    expect(created.body.code_url).toMatch(/^https:\/\/qr\.alipay\.com\//);
    expect(created.body.qrcode).toMatch(/^data:image\/png;base64,/);
    const outTradeNo = created.body.out_trade_no as string;
    const trade = fake.trades.get(outTradeNo)!;
    // What Alipay was asked: the amount in yuan, the payment's expiry, our notification URL.
    expect(trade).toMatchObject({ method: 'alipay.trade.precreate', total_amount: total, status: 'WAIT_BUYER_PAY' });
    expect(trade.time_expire).toBe(created.body.expires_at - (created.body.expires_at % 1000));
    expect(trade.notify_url).toMatch(/\/pay\/notify\/alipay$/);

    fake.pay(outTradeNo);
    expect(await fake.notify(outTradeNo)).toBe(true);
    expect(trade.notifications.map((n) => n.answer)).toEqual(['success']);
    expect((await ctx.order(userOrderId)).status).toBe('processing');
    expect(await ctx.payment(outTradeNo)).toMatchObject({ status: 'paid', provider_trade_no: trade.trade_no, amount: total });
  });

  it('pays an order by phone: the signed WAP gateway URL opens the cashier, the notification settles it', async () => {
    const { userOrderId, total } = await ctx.pendingOrder(alice);
    const created = await payAlipay(userOrderId, 'phone');
    expect(created.ret, created.msg).toBe(0);
    expect(created.body).toMatchObject({ scene: 'phone', code_url: null, qrcode: null });
    const redirect = new URL(created.body.redirect_url as string);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(fake.gateway);
    expect(redirect.searchParams.get('method')).toBe('alipay.trade.wap.pay');
    // Back to the order's page, which asks payment_query for this trade.
    expect(redirect.searchParams.get('return_url')).toMatch(new RegExp(`/${userOrderId}\\?pay=${created.body.out_trade_no as string}$`));
    // The phone's browser opens it: the gateway checks the signature and shows its cashier.
    const page = await fetch(redirect);
    expect(await page.text()).toContain(`￥${yuan(total)}`);
    const outTradeNo = created.body.out_trade_no as string;
    expect(fake.trades.get(outTradeNo)).toMatchObject({ method: 'alipay.trade.wap.pay', total_amount: total });

    fake.pay(outTradeNo);
    expect(await fake.notify(outTradeNo)).toBe(true);
    expect((await ctx.order(userOrderId)).status).toBe('processing');
  });

  it('a phone URL whose amount was changed is refused by the gateway', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const created = await payAlipay(userOrderId, 'phone');
    const redirect = new URL(created.body.redirect_url as string);
    const biz = JSON.parse(redirect.searchParams.get('biz_content')!) as Record<string, string>;
    redirect.searchParams.set('biz_content', JSON.stringify({ ...biz, total_amount: '0.01' }));
    const page = await fetch(redirect);
    expect(await page.text()).toContain('isv.invalid-signature');
    expect(fake.refusals.splice(0)).toEqual([expect.objectContaining({ method: 'alipay.trade.wap.pay', sub_code: 'isv.invalid-signature' })]);
  });

  it('books a duplicated notification once', async () => {
    const { id, outTradeNo } = await paidOrder();
    expect(await fake.notify(outTradeNo)).toBe(true);
    expect(await ctx.events(id, 'pay')).toHaveLength(1);
    expect((await ctx.notifications(outTradeNo)).map((n) => n.outcome)).toEqual(['paid', 'duplicate']);
  });

  it('refuses a forged notification (another key, or a changed amount) and Alipay keeps resending', async () => {
    const { userOrderId, total } = await ctx.pendingOrder(alice);
    const outTradeNo = (await payAlipay(userOrderId)).body.out_trade_no as string;
    fake.pay(outTradeNo);
    const post = async (body: string) =>
      (
        await ctx.t.app.inject({
          method: 'POST',
          url: '/pay/notify/alipay',
          payload: body,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).body;
    // Signed with a key that is not Alipay's.
    const forged = fake.notificationBody(outTradeNo, (params) => ({
      ...params,
      sign: rsa2Sign(signContent(params, ['sign', 'sign_type']), strangerKeys.privateKey),
    }));
    expect(await post(forged)).not.toBe('success');
    // Alipay's signature, but a smaller amount written over it.
    expect(await post(fake.notificationBody(outTradeNo, (params) => ({ ...params, total_amount: yuan(total - 100) })))).not.toBe('success');
    // For another app.
    const otherApp = fake.notificationBody(outTradeNo, (params) => {
      const changed = { ...params, app_id: '2021000000000000' };
      return { ...changed, sign: rsa2Sign(signContent(changed, ['sign', 'sign_type']), alipayKeys.privateKey) };
    });
    expect(await post(otherApp)).not.toBe('success');
    expect((await ctx.order(userOrderId)).status).toBe('pending_payment');
    expect((await ctx.notifications(outTradeNo)).map((n) => [n.outcome, n.signature_valid])).toEqual([
      ['bad_signature', 0],
      ['bad_signature', 0],
      ['bad_signature', 0],
    ]);
    // The real one still goes through.
    expect(await fake.notify(outTradeNo)).toBe(true);
    expect((await ctx.order(userOrderId)).status).toBe('processing');
  });

  it('recovers a lost notification by asking Alipay (alipay.trade.query)', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const outTradeNo = (await payAlipay(userOrderId)).body.out_trade_no as string;
    // Not scanned yet: Alipay has no such trade, and the payment stays pending.
    let queried = await ctx.call('/www/payment/payment_query', { user_order_id: userOrderId, out_trade_no: outTradeNo }, alice);
    expect(queried.body.payment.status).toBe('pending');
    fake.pay(outTradeNo); // … and the notification never arrives.
    queried = await ctx.call('/www/payment/payment_query', { user_order_id: userOrderId, out_trade_no: outTradeNo }, alice);
    expect(queried.ret, queried.msg).toBe(0);
    expect(queried.body).toMatchObject({ order_status: 'processing', order_paid: true, payment: { status: 'paid' } });
    expect(await ctx.payment(outTradeNo)).toMatchObject({ provider_trade_no: fake.trades.get(outTradeNo)!.trade_no });
  });

  it('a query that times out changes nothing; asked again, the payment is booked once', async () => {
    const { id } = await (async () => {
      const { userOrderId } = await ctx.pendingOrder(alice);
      return { id: userOrderId };
    })();
    const outTradeNo = (await payAlipay(id)).body.out_trade_no as string;
    fake.pay(outTradeNo);
    fake.stall('alipay.trade.query', 1_500);
    let queried = await ctx.call('/www/payment/payment_query', { user_order_id: id, out_trade_no: outTradeNo }, alice);
    expect(queried.ret, queried.msg).toBe(0);
    expect(queried.body.payment.status).toBe('pending');
    queried = await ctx.call('/www/payment/payment_query', { user_order_id: id, out_trade_no: outTradeNo }, alice);
    expect(queried.body.payment.status).toBe('paid');
    expect(await fake.notify(outTradeNo)).toBe(true);
    expect(await ctx.events(id, 'pay')).toHaveLength(1);
  });

  it('a QR code Alipay does not answer in time is 1886, and nothing is stored', async () => {
    const { userOrderId } = await ctx.pendingOrder(alice);
    fake.stall('alipay.trade.precreate', 1_500);
    const created = await payAlipay(userOrderId);
    expect(created.ret).not.toBe(0);
    expect(created.msg).toMatch(/[\u4e00-\u9fa5]/);
    expect(await ctx.t.db.selectFrom('payment').select('out_trade_no').where('user_order_id', '=', userOrderId).execute()).toEqual([]);
  });
});

describe('Alipay refund', () => {
  const worker = () => createRefundWorker({ db: ctx.t.db, provider: ctx.t.app.payments.providers.byName('alipay')!, now: () => ctx.t.clock.now, sweepMs: 0 });
  let boss: Awaited<ReturnType<PaymentTestContext['t']['operator']>>;
  beforeAll(async () => {
    boss = await ctx.t.operator({ role: 'supervisor' });
    // The app's own worker would race the tests' drains.
    await ctx.t.app.refunds.stopWorker();
  });

  async function refundByHand(userOrderId: number, amount: number) {
    const panel = (await boss.callContract(adminRefundList, { user_order_id: userOrderId })).result!;
    const answer = await boss.callContract(adminRefundCreate, {
      user_order_id: userOrderId,
      amount,
      reason: '客户申请部分退款',
      version: panel.version,
      last_refund_id: panel.last_refund_id,
    });
    expect(answer.body.ret, answer.body.msg).toBe(0);
    return ctx.t.db.selectFrom('refund').selectAll().where('user_order_id', '=', userOrderId).orderBy('refund_id', 'desc').executeTakeFirstOrThrow();
  }

  it('a partial refund is answered at once (fund_change Y) and booked as succeeded without a notification', async () => {
    const { id, total, outTradeNo } = await paidOrder();
    const refund = await refundByHand(id, 5_000);
    const drained = await worker().drain();
    expect(drained).toMatchObject({ sent: 1, settled: 1, failed: 0 });
    const row = await ctx.t.db.selectFrom('refund').selectAll().where('refund_id', '=', refund.refund_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'succeeded', refunded_at: ctx.t.clock.now, provider_refund_no: fake.trades.get(outTradeNo)!.trade_no });
    expect(fake.books(outTradeNo)).toEqual({ paid: total, refunded: 5_000 });
    expect(await ctx.events(id, 'refund_settle')).toHaveLength(1);
    // Alipay's refund query agrees.
    expect(await ctx.t.app.payments.providers.byName('alipay')!.queryRefund(refund.out_refund_no)).toMatchObject({ status: 'SUCCESS', amount: 5_000 });
  });

  it('a refund Alipay refuses (more than is left of the trade) is failed, with its reason', async () => {
    const { id, total, outTradeNo } = await paidOrder();
    await refundByHand(id, total - 1_000);
    await worker().drain();
    // Written past the panel's own check, as if the books had drifted: Alipay is the last word.
    const second = await refundByHand(id, 500);
    await ctx.t.db.updateTable('refund').set({ amount: 2_000 }).where('refund_id', '=', second.refund_id).execute();
    const drained = await worker().drain();
    expect(drained).toMatchObject({ failed: 1 });
    const row = await ctx.t.db.selectFrom('refund').selectAll().where('refund_id', '=', second.refund_id).executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(row.last_error).toContain('NOT_ENOUGH');
    expect(fake.books(outTradeNo)).toEqual({ paid: total, refunded: total - 1_000 });
    expect(row.last_error).toContain('退款金额超限');
  });

  it('a refund whose answer times out is asked again with the same out_request_no and refunded once', async () => {
    const { id, total, outTradeNo } = await paidOrder();
    const refund = await refundByHand(id, 3_000);
    fake.stall('alipay.trade.refund', 1_500);
    expect(await worker().drain()).toMatchObject({ retried: 1, sent: 0 });
    // Alipay did take it; we do not know yet.
    expect(fake.books(outTradeNo).refunded).toBe(3_000);
    expect((await ctx.t.db.selectFrom('refund').select('status').where('refund_id', '=', refund.refund_id).executeTakeFirstOrThrow()).status).toBe('pending');
    ctx.t.clock.now += 60_000;
    expect(await worker().drain()).toMatchObject({ sent: 1, settled: 1 });
    const row = await ctx.t.db.selectFrom('refund').selectAll().where('refund_id', '=', refund.refund_id).executeTakeFirstOrThrow();
    expect(row.status).toBe('succeeded');
    expect(fake.books(outTradeNo)).toEqual({ paid: total, refunded: 3_000 });
    expect([...fake.refunds.values()].filter((r) => r.out_trade_no === outTradeNo)).toHaveLength(1);
  });
});

describe('Alipay bill', () => {
  it("reads the day's bill (a zip of GBK CSV files) into lines that match our books; an edited bill is a difference", async () => {
    const alipay = ctx.t.app.payments.providers.byName('alipay')!;
    const day = chinaTime(ctx.t.clock.now).slice(0, 10);
    // Only a finished day has a bill: before, Alipay answers isp.bill_not_exist, read as "nothing moved" (the job asks after 10:00 the next day).
    expect(await alipay.downloadBill!(day)).toEqual([]);
    ctx.t.clock.now = parseChinaTime(`${day} 11:00:00`)! + 86_400_000;
    const lines = await alipay.downloadBill!(day);
    const paid = [...fake.trades.values()].filter((t) => t.status === 'TRADE_SUCCESS');
    expect(
      lines
        .filter((l) => l.kind === 'payment')
        .map((l) => l.out_trade_no)
        .sort(),
    ).toEqual(paid.map((t) => t.out_trade_no).sort());
    expect(lines.filter((l) => l.kind === 'refund').map((l) => [l.out_refund_no, l.amount])).toEqual(
      [...fake.refunds.values()].map((r) => [r.out_request_no, r.refund_amount]),
    );
    expect(lines.every((l) => l.amount > 0)).toBe(true);

    // The bill Alipay serves lacks one payment and lists a refund for more: two differences, nothing else.
    const dropped = paid[0]!.out_trade_no;
    const refund = [...fake.refunds.values()][0]!;
    fake.setBillEdit((all) =>
      all
        .filter((l) => !(l.type === '交易' && l.out_trade_no === dropped))
        .map((l) => (l.out_request_no === refund.out_request_no ? { ...l, amount: l.amount + 1 } : l)),
    );
    const outcome = await ctx.t.services.reconciliation.runDay(alipay, day);
    expect(outcome!.differences.map((d) => [d.kind, d.line_kind, d.out_trade_no, d.our_amount, d.their_amount])).toEqual(
      expect.arrayContaining([
        ['missing_theirs', 'payment', dropped, paid[0]!.total_amount, null],
        ['amount', 'refund', refund.out_trade_no, refund.refund_amount, refund.refund_amount + 1],
      ]),
    );
    expect(outcome!.differences).toHaveLength(2);
  });
});
