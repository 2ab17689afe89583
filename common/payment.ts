// Payment shapes shared by the payment dialog and the server (modules/payment).
// The rules are in docs/order-rules.md, section "Payment".
import type { OrderStatus, OrderStep } from './order.ts';
import { PAYMENT_CHANNELS, PAYMENT_STATUSES, type PaymentChannel, type PaymentView } from './ordering.ts';

export const PAYMENT_LIMITS = {
  /** A QR code (payment) is valid this long, and never past the order's own expiry. */
  qrTtlMs: 15 * 60_000,
  /** A pending payment is reused only when it still has this long to live. */
  reuseMarginMs: 60_000,
  /** How often the dialog asks for the result while it is open. */
  pollIntervalMs: 2_000,
} as const;

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

export interface PaymentCreateInput {
  user_order_id: number;
  channel: PaymentChannel;
}

/** One payment as the dialog follows it. */
export interface PaymentState extends PaymentView {
  /** After this instant the QR code can no longer be paid. */
  expires_at: number;
}

export interface PaymentCreateResult extends PaymentState {
  /** What the QR code encodes (the provider's pay page). */
  code_url: string;
  /** data:image/png;base64,… of code_url. */
  qrcode: string;
  /** 'sandbox' lets the dialog offer to open the pay page in a new window. */
  provider: string;
  /** True when a still-valid QR code of the same channel and amount was handed out again. */
  reused: boolean;
}

export interface PaymentQueryInput {
  user_order_id: number;
  /** The payment the dialog shows; the order's latest payment when absent. */
  out_trade_no?: string | null;
}

export interface PaymentQueryResult {
  user_order_id: number;
  order_status: OrderStatus;
  order_status_label: string;
  step: OrderStep | null;
  /** The order has been paid (by this or another payment): the dialog can move on. */
  order_paid: boolean;
  paid_at: number | null;
  payment: PaymentState | null;
}
