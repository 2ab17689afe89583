// Pure rules of the payment dialog (no React): the countdown text and what a
// payment_query answer means for the dialog.
import type { PaymentQueryResult } from '../../../common/contracts/payment';
import { awaitsPayment, isCancelled } from '../../../common/order';

/** Milliseconds left → 'mm:ss' (rounded up, so it never shows 00:00 while time is left). */
export function countdownText(msLeft: number): string {
  const seconds = Math.max(0, Math.ceil(msLeft / 1000));
  const mm = Math.floor(seconds / 60);
  const ss = seconds % 60;
  return `${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}`;
}

export type QueryVerdict =
  | { kind: 'paid' }
  /** Still waiting for the money (or the code expired: 'closed'). */
  | { kind: 'waiting'; closed: boolean }
  /** The money arrived but cannot be used for this order; it goes back. */
  | { kind: 'refund'; message: string }
  | { kind: 'stopped'; message: string };

export function verdictOf(result: PaymentQueryResult): QueryVerdict {
  // A price difference (补差价): the order is paid already; what counts is the difference.
  if (result.price_difference) {
    if (result.price_difference.status === 'paid' && result.payment?.status === 'paid') return { kind: 'paid' };
    if (result.payment?.status === 'refund_pending') return { kind: 'refund', message: '该补差价已不需支付，本次付款将原路退回，请留意退款通知或联系客服。' };
    if (result.price_difference.status !== 'open') return { kind: 'stopped', message: `该补差价${result.price_difference.status_label}，无需支付。` };
    return { kind: 'waiting', closed: result.payment?.status === 'closed' };
  }
  if (result.order_paid) return { kind: 'paid' };
  if (result.payment?.status === 'refund_pending') {
    return { kind: 'refund', message: '订单已关闭，本次付款将原路退回，请留意退款通知或联系客服。' };
  }
  if (isCancelled({ status: result.order_status })) return { kind: 'stopped', message: '订单已取消，无法继续支付。' };
  if (!awaitsPayment({ status: result.order_status })) return { kind: 'stopped', message: `订单当前状态为“${result.order_status_label}”，无需支付。` };
  return { kind: 'waiting', closed: result.payment?.status === 'closed' };
}

export const CHANNEL_HINTS = {
  wechat: '打开微信，使用“扫一扫”完成付款',
  alipay: '打开支付宝，使用“扫一扫”完成付款',
} as const;
