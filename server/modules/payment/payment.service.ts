// Payments: a QR code for an order (payment_create), the dialog's question
// "paid yet?" (payment_query, which asks the provider itself when our
// payment is still pending — the fallback for a late or lost notification),
// the provider's notification, and a sweep that settles expired pending
// payments with the provider. Rules: docs/order-rules.md, "Payment".
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import type { PaymentCreateResult, PaymentQueryResult, PaymentState } from '../../../common/contracts/payment.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { type OrderStatus, type OrderStep, PAID_STATUSES, statusLabel } from '../../../common/order.ts';
import type { PaymentChannel } from '../../../common/ordering.ts';
import { PAYMENT_LIMITS, type PaymentScene, channelLabel, isPaymentChannel, paymentStatusLabel } from '../../../common/payment.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { checkAllowed, createOrderLifecycle, type OrderRow, refusalOf } from '../order/lifecycle.ts';
import { priceDifferenceOf, priceDifferenceState } from '../price-difference/price-difference-records.ts';
import { type PaymentRepository, type PaymentRow, createPaymentRepository } from './payment.repository.ts';
import type { HeaderBag, NotificationAnswer, OpenedTrade, PaymentProvider } from './provider.ts';
import type { PaymentProviders } from './registry.ts';
import { type SettleResult, type SettleSource, settlePayment } from './settlement.ts';
import { type Customer, SYSTEM } from '../../platform/principal.ts';

export interface PaymentServiceDeps {
  providers: PaymentProviders;
  /** PUBLIC_SITE_URL: the phone wallet sends the payer back to the order page here. */
  siteUrl: string;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** Where the payer is, and where a phone wallet sends them back to. */
export interface PayerContext {
  scene: PaymentScene;
  client_ip: string;
}

/** Longest description the providers take (WeChat Pay: 127 characters). */
const DESCRIPTION_MAX = 100;

/** YQ + China date-time + 12 hex: 28 characters, unguessable (the pay page is addressed by it). */
function newOutTradeNo(at: number): string {
  const stamp = new Date(at + 8 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `YQ${stamp}${randomBytes(6).toString('hex').toUpperCase()}`;
}

export function paymentState(row: PaymentRow): PaymentState {
  return {
    out_trade_no: row.out_trade_no,
    scene: row.scene as PaymentScene,
    channel: row.channel as PaymentChannel,
    channel_label: channelLabel(row.channel),
    amount: row.amount,
    status: row.status as PaymentState['status'],
    status_label: paymentStatusLabel(row.status),
    created_at: row.created_at,
    paid_at: row.paid_at,
    expires_at: row.expires_at,
    price_difference_id: row.price_difference_id,
  };
}

export function createPaymentService(db: Kysely<Database>, deps: PaymentServiceDeps) {
  const repo: PaymentRepository = createPaymentRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const { providers, now, log } = deps;
  const site = deps.siteUrl.replace(/\/+$/, '');

  /** The provider a payment was made with; undefined (and logged) when it is no longer configured. */
  function providerOf(payment: PaymentRow): PaymentProvider | undefined {
    const provider = providers.byName(payment.provider);
    if (!provider) log.error({ outTradeNo: payment.out_trade_no, provider: payment.provider }, 'payment provider not configured');
    return provider;
  }

  /** The order page: the phone wallet's way back; the page asks payment_query for this trade. */
  function returnUrl(userOrderId: number, outTradeNo: string): string {
    return `${site}/order/order-detail/${userOrderId}?pay=${encodeURIComponent(outTradeNo)}`;
  }

  /** Opens the trade with the channel's provider; a refusal or a timeout is 1886 (nothing stored, so nothing to pay). */
  async function openTrade(
    provider: PaymentProvider,
    input: { out_trade_no: string; amount: number; channel: PaymentChannel; description: string; expires_at: number; user_order_id: number },
    payer: PayerContext,
  ): Promise<OpenedTrade> {
    try {
      return await provider.createTrade({
        out_trade_no: input.out_trade_no,
        amount: input.amount,
        channel: input.channel,
        description: input.description,
        expires_at: input.expires_at,
        scene: payer.scene,
        client_ip: payer.client_ip,
        return_url: returnUrl(input.user_order_id, input.out_trade_no),
      });
    } catch (error) {
      log.error({ err: error, userOrderId: input.user_order_id, provider: provider.name }, 'payment provider refused the trade');
      throw new AppError(ErrorCode.PAYMENT_PROVIDER_UNAVAILABLE);
    }
  }

  /** payment.code_url holds what the payer is sent to: the QR code's URL, or the wallet page (scene phone). */
  function payUrl(opened: OpenedTrade): string {
    return opened.scene === 'qr' ? opened.code_url : opened.redirect_url;
  }

  function settle(input: Parameters<typeof settlePayment>[1]): Promise<SettleResult> {
    return settlePayment(lifecycle, input, now());
  }

  /**
   * Brings one pending payment up to date with the provider: money taken →
   * settled (like a notification); expired and unpaid → closed there and
   * here. A provider that cannot be reached changes nothing (asked again later).
   */
  async function reconcile(payment: PaymentRow, source: SettleSource): Promise<void> {
    if (payment.status !== 'pending') return;
    const provider = providerOf(payment);
    if (!provider) return;
    let trade;
    try {
      trade = await provider.queryTrade(payment.out_trade_no);
      if (trade?.status === 'NOTPAY' && payment.expires_at <= now()) trade = await provider.closeTrade(payment.out_trade_no);
    } catch (error) {
      log.warn({ err: error, outTradeNo: payment.out_trade_no }, 'payment query failed');
      return;
    }
    if (trade?.status === 'SUCCESS') {
      const result = await settle({
        out_trade_no: payment.out_trade_no,
        provider_trade_no: trade.provider_trade_no,
        amount: trade.amount,
        paid_at: trade.paid_at ?? now(),
        source,
      });
      if (result.outcome === 'amount_mismatch')
        log.error({ outTradeNo: payment.out_trade_no, amount: trade.amount, expected: payment.amount }, 'provider reports another amount');
    } else if (trade?.status === 'CLOSED' || (trade === null && payment.expires_at <= now())) {
      await repo.close(payment.payment_id);
    }
  }

  /** Closes a pending payment with the provider (and here); one paid meanwhile is booked instead. */
  async function closeWithProvider(payment: PaymentRow): Promise<void> {
    const provider = providerOf(payment);
    if (!provider) return;
    let trade;
    try {
      trade = await provider.closeTrade(payment.out_trade_no);
    } catch (error) {
      // Unknown outcome: stays pending here; the reconciliation sweep asks again.
      log.warn({ err: error, outTradeNo: payment.out_trade_no }, 'payment close failed');
      return;
    }
    if (trade?.status === 'SUCCESS') {
      await settle({
        out_trade_no: payment.out_trade_no,
        provider_trade_no: trade.provider_trade_no,
        amount: trade.amount,
        paid_at: trade.paid_at ?? now(),
        source: 'close',
      });
    } else {
      await repo.close(payment.payment_id);
    }
  }

  /**
   * Settles the order's pending payments with the provider. Run right before
   * an unpaid order is expired: none of its payments outlives the order, so
   * the provider's answer is final and money paid in time is booked instead
   * of refunded.
   */
  async function reconcileOrder(userOrderId: number): Promise<void> {
    for (const payment of await repo.pending(userOrderId)) await reconcile(payment, 'expiry');
  }

  /**
   * The order as it stands now: an unpaid order whose time is up is expired
   * first — after its pending payments were settled with the provider.
   */
  function payableOrder(customer: Customer, userOrderId: number): Promise<OrderRow> {
    return lifecycle.current(customer, userOrderId, { beforeExpire: () => reconcileOrder(userOrderId) });
  }

  /** Throws the reason an order cannot be paid now: the payment_create rule's refusal, an expired order told apart. */
  async function assertPayable(customer: Customer, order: OrderRow): Promise<void> {
    const refusal = refusalOf('payment_create', order, customer, now());
    if (refusal?.ret === ErrorCode.ORDER_ALREADY_CANCELLED) {
      const cancellation = await repo.cancellation(order.user_order_id);
      throw cancellation?.event === 'expire' ? new AppError(ErrorCode.PAYMENT_ORDER_EXPIRED) : refusal;
    }
    if (refusal) throw refusal;
    if (order.total_amount <= 0) throw new AppError(ErrorCode.PAYMENT_AMOUNT_INVALID);
  }

  async function created(row: PaymentRow, reused: boolean): Promise<PaymentCreateResult> {
    if (row.scene === 'phone') return { ...paymentState(row), code_url: null, qrcode: null, redirect_url: row.code_url, provider: row.provider, reused };
    const qrcode = await QRCode.toDataURL(row.code_url, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
    return { ...paymentState(row), code_url: row.code_url, qrcode, redirect_url: null, provider: row.provider, reused };
  }

  /**
   * A pending payment to show again instead of opening a new trade: only a
   * QR code (a wallet page is short-lived — WeChat's h5_url lasts 5 minutes —
   * so a phone payment always opens a new trade).
   */
  function reusableFor(payer: PayerContext, ...args: Parameters<PaymentRepository['reusable']>) {
    return payer.scene === 'qr' ? repo.reusable(...args) : Promise.resolve(undefined);
  }

  /**
   * A QR code for an open price difference of a processing order (补差价): the
   * same provider, notification and settlement as the order's own payment;
   * the settlement books it with price_difference_pay. No order state changes
   * here, so no lifecycle event: the payment row only.
   */
  async function createForDifference(
    customer: Customer,
    userOrderId: number,
    priceDifferenceId: number,
    channel: PaymentChannel,
    payer: PayerContext,
  ): Promise<PaymentCreateResult> {
    const at = now();
    const order = await lifecycle.current(customer, userOrderId);
    // The payment's notification fires price_difference_pay: refused now, with that rule's refusal, where it would be then.
    checkAllowed('price_difference_pay', order, SYSTEM, at);
    const difference = await priceDifferenceOf(db, order.user_order_id, priceDifferenceId);
    if (!difference) throw new AppError(ErrorCode.PRICE_DIFFERENCE_NOT_FOUND);
    if (difference.status !== 'open') throw new AppError(ErrorCode.PRICE_DIFFERENCE_NOT_OPEN);
    const reusable = await reusableFor(
      payer,
      order.user_order_id,
      channel,
      difference.amount,
      at + PAYMENT_LIMITS.reuseMarginMs,
      difference.price_difference_id,
    );
    if (reusable) return created(reusable, true);

    const outTradeNo = newOutTradeNo(at);
    const expiresAt = at + PAYMENT_LIMITS.qrTtlMs;
    const provider = providers.forChannel(channel);
    const opened = await openTrade(
      provider,
      {
        out_trade_no: outTradeNo,
        amount: difference.amount,
        channel,
        description: `易签通-补差价-${order.product_title}`.slice(0, DESCRIPTION_MAX),
        expires_at: expiresAt,
        user_order_id: order.user_order_id,
      },
      payer,
    );
    await repo.insertRow({
      user_order_id: order.user_order_id,
      out_trade_no: outTradeNo,
      provider: provider.name,
      scene: opened.scene,
      channel,
      amount: difference.amount,
      status: 'pending',
      provider_trade_no: null,
      code_url: payUrl(opened),
      account_id: customer.accountId,
      created_at: at,
      expires_at: expiresAt,
      paid_at: null,
      price_difference_id: difference.price_difference_id,
    });
    return created((await repo.byTradeNo(outTradeNo))!, false);
  }

  return {
    async create(
      customer: Customer,
      input: { user_order_id: number; channel: string; price_difference_id?: number },
      payer: PayerContext = { scene: 'qr', client_ip: '127.0.0.1' },
    ): Promise<PaymentCreateResult> {
      if (!isPaymentChannel(input.channel)) throw new AppError(ErrorCode.PAYMENT_CHANNEL_INVALID);
      const channel = input.channel;
      if (input.price_difference_id !== undefined) return createForDifference(customer, input.user_order_id, input.price_difference_id, channel, payer);
      const at = now();
      const order = await payableOrder(customer, input.user_order_id);
      await assertPayable(customer, order);

      const reusable = await reusableFor(payer, order.user_order_id, channel, order.total_amount, at + PAYMENT_LIMITS.reuseMarginMs);
      if (reusable) return created(reusable, true);

      // A QR code for an old total (the order changed since) must not be paid:
      // close it with the provider. One that was paid meanwhile is booked instead.
      // (A valid QR code of the other channel stays: paying both is refunded.)
      for (const stale of await repo.pending(order.user_order_id)) {
        if (stale.amount === order.total_amount && stale.expires_at > at) continue;
        await closeWithProvider(stale);
      }
      const after = await payableOrder(customer, order.user_order_id);
      await assertPayable(customer, after);

      const outTradeNo = newOutTradeNo(at);
      // Never payable after the order itself expires.
      const expiresAt = Math.min(at + PAYMENT_LIMITS.qrTtlMs, order.expires_at ?? at + PAYMENT_LIMITS.qrTtlMs);
      const provider = providers.forChannel(channel);
      const opened = await openTrade(
        provider,
        {
          out_trade_no: outTradeNo,
          amount: order.total_amount,
          channel,
          description: `易签通-${order.product_title}`.slice(0, DESCRIPTION_MAX),
          expires_at: expiresAt,
          user_order_id: order.user_order_id,
        },
        payer,
      );
      const row = {
        user_order_id: order.user_order_id,
        out_trade_no: outTradeNo,
        provider: provider.name,
        scene: opened.scene,
        channel,
        amount: order.total_amount,
        status: 'pending' as const,
        provider_trade_no: null,
        code_url: payUrl(opened),
        account_id: customer.accountId,
        created_at: at,
        expires_at: expiresAt,
        paid_at: null,
      };
      await lifecycle.change(
        customer,
        order.user_order_id,
        async (fresh) => {
          // Still payable, for the same total, now that the provider has the trade.
          await assertPayable(customer, fresh);
          if (fresh.total_amount !== row.amount) throw new AppError(ErrorCode.ORDER_CONFLICT);
          return {
            event: 'payment_create',
            within: (trx) => repo.insert(trx, row),
            detail: { out_trade_no: row.out_trade_no, channel: row.channel, amount: row.amount, expires_at: row.expires_at },
          };
        },
        { beforeExpire: () => reconcileOrder(order.user_order_id) },
      );
      const stored = await repo.byTradeNo(outTradeNo);
      return created(stored!, false);
    },

    async query(customer: Customer, input: { user_order_id: number; out_trade_no?: string | null }): Promise<PaymentQueryResult> {
      const order = await payableOrder(customer, input.user_order_id);
      let payment = input.out_trade_no ? await repo.ofOrder(order.user_order_id, input.out_trade_no) : await repo.latest(order.user_order_id);
      if (input.out_trade_no && !payment) throw new AppError(ErrorCode.PAYMENT_NOT_FOUND);
      // The fallback: our payment is still pending, so ask the provider.
      if (payment?.status === 'pending') await reconcile(payment, 'query');
      const current = await payableOrder(customer, order.user_order_id);
      if (payment) payment = await repo.byTradeNo(payment.out_trade_no);
      return {
        user_order_id: current.user_order_id,
        order_status: current.status as OrderStatus,
        order_status_label: statusLabel(current.status),
        step: current.step as OrderStep | null,
        order_paid: current.paid_at !== null && PAID_STATUSES.includes(current.status as OrderStatus),
        paid_at: current.paid_at,
        payment: payment ? paymentState(payment) : null,
        price_difference: payment?.price_difference_id ? await priceDifferenceState(db, payment.price_difference_id) : null,
      };
    },

    /**
     * The provider's notification: verified, recorded, booked through the
     * same settlement as the query fallback, and answered in the provider's
     * format (success stops its resending).
     */
    async notify(provider: PaymentProvider, rawBody: string, headers: HeaderBag): Promise<NotificationAnswer> {
      const receivedAt = now();
      const record = (row: { notify_id: string | null; out_trade_no: string | null; signature_valid: boolean; outcome: string }) =>
        repo
          .recordNotification({
            provider: provider.name,
            body: rawBody.slice(0, 10_000),
            received_at: receivedAt,
            ...row,
            signature_valid: row.signature_valid ? 1 : 0,
          })
          .catch((error: unknown) => log.error({ err: error }, 'payment notification not recorded'));

      const parsed = await provider.parseNotification(rawBody, headers);
      if (!parsed.ok) {
        log.warn({ reason: parsed.reason, outTradeNo: parsed.out_trade_no }, 'payment notification refused');
        await record({
          notify_id: parsed.notify_id,
          out_trade_no: parsed.out_trade_no,
          signature_valid: parsed.reason !== 'bad_signature',
          outcome: parsed.reason,
        });
        return parsed.reason === 'bad_signature'
          ? provider.answer({ success: false, status: 401, message: '签名错误' })
          : provider.answer({ success: false, status: 400, message: '通知格式错误' });
      }
      const notification = parsed.notification;
      const base = { notify_id: notification.notify_id, out_trade_no: notification.out_trade_no, signature_valid: true };
      // Only money that moved is announced; anything else is acknowledged and ignored.
      if (notification.trade_state !== 'SUCCESS') {
        await record({ ...base, outcome: 'ignored' });
        return provider.answer({ success: true });
      }
      // Another provider's payment is not this one's to announce (a sandbox notification must never book a real payment).
      const payment = await repo.byTradeNo(notification.out_trade_no);
      if (payment && payment.provider !== provider.name) {
        log.error(
          { outTradeNo: notification.out_trade_no, provider: provider.name, paymentProvider: payment.provider },
          'payment notification from another provider',
        );
        await record({ ...base, outcome: 'unknown_trade' });
        return provider.answer({ success: false, status: 404, message: '交易不存在' });
      }
      let result: SettleResult;
      try {
        result = await settle({
          out_trade_no: notification.out_trade_no,
          provider_trade_no: notification.provider_trade_no,
          amount: notification.amount,
          paid_at: notification.paid_at,
          source: 'notify',
        });
      } catch (error) {
        log.error({ err: error, outTradeNo: notification.out_trade_no }, 'payment notification failed');
        await record({ ...base, outcome: 'error' });
        return provider.answer({ success: false, status: 500, message: '系统繁忙' });
      }
      await record({ ...base, outcome: result.outcome });
      switch (result.outcome) {
        case 'unknown_trade':
          log.warn({ outTradeNo: notification.out_trade_no }, 'payment notification for an unknown trade');
          return provider.answer({ success: false, status: 404, message: '交易不存在' });
        case 'amount_mismatch':
          log.error({ outTradeNo: notification.out_trade_no, amount: notification.amount }, 'payment notification amount differs from the payment');
          return provider.answer({ success: false, status: 400, message: '金额不符' });
        case 'refund_due':
          log.warn({ outTradeNo: notification.out_trade_no, reason: result.refund_reason, userOrderId: result.user_order_id }, 'payment to refund');
          return provider.answer({ success: true });
        default:
          return provider.answer({ success: true });
      }
    },

    /** For the order expiry: settle the order's payments before cancelling it (see reconcileOrder above). */
    reconcileOrder,

    /** Settles every pending payment whose time is up with the provider; returns how many were looked at. */
    async reconcileDue(limit = 100): Promise<number> {
      const due = await repo.duePending(now(), limit);
      for (const payment of due) await reconcile(payment, 'sweep');
      return due.length;
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
