// The price difference's part in the order's actions and 需要处理 (pure rules of common/order.ts).
import { describe, expect, it } from 'vitest';
import { needsAction, orderActions } from './order.ts';
import { paymentKindLabel, priceDifferenceStatusLabel } from './price-difference.ts';

const today = '2026-12-01';
const processing = { status: 'processing', step: 'submitted', departure_date: '2026-12-20' };

describe('price difference in the order list', () => {
  it('an open price difference of a processing order is 需要处理 with the 补差价 action, in any step', () => {
    expect(needsAction(processing, today)).toBe(false);
    expect(orderActions(processing, today)).toEqual([]);
    const owing = { ...processing, price_difference_due: 5_000 };
    expect(needsAction(owing, today)).toBe(true);
    expect(orderActions(owing, today)).toEqual(['pay_price_difference']);
    expect(orderActions({ ...owing, step: 'page_check' }, today)).toEqual(['confirm_page_check', 'pay_price_difference']);
  });

  it('only while processing: a completed or refunded order offers nothing to pay', () => {
    for (const status of ['completed', 'refunded', 'cancelled']) {
      const order = { ...processing, status, step: null, price_difference_due: 5_000 };
      expect(needsAction(order, today)).toBe(false);
      expect(orderActions(order, today)).not.toContain('pay_price_difference');
    }
  });

  it('labels', () => {
    expect(priceDifferenceStatusLabel('open')).toBe('待支付');
    expect(priceDifferenceStatusLabel('paid')).toBe('已支付');
    expect(paymentKindLabel(null)).toBe('订单支付');
    expect(paymentKindLabel(3)).toBe('补差价');
  });
});
