import { describe, expect, it } from 'vitest';
import type { PaymentQueryResult } from '../../../common/contracts/payment';
import { countdownText, verdictOf } from './payment-model';

const base: PaymentQueryResult = {
  user_order_id: 7,
  order_status: 'pending_payment',
  order_status_label: '待支付',
  step: null,
  order_paid: false,
  paid_at: null,
  payment: {
    out_trade_no: 'YQ1',
    channel: 'wechat',
    channel_label: '微信支付',
    amount: 35_900,
    status: 'pending',
    status_label: '待支付',
    created_at: 0,
    paid_at: null,
    expires_at: 900_000,
    price_difference_id: null,
    scene: 'qr',
  },
  price_difference: null,
};

describe('payment dialog model', () => {
  it('counts down in mm:ss, rounding up, never below zero', () => {
    expect(countdownText(15 * 60_000)).toBe('15:00');
    expect(countdownText(61_001)).toBe('01:02');
    expect(countdownText(1)).toBe('00:01');
    expect(countdownText(0)).toBe('00:00');
    expect(countdownText(-5_000)).toBe('00:00');
  });

  it('moves on once the order is paid, by this payment or another', () => {
    expect(verdictOf({ ...base, order_status: 'processing', order_paid: true, payment: { ...base.payment!, status: 'paid' } })).toEqual({ kind: 'paid' });
    // This code was refunded because another payment paid the order first: still paid.
    expect(verdictOf({ ...base, order_status: 'processing', order_paid: true, payment: { ...base.payment!, status: 'refund_pending' } })).toEqual({
      kind: 'paid',
    });
  });

  it('keeps waiting on a pending code, and notices a closed one', () => {
    expect(verdictOf(base)).toEqual({ kind: 'waiting', closed: false });
    expect(verdictOf({ ...base, payment: { ...base.payment!, status: 'closed' } })).toEqual({ kind: 'waiting', closed: true });
  });

  it('stops on a cancelled order, and says the money goes back when it arrived anyway', () => {
    expect(verdictOf({ ...base, order_status: 'cancelled', order_status_label: '已取消' }).kind).toBe('stopped');
    const refund = verdictOf({ ...base, order_status: 'cancelled', payment: { ...base.payment!, status: 'refund_pending' } });
    expect(refund.kind).toBe('refund');
  });

  it('follows a price difference’s payment by the price difference, not by the (already paid) order', () => {
    const difference: PaymentQueryResult = {
      ...base,
      order_status: 'processing',
      order_status_label: '办理中',
      order_paid: true,
      payment: { ...base.payment!, price_difference_id: 3 },
      price_difference: { price_difference_id: 3, status: 'open', status_label: '待支付' },
    };
    expect(verdictOf(difference)).toEqual({ kind: 'waiting', closed: false });
    expect(verdictOf({ ...difference, payment: { ...difference.payment!, status: 'closed' } })).toEqual({ kind: 'waiting', closed: true });
    expect(
      verdictOf({
        ...difference,
        payment: { ...difference.payment!, status: 'paid' },
        price_difference: { price_difference_id: 3, status: 'paid', status_label: '已支付' },
      }),
    ).toEqual({ kind: 'paid' });
    expect(verdictOf({ ...difference, payment: { ...difference.payment!, status: 'refund_pending' } }).kind).toBe('refund');
    expect(verdictOf({ ...difference, price_difference: { price_difference_id: 3, status: 'cancelled', status_label: '已取消' } })).toMatchObject({
      kind: 'stopped',
    });
  });
});
