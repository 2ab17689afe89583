// Payment rules shared by the payment dialog and the server (modules/payment);
// the calls are common/contracts/payment.ts.
// The rules are in docs/order-rules.md, section "Payment".
import { PAYMENT_CHANNELS, PAYMENT_STATUSES, type PaymentChannel, type PaymentStatus } from './ordering.ts';

export const PAYMENT_LIMITS = {
  /** A QR code (payment) is valid this long, and never past the order's own expiry. */
  qrTtlMs: 15 * 60_000,
  /** A pending payment is reused only when it still has this long to live. */
  reuseMarginMs: 60_000,
  /** How often the dialog asks for the result while it is open. */
  pollIntervalMs: 2_000,
} as const;

/**
 * Where the payer pays: qr — a desktop browser shows a QR code to scan with
 * the phone; phone — the browser is on the phone, so it opens the wallet
 * (WeChat Pay H5 / Alipay WAP) instead of a QR code it cannot scan.
 */
export const PAYMENT_SCENES = ['qr', 'phone'] as const;
export type PaymentScene = (typeof PAYMENT_SCENES)[number];

/** Phone browsers by their User-Agent (the server's guess when the client names no scene). */
const PHONE_UA = /Android.+Mobile|iPhone|iPod|Windows Phone|MicroMessenger|AlipayClient|HarmonyOS.+Mobile|Mobile.+Safari/i;

export function sceneOfUserAgent(userAgent: string | undefined | null): PaymentScene {
  return userAgent && PHONE_UA.test(userAgent) ? 'phone' : 'qr';
}

export function isPaymentChannel(value: unknown): value is PaymentChannel {
  return typeof value === 'string' && Object.hasOwn(PAYMENT_CHANNELS, value);
}

export function channelLabel(channel: string): string {
  return PAYMENT_CHANNELS[channel as PaymentChannel] ?? channel;
}

export function paymentStatusLabel(status: string): string {
  return PAYMENT_STATUSES[status as keyof typeof PAYMENT_STATUSES] ?? status;
}

/** Cents → '￥1299.00': a payment always shows two decimals, like the providers do. */
export function formatPayAmount(cents: number): string {
  return `￥${(cents / 100).toFixed(2)}`;
}

/**
 * The payments as a person should read them: a pending attempt whose order (or
 * price difference) another attempt has paid — the WeChat QR left open when
 * the customer paid by Alipay — is shown 已关闭, not 待支付: nobody can or
 * need pay it (the provider closes or refunds it on its own).
 */
export function withAbandonedClosed<T extends { status: PaymentStatus; price_difference_id: number | null }>(payments: readonly T[]): T[] {
  const paidTargets = new Set(payments.filter((p) => p.status === 'paid' || p.status === 'refund_pending').map((p) => p.price_difference_id));
  return payments.map((p) => (p.status === 'pending' && paidTargets.has(p.price_difference_id) ? ({ ...p, status: 'closed' } as T) : p));
}
