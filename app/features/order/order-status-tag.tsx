// The order's status tag, with the processing step when there is one
// (办理中 · 资料审核中): one look tells what the order is waiting for.
import { Tag } from 'antd';
import type { OrderStatus } from '../../../common/order';

const STATUS_COLORS: Record<OrderStatus, string> = {
  draft: 'orange',
  pending_payment: 'warning',
  processing: 'processing',
  completed: 'success',
  cancelled: 'default',
  refunded: 'default',
};

export function OrderStatusTag({ status, statusLabel, stepLabel }: { status: OrderStatus; statusLabel: string; stepLabel: string | null }) {
  return (
    <Tag color={STATUS_COLORS[status] ?? 'default'} className="order-status-tag" data-testid="order-status" data-status={status}>
      {stepLabel ? `${statusLabel} · ${stepLabel}` : statusLabel}
    </Tag>
  );
}
