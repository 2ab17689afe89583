// Test fixtures of the payment module: an app on a private database (its
// products inserted by the factories) with a fixed clock, customers with an order waiting for payment, and the
// sandbox's notifications sent in-process (app.inject) instead of over the
// network. Not a test file itself.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { AppConfig } from '../../config.ts';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../../test-support/test-app.ts';
import { createOrderService, type OrderService } from '../order/order.service.ts';
import type { NotifyTransport } from './sandbox-notifier.ts';
import { sandboxNotificationBody } from './sandbox-notifier.ts';
import { signedSandboxHeaders } from './sandbox-signature.ts';
import type { Customer as Principal } from '../../platform/principal.ts';
import type { OrderEventName } from '../../../common/order.ts';

/** Tuesday 1 December 2026, 10:00 in China (02:00 UTC). */
export const T0 = Date.parse('2026-12-01T02:00:00Z');
export const MINUTE = 60_000;
export const HOUR = 3_600_000;

/** A logged-in customer: the principal and its session token. */
export interface Customer extends Principal {
  token: string;
}

export interface PaymentTestContext {
  t: TestApp;
  /** The database, for a second app instance on it. */
  database: TestDatabase;
  orders: OrderService;
  secret: string;
  /** A logged-in customer of a new enterprise. */
  customer(): Promise<Customer>;
  /** A confirmed order (pending_payment) of the customer; total = 2 × unit price. */
  pendingOrder(customer: Customer, options?: { needInterview?: boolean }): Promise<{ userOrderId: number; total: number; expiresAt: number }>;
  draftOrder(customer: Customer, options?: { needInterview?: boolean }): Promise<number>;
  call(path: string, payload: unknown, customer: Customer): Promise<{ ret: number; msg: string; body: any }>;
  /** POSTs a notification to /pay/notify/sandbox in-process. */
  postNotification(body: string, headers: Record<string, string>): Promise<{ status: number; json: { code: string; message: string } }>;
  /** The signed notification the sandbox would send for a paid trade of its ledger. */
  signedNotification(
    outTradeNo: string,
    change?: (body: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<{ body: string; headers: Record<string, string> }>;
  order(userOrderId: number): Promise<{ status: string; step: string | null; version: number; paid_at: number | null; expires_at: number | null }>;
  events(
    userOrderId: number,
    event?: OrderEventName,
  ): Promise<Array<{ event: string; actor: string; from_status: string | null; to_status: string | null; detail: string | null }>>;
  payment(outTradeNo: string): Promise<{ status: string; paid_at: number | null; provider_trade_no: string | null; amount: number; expires_at: number }>;
  notifications(outTradeNo?: string): Promise<Array<{ outcome: string; signature_valid: number; notify_id: string | null }>>;
  close(): Promise<void>;
}

/** The sandbox's "network" when the app does not listen: requests go through app.inject. */
export function injectTransport(app: FastifyInstance): NotifyTransport {
  return async (url, body, headers) => {
    const response = await app.inject({ method: 'POST', url: new URL(url).pathname, payload: body, headers });
    return { status: response.statusCode, body: response.body };
  };
}

export async function paymentTestContext(options: { configure?: (config: AppConfig) => void } = {}): Promise<PaymentTestContext> {
  const database = await createTestDatabase();
  // The notification leaves as soon as the trade is paid (no 800 ms wait in tests).
  database.config.PAYMENT_SANDBOX_NOTIFY_DELAY_MS = 0;
  // The clock jumps past orders' 24 h expiry: sessions must outlive that.
  database.config.SESSION_IDLE_MINUTES = 60 * 24 * 30;
  // Another module's test may change more (an SMTP server for the mailer, say).
  options.configure?.(database.config);
  const t = await createTestApp(database);
  t.clock.now = T0;
  const products = { plain: await t.insertProduct(), interview: await t.insertProduct({ district: 'own', interview: true }) };
  t.app.payments.sandbox.notifier.setTransport(injectTransport(t.app));
  const orders = createOrderService(t.db, { now: () => t.clock.now });
  async function draftOrder(customer: Customer, options: { needInterview?: boolean } = {}): Promise<number> {
    const created = await orders.create(customer, {
      visa_product_id: (options.needInterview ? products.interview : products.plain).visa_product_id,
      departure_date: '2026-12-28',
      applicants: [
        { name: '张三', identity_id: 0, mobile_phone: '13800138001' },
        { name: '李四', identity_id: 1, mobile_phone: '13800138002' },
      ],
    });
    return created.user_order_id;
  }

  const ctx: PaymentTestContext = {
    t,
    database,
    orders,
    secret: database.config.PAYMENT_SANDBOX_SECRET,
    async customer() {
      const created = await t.createAccount();
      return { kind: 'customer', accountId: created.accountId, enterpriseId: created.enterpriseId, token: await t.login(created.account, created.password) };
    },
    draftOrder,
    async pendingOrder(customer, options) {
      const userOrderId = await draftOrder(customer, options);
      // Stands for the confirm step (modules/order confirm), which is not under test here.
      await t.db
        .updateTable('user_order')
        .set((eb) => ({ status: 'pending_payment', confirmed_at: t.clock.now, version: eb('version', '+', 1) }))
        .where('user_order_id', '=', userOrderId)
        .execute();
      const row = await t.db.selectFrom('user_order').select(['total_amount', 'expires_at']).where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow();
      expect(row.total_amount).toBeGreaterThan(0);
      return { userOrderId, total: row.total_amount, expiresAt: row.expires_at! };
    },
    async call(path, payload, customer) {
      const result = await t.call(path, payload, { token: customer.token });
      return result.body;
    },
    async postNotification(body, headers) {
      const response = await t.app.inject({ method: 'POST', url: '/pay/notify/sandbox', payload: body, headers });
      return { status: response.statusCode, json: response.json() };
    },
    async signedNotification(outTradeNo, change = (b) => b) {
      const trade = await t.app.payments.sandbox.ledger.find(outTradeNo);
      if (!trade) throw new Error(`no sandbox trade ${outTradeNo}`);
      const body = JSON.stringify(change(JSON.parse(sandboxNotificationBody(trade)) as Record<string, unknown>));
      return { body, headers: signedSandboxHeaders(database.config.PAYMENT_SANDBOX_SECRET, body, t.clock.now) };
    },
    order: (userOrderId) =>
      t.db
        .selectFrom('user_order')
        .select(['status', 'step', 'version', 'paid_at', 'expires_at'])
        .where('user_order_id', '=', userOrderId)
        .executeTakeFirstOrThrow(),
    async events(userOrderId, event) {
      let query = t.db.selectFrom('order_event').select(['event', 'actor', 'from_status', 'to_status', 'detail']).where('user_order_id', '=', userOrderId);
      if (event) query = query.where('event', '=', event);
      return query.orderBy('event_id').execute();
    },
    payment: (outTradeNo) =>
      t.db
        .selectFrom('payment')
        .select(['status', 'paid_at', 'provider_trade_no', 'amount', 'expires_at'])
        .where('out_trade_no', '=', outTradeNo)
        .executeTakeFirstOrThrow(),
    async notifications(outTradeNo) {
      let query = t.db.selectFrom('payment_notification').select(['outcome', 'signature_valid', 'notify_id']);
      if (outTradeNo) query = query.where('out_trade_no', '=', outTradeNo);
      return query.orderBy('payment_notification_id').execute();
    },
    close: () => t.close(true),
  };
  return ctx;
}

/** Polls until check() passes (async work of the sandbox: timers, in-process HTTP). */
export async function eventually(check: () => Promise<void>, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
