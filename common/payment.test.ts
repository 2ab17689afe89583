import { describe, expect, it } from 'vitest';
import { withAbandonedClosed } from './payment.ts';

describe('withAbandonedClosed', () => {
  it('shows an attempt left open beside the paid one as 已关闭, per order and per price difference', () => {
    const shown = withAbandonedClosed([
      { out_trade_no: 'A', status: 'pending' as const, price_difference_id: null }, // the WeChat QR left open
      { out_trade_no: 'B', status: 'paid' as const, price_difference_id: null }, // paid by Alipay
      { out_trade_no: 'C', status: 'pending' as const, price_difference_id: 7 }, // a price difference still to pay
    ]);
    expect(shown.map((p) => p.status)).toEqual(['closed', 'paid', 'pending']);
  });

  it('leaves an unpaid order’s attempts as they are', () => {
    const rows = [{ status: 'pending' as const, price_difference_id: null }];
    expect(withAbandonedClosed(rows)).toEqual(rows);
  });
});
