// Order detail (spec 2.4): the repay-price-difference section (补差价). Shown
// once an operator asked for a price difference: the open one with its
// amount, reason and a pay button that opens the payment dialog for it (the
// same provider, notification and idempotency as the order's payment), and
// the earlier ones with their state. Rules: docs/order-rules.md, "Price difference".
import { Button, Tag } from 'antd';
import { type ComponentType, useState } from 'react';
import type { OrderDetail } from '../../../common/contracts/order';
import type { PriceDifferenceView } from '../../../common/contracts/price-difference';
import { formatDateTime } from '../../../common/format';
import { isProcessing } from '../../../common/order';
import { PRICE_DIFFERENCE_ANCHOR } from '../../../common/price-difference';
import { DetailSection } from './detail-info-sections';
import { PriceText } from './price-text';

/** The payment dialog, handed in by the route (features do not import each other). */
export interface PriceDifferencePaymentSlot {
  userOrderId: number;
  orderNo: string;
  amount: number;
  open: boolean;
  onClose: () => void;
  onPaid: () => void;
  priceDifferenceId?: number;
}

const STATUS_COLORS: Record<PriceDifferenceView['status'], string> = {
  open: 'warning',
  paid: 'success',
  cancelled: 'default',
};

export function PriceDifferenceSection({
  order,
  PaymentDialog,
  onPaid,
}: {
  order: OrderDetail;
  PaymentDialog: ComponentType<PriceDifferencePaymentSlot>;
  onPaid: () => void;
}) {
  const [paying, setPaying] = useState(false);
  if (order.price_differences.length === 0) return null;
  const open = isProcessing(order) ? order.price_differences.find((row) => row.status === 'open') : undefined;
  const earlier = order.price_differences.filter((row) => row !== open);
  return (
    <div id={PRICE_DIFFERENCE_ANCHOR} className="order-anchor">
      <DetailSection title="补差价" testId="order-price-difference">
        {open ? (
          <div className="order-repay" data-testid="price-difference-open">
            <div className="order-repay-main">
              <div className="order-repay-amount">
                需补差价 <PriceText cents={open.amount} strong />
              </div>
              <div className="order-repay-reason">原因：{open.reason}</div>
              <div className="order-muted">发起于 {formatDateTime(open.created_at)}</div>
            </div>
            <Button type="primary" onClick={() => setPaying(true)} data-testid="price-difference-pay">
              支付补差价
            </Button>
            <PaymentDialog
              userOrderId={order.user_order_id}
              orderNo={order.order_no}
              amount={open.amount}
              priceDifferenceId={open.price_difference_id}
              open={paying}
              onClose={() => setPaying(false)}
              onPaid={() => {
                setPaying(false);
                onPaid();
              }}
            />
          </div>
        ) : null}
        {earlier.length > 0 ? (
          <ul className="order-payments" aria-label="补差价记录">
            {earlier.map((row) => (
              <li key={row.price_difference_id} data-testid="price-difference-record">
                <div>
                  <PriceText cents={row.amount} /> <Tag color={STATUS_COLORS[row.status]}>{row.status_label}</Tag>
                </div>
                <div className="order-muted">
                  {row.reason} · 发起于 {formatDateTime(row.created_at)}
                  {row.paid_at ? ` · 支付于 ${formatDateTime(row.paid_at)}` : ''}
                  {row.cancelled_at ? ` · 取消于 ${formatDateTime(row.cancelled_at)}` : ''}
                </div>
              </li>
            ))}
          </ul>
        ) : null}
      </DetailSection>
    </div>
  );
}
