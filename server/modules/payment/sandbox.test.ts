// The sandbox provider on its own: signatures, its ledger (shared by app
// instances, kept across restarts), its notifier's retries and its pay page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/test-app.ts';
import { type Customer, type PaymentTestContext, eventually, injectTransport, paymentTestContext } from '../../test-support/fixtures/payment.ts';
import type { NotifyTransport } from './sandbox-notifier.ts';
import { createSandboxProvider } from './sandbox-provider.ts';
import { SANDBOX_SIGNATURE_HEADERS, sandboxSignature, signedSandboxHeaders, verifySandboxSignature } from './sandbox-signature.ts';

const SECRET = 'sandbox-test-secret-0123456789';
const NOW = Date.parse('2026-12-01T02:00:00Z');
const silentLog = { info: () => {}, warn: () => {} };

describe('sandbox signature', () => {
  it('is HMAC-SHA256 over timestamp, nonce and body, each followed by a newline (base64)', () => {
    // Fixed vector, so another implementation (a real merchant SDK) can check itself against it.
    expect(sandboxSignature('key', '1795996800', 'abc', '{"a":1}')).toBe('KJPNzFtp4V35JyWHvk4jQwHPYFiiB/9mwFwVEYW32N4=');
  });

  it('verifies what it signed, and nothing else', () => {
    const body = '{"out_trade_no":"YQ1"}';
    const headers = signedSandboxHeaders(SECRET, body, NOW);
    expect(headers[SANDBOX_SIGNATURE_HEADERS.timestamp]).toBe(String(NOW / 1000));
    expect(verifySandboxSignature(SECRET, body, headers, NOW)).toBe(true);
    expect(verifySandboxSignature(SECRET, body, headers, NOW + 299_000)).toBe(true);
    expect(verifySandboxSignature(SECRET, body, headers, NOW + 301_000)).toBe(false);
    expect(verifySandboxSignature(SECRET, body, headers, NOW - 301_000)).toBe(false);
    expect(verifySandboxSignature('another-secret-0123456789', body, headers, NOW)).toBe(false);
    expect(verifySandboxSignature(SECRET, `${body} `, headers, NOW)).toBe(false);
    expect(verifySandboxSignature(SECRET, body, { ...headers, [SANDBOX_SIGNATURE_HEADERS.nonce]: 'other' }, NOW)).toBe(false);
    expect(verifySandboxSignature(SECRET, body, { ...headers, [SANDBOX_SIGNATURE_HEADERS.signature]: undefined }, NOW)).toBe(false);
    expect(verifySandboxSignature(SECRET, body, { ...headers, [SANDBOX_SIGNATURE_HEADERS.timestamp]: 'soon' }, NOW)).toBe(false);
    // Every sending gets its own nonce.
    expect(signedSandboxHeaders(SECRET, body, NOW)[SANDBOX_SIGNATURE_HEADERS.nonce]).not.toBe(headers[SANDBOX_SIGNATURE_HEADERS.nonce]);
  });
});

describe('sandbox provider', () => {
  let ctx: PaymentTestContext;
  let alice: Customer;

  beforeAll(async () => {
    ctx = await paymentTestContext();
    alice = await ctx.customer();
  });
  afterAll(() => ctx.close());

  async function newTrade(): Promise<{ outTradeNo: string; userOrderId: number }> {
    const { userOrderId } = await ctx.pendingOrder(alice);
    const created = await ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat' }, alice);
    expect(created.ret).toBe(0);
    return { outTradeNo: created.body.out_trade_no, userOrderId };
  }

  function provider(transport: NotifyTransport, retryDelaysMs = [5, 5, 5, 5]) {
    return createSandboxProvider({
      db: ctx.t.db,
      secret: ctx.secret,
      siteUrl: 'http://localhost:3000',
      notifyDelayMs: 0,
      now: () => ctx.t.clock.now,
      log: silentLog,
      transport,
      retryDelaysMs,
    });
  }

  it('retries a refused notification with backoff until the merchant answers success', async () => {
    const { outTradeNo, userOrderId } = await newTrade();
    const inject = injectTransport(ctx.t.app);
    let calls = 0;
    const sandbox = provider(async (url, body, headers) => {
      calls += 1;
      if (calls === 1) throw new Error('connection refused');
      if (calls === 2) return { status: 500, body: '{"code":"FAIL"}' };
      return inject(url, body, headers);
    });
    expect(await sandbox.confirm(outTradeNo)).toEqual({ ok: true, alreadyPaid: false });
    await eventually(async () => expect((await sandbox.ledger.find(outTradeNo))!.notify_status).toBe('delivered'));
    expect(calls).toBe(3);
    expect((await sandbox.ledger.find(outTradeNo))!.notify_attempts).toBe(3);
    expect((await ctx.order(userOrderId)).status).toBe('processing');
    sandbox.close();
  });

  it('closes after the sending under way has been recorded, and sends nothing more (graceful stop)', async () => {
    const { outTradeNo } = await newTrade();
    let release!: () => void;
    let calls = 0;
    const sandbox = provider(async () => {
      calls += 1;
      await new Promise<void>((resolve) => (release = resolve));
      return { status: 503, body: '' };
    });
    await sandbox.confirm(outTradeNo);
    await eventually(async () => expect(calls).toBe(1));
    let closed = false;
    const closing = sandbox.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    release();
    await closing;
    // The refused sending was written down before close() resolved; its retry was not scheduled.
    expect((await sandbox.ledger.find(outTradeNo))!.notify_attempts).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(1);
  });

  it('gives up after a few tries (the query fallback takes over) and marks the notification failed', async () => {
    const { outTradeNo, userOrderId } = await newTrade();
    let calls = 0;
    const sandbox = provider(async () => {
      calls += 1;
      return { status: 503, body: '' };
    });
    await sandbox.confirm(outTradeNo);
    await eventually(async () => expect((await sandbox.ledger.find(outTradeNo))!.notify_status).toBe('failed'));
    expect(calls).toBe(5);
    expect((await ctx.order(userOrderId)).status).toBe('pending_payment');
    const polled = await ctx.call('/www/payment/payment_query', { user_order_id: userOrderId, out_trade_no: outTradeNo }, alice);
    expect(polled.body).toMatchObject({ order_status: 'processing', payment: { status: 'paid' } });
    sandbox.close();
  });

  it('keeps its ledger in the database: another app instance on the same database sees and pays the trade', async () => {
    const { outTradeNo, userOrderId } = await newTrade();
    // A second instance of the app, as after a restart or behind a load balancer.
    const second = await createTestApp(ctx.database);
    second.clock.now = ctx.t.clock.now;
    second.app.payments.sandbox.notifier.setTransport(injectTransport(second.app));
    const page = await second.app.inject({ method: 'GET', url: `/sandbox/pay/${outTradeNo}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(outTradeNo);
    expect(await second.app.payments.sandbox.confirm(outTradeNo)).toEqual({ ok: true, alreadyPaid: false });
    await eventually(async () => expect((await ctx.order(userOrderId)).status).toBe('processing'));
    await second.close(false);
    // The first instance's sandbox knows it is paid.
    expect(await ctx.t.app.payments.sandbox.confirm(outTradeNo)).toEqual({ ok: true, alreadyPaid: true });
  });

  it('refuses to take money after the trade expired, and for unknown trades', async () => {
    const { outTradeNo } = await newTrade();
    const trade = (await ctx.t.app.payments.sandbox.ledger.find(outTradeNo))!;
    const saved = ctx.t.clock.now;
    ctx.t.clock.now = trade.expires_at;
    expect(await ctx.t.app.payments.sandbox.confirm(outTradeNo)).toEqual({ ok: false, reason: 'expired' });
    const page = await ctx.t.app.inject({ method: 'GET', url: `/sandbox/pay/${outTradeNo}` });
    expect(page.body).toContain('二维码已过期');
    expect(page.body).not.toContain('确认支付</button>');
    ctx.t.clock.now = saved;
    expect(await ctx.t.app.payments.sandbox.confirm('YQNOSUCH')).toEqual({ ok: false, reason: 'not_found' });
    const missing = await ctx.t.app.inject({ method: 'GET', url: '/sandbox/pay/YQNOSUCH' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('交易不存在');
    expect((await ctx.t.app.inject({ method: 'GET', url: '/sandbox/pay/%3Cscript%3E' })).statusCode).toBe(404);
    expect((await ctx.t.app.inject({ method: 'POST', url: '/sandbox/pay/YQNOSUCH/confirm' })).statusCode).toBe(404);
  });

  it('renders the pay page in the channel colours, with the amount, escaped', async () => {
    const { outTradeNo } = await newTrade();
    await ctx.t.db
      .withTables<{ payment_sandbox_trade: { out_trade_no: string; description: string } }>()
      .updateTable('payment_sandbox_trade')
      .set({ description: '易签通-<b>日本</b>' })
      .where('out_trade_no', '=', outTradeNo)
      .execute();
    const page = await ctx.t.app.inject({ method: 'GET', url: `/sandbox/pay/${outTradeNo}` });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('#07c160');
    expect(page.body).toContain('微信支付');
    expect(page.body).toContain('易签通-&#60;b&#62;日本&#60;/b&#62;');
    expect(page.body).toContain('沙箱环境');
    const total = (await ctx.payment(outTradeNo)).amount;
    expect(page.body).toContain(`<small>￥</small>${(total / 100).toFixed(2)}`);
  });
});
