// Refunds (退款): their kinds, states, labels and limits, shared by the
// server, the customer's order detail and the back office's refund panel.
// Rules: docs/order-rules.md, "Refunds".

export const REFUND_KINDS = { rejection: '拒签退款', manual: '手动退款', close: '全额退款并关闭订单' } as const;
export type RefundKind = keyof typeof REFUND_KINDS;
export const REFUND_KIND_VALUES = Object.keys(REFUND_KINDS) as [RefundKind, ...RefundKind[]];

/** pending: not yet accepted by the payment company; processing: accepted, on its way back; succeeded: arrived. */
export const REFUND_STATUSES = { pending: '退款中', processing: '退款中', succeeded: '已退款', failed: '退款失败' } as const;
export type RefundStatus = keyof typeof REFUND_STATUSES;
export const REFUND_STATUS_VALUES = Object.keys(REFUND_STATUSES) as [RefundStatus, ...RefundStatus[]];

export const REFUND_LIMITS = {
  reasonMinLength: 2,
  reasonMaxLength: 200,
} as const;

/** The anchor of the order detail's refund section (the notices link to it). */
export const REFUND_ANCHOR = 'refunds';

export function refundStatusLabel(status: string): string {
  return REFUND_STATUSES[status as RefundStatus] ?? status;
}

export function refundKindLabel(kind: string): string {
  return REFUND_KINDS[kind as RefundKind] ?? kind;
}

/** Counted against what a payment can still give back: every refund but a failed one. */
export function refundCounts(status: string): boolean {
  return status !== 'failed';
}
