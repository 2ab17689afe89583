// The price difference (补差价): its states, labels and limits, shared by the
// server, the customer's order detail and the back office's panel.
// Rules: docs/order-rules.md, "Price difference".

export const PRICE_DIFFERENCE_STATUSES = { open: '待支付', paid: '已支付', cancelled: '已取消' } as const;
export type PriceDifferenceStatus = keyof typeof PRICE_DIFFERENCE_STATUSES;
export const PRICE_DIFFERENCE_STATUS_VALUES = Object.keys(PRICE_DIFFERENCE_STATUSES) as [PriceDifferenceStatus, ...PriceDifferenceStatus[]];

export const PRICE_DIFFERENCE_LIMITS = {
  /** cents: ¥100,000 */
  maxAmount: 10_000_000,
  reasonMinLength: 2,
  reasonMaxLength: 200,
} as const;

/** The anchor of the order detail's repay-price-difference section (the notice and the card link to it). */
export const PRICE_DIFFERENCE_ANCHOR = 'repay-price-difference';

export function priceDifferenceStatusLabel(status: string): string {
  return PRICE_DIFFERENCE_STATUSES[status as PriceDifferenceStatus] ?? status;
}

/** What a payment pays: the order itself, or one of its price differences. */
export function paymentKindLabel(priceDifferenceId: number | null): string {
  return priceDifferenceId === null ? '订单支付' : '补差价';
}
