// Several payment providers in one app (issue 25): the channel picks the
// provider of a new trade, the payment's own provider answers everything
// after, a notification from another provider books nothing; and the
// phone scene (the sandbox as the phone's wallet, with the way back).
// SQLite, or PostgreSQL with TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneOfUserAgent } from '../../../common/payment.ts';
import { type Customer, type PaymentTestContext, paymentTestContext } from '../../test-support/fixtures/payment.ts';
import { createPaymentService } from './payment.service.ts';
import type { CreateTradeInput, PaymentProvider, TradeInfo } from './provider.ts';
import { createProviderRegistry } from './registry.ts';
import { sandboxNotificationBody } from './sandbox-notifier.ts';
import { signedSandboxHeaders } from './sandbox-signature.ts';

let ctx: PaymentTestContext;
let alice: Customer;

beforeAll(async () => {
  ctx = await paymentTestContext();
  alice = await ctx.customer();
});
afterAll(() => ctx.close());

/** A second company: records what it was asked; its trades are paid once `paid` holds them. */
function recordingProvider(name: string) {
  const opened: CreateTradeInput[] = [];
  const asked: string[] = [];
  const paid = new Set<string>();
  const info = (no: string): TradeInfo => {
    const trade = opened.find((t) => t.out_trade_no === no)!;
    return paid.has(no)
      ? { out_trade_no: no, status: 'SUCCESS', provider_trade_no: `P-${no}`, amount: trade.amount, paid_at: trade.expires_at - 1 }
      : { out_trade_no: no, status: 'NOTPAY', provider_trade_no: null, amount: trade.amount, paid_at: null };
  };
  const provider: PaymentProvider = {
    name,
    async createTrade(input) {
      opened.push(input);
      return input.scene === 'phone'
        ? { scene: 'phone', redirect_url: `https://wallet.example/${input.out_trade_no}` }
        : { scene: 'qr', code_url: `weixin://wxpay/${input.out_trade_no}` };
    },
    async queryTrade(no) {
      asked.push(no);
      return opened.some((t) => t.out_trade_no === no) ? info(no) : null;
    },
    async closeTrade(no) {
      return info(no);
    },
    parseNotification: () => ({ ok: false, reason: 'bad_signature', notify_id: null, out_trade_no: null }),
    answer: (result) => ({ status: result.success ? 204 : result.status, contentType: 'application/json', body: '' }),
    refund: async () => ({ ok: false, code: 'INVALID_REQUEST', message: 'not here' }),
    queryRefund: async () => null,
    parseRefundNotification: () => ({ ok: false, reason: 'bad_signature', notify_id: null, out_refund_no: null }),
  };
  return { provider, opened, asked, paid };
}

describe('the provider registry', () => {
  it('refuses a channel whose provider is not configured, and a provider registered twice', () => {
    const sandbox = ctx.t.app.payments.sandbox.provider;
    expect(() => createProviderRegistry([sandbox], { wechat: 'wechatpay', alipay: 'sandbox' })).toThrow(/wechat names provider wechatpay/);
    expect(() => createProviderRegistry([sandbox, sandbox], { wechat: 'sandbox', alipay: 'sandbox' })).toThrow(/twice/);
    const registry = createProviderRegistry([sandbox], { wechat: 'sandbox', alipay: 'sandbox' });
    expect(registry.forChannel('alipay')).toBe(sandbox);
    expect(registry.byName('alipay')).toBeUndefined();
    expect(registry.all()).toEqual([sandbox]);
  });

  it('with no configuration both channels are the sandbox, and its notification routes exist', async () => {
    expect(ctx.t.app.payments.providers.all().map((p) => p.name)).toEqual(['sandbox']);
    for (const url of ['/pay/notify/sandbox', '/pay/refund-notify/sandbox']) {
      const response = await ctx.t.app.inject({ method: 'POST', url, payload: '{}', headers: { 'content-type': 'application/json' } });
      expect(response.statusCode).toBe(401);
    }
    expect((await ctx.t.app.inject({ method: 'POST', url: '/pay/notify/wechatpay', payload: '{}' })).statusCode).toBe(404);
  });

  it("opens the trade with the channel's provider, asks that payment's provider afterwards, and a notification from another provider books nothing", async () => {
    const other = recordingProvider('other');
    const sandbox = ctx.t.app.payments.sandbox;
    const providers = createProviderRegistry([sandbox.provider, other.provider], { wechat: 'other', alipay: 'sandbox' });
    const log = { info() {}, warn() {}, error() {} };
    const service = createPaymentService(ctx.t.db, { providers, siteUrl: 'http://localhost:3000', now: () => ctx.t.clock.now, log });
    const { userOrderId, total } = await ctx.pendingOrder(alice);

    const wechat = await service.create(alice, { user_order_id: userOrderId, channel: 'wechat' }, { scene: 'qr', client_ip: '203.0.113.7' });
    expect(wechat).toMatchObject({ provider: 'other', scene: 'qr', code_url: `weixin://wxpay/${wechat.out_trade_no}`, redirect_url: null });
    expect(other.opened).toEqual([
      expect.objectContaining({
        out_trade_no: wechat.out_trade_no,
        amount: total,
        channel: 'wechat',
        scene: 'qr',
        client_ip: '203.0.113.7',
        return_url: `http://localhost:3000/order/order-detail/${userOrderId}?pay=${wechat.out_trade_no}`,
      }),
    ]);
    const alipay = await service.create(alice, { user_order_id: userOrderId, channel: 'alipay' });
    expect(alipay.provider).toBe('sandbox');
    expect(await sandbox.ledger.find(wechat.out_trade_no)).toBeUndefined();

    // The sandbox signs a notification claiming the other provider's trade was paid: refused, nothing booked.
    await sandbox.ledger.pay(alipay.out_trade_no, { at: ctx.t.clock.now, provider_trade_no: '4200X', notify_id: 'N-cross' });
    const real = (await sandbox.ledger.find(alipay.out_trade_no))!;
    const body = sandboxNotificationBody({ ...real, out_trade_no: wechat.out_trade_no, amount: total });
    const answer = await service.notify(sandbox.provider, body, signedSandboxHeaders(ctx.secret, body, ctx.t.clock.now));
    expect(answer.status).toBe(404);
    expect((await ctx.payment(wechat.out_trade_no)).status).toBe('pending');

    // The query of the WeChat payment asks its own provider, which says paid: booked.
    other.paid.add(wechat.out_trade_no);
    const result = await service.query(alice, { user_order_id: userOrderId, out_trade_no: wechat.out_trade_no });
    expect(other.asked).toContain(wechat.out_trade_no);
    expect(result).toMatchObject({ order_paid: true, payment: { status: 'paid', scene: 'qr' } });
  });
});

describe('the phone scene', () => {
  it('tells phone browsers from desktop ones by the User-Agent', () => {
    expect(sceneOfUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1')).toBe('phone');
    expect(sceneOfUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36')).toBe('phone');
    expect(sceneOfUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36')).toBe('qr');
    expect(sceneOfUserAgent(undefined)).toBe('qr');
  });

  it('sends a phone to the sandbox wallet with the way back to the order page; each time a new trade', async () => {
    const { userOrderId, total } = await ctx.pendingOrder(alice);
    const created = await ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat', scene: 'phone' }, alice);
    expect(created.ret).toBe(0);
    const payment = created.body;
    const back = `http://localhost:3000/order/order-detail/${userOrderId}?pay=${payment.out_trade_no}`;
    expect(payment).toMatchObject({ scene: 'phone', code_url: null, qrcode: null, amount: total, provider: 'sandbox', reused: false });
    expect(payment.redirect_url).toBe(`http://localhost:3000/sandbox/pay/${payment.out_trade_no}?return=${encodeURIComponent(back)}`);
    const again = (await ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat', scene: 'phone' }, alice)).body;
    expect(again.out_trade_no).not.toBe(payment.out_trade_no);

    // The wallet page keeps the way back through its form; a foreign one is dropped.
    const page = await ctx.t.app.inject({ method: 'GET', url: new URL(payment.redirect_url).pathname + new URL(payment.redirect_url).search });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('返回商户');
    expect(page.body).toContain(`href="${back.replace('&', '&#38;')}"`);
    const foreign = await ctx.t.app.inject({
      method: 'GET',
      url: `/sandbox/pay/${payment.out_trade_no}?return=${encodeURIComponent('https://evil.example/order/order-detail/1')}`,
    });
    expect(foreign.body).not.toContain('返回商户');

    const confirm = await ctx.t.app.inject({ method: 'POST', url: `/sandbox/pay/${payment.out_trade_no}/confirm?return=${encodeURIComponent(back)}` });
    expect(confirm.statusCode).toBe(303);
    expect(confirm.headers.location).toBe(`/sandbox/pay/${payment.out_trade_no}?notice=paid&return=${encodeURIComponent(back)}`);
    // Back on the order page: the query finds it paid.
    const result = await ctx.call('/www/payment/payment_query', { user_order_id: userOrderId, out_trade_no: payment.out_trade_no }, alice);
    expect(result.body).toMatchObject({ order_paid: true, payment: { status: 'paid', scene: 'phone' } });
  });
});
