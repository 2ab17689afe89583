// Order detail (spec 2.4): the refunds (退款, issue 11) — a refused
// applicant's refund when the product has 拒签退全款, a refund by hand, or the
// full refund of an order closed before submission — each with its amount,
// reason and state (退款中 until the payment company says it arrived, then
// 已退款 with the time). Shown only when there is one. Rules:
// docs/order-rules.md, "Refunds".
import { Tag } from 'antd';
import type { OrderDetail } from '../../../common/contracts/order';
import type { RefundView } from '../../../common/contracts/refund';
import { formatDateTime } from '../../../common/format';
import { REFUND_ANCHOR, type RefundStatus } from '../../../common/refund';
import { DetailSection } from './detail-info-sections';
import { PriceText } from './price-text';

const STATUS_COLORS: Record<RefundView['status'], string> = {
  pending: 'processing',
  processing: 'processing',
  succeeded: 'success',
  failed: 'error',
};

/** Refunds sent (or about to be) whose money has not arrived yet. */
const UNDERWAY: readonly RefundStatus[] = ['pending', 'processing'];

export function RefundSection({ order }: { order: OrderDetail }) {
  const refunds = order.refunds ?? [];
  if (refunds.length === 0) return null;
  const arrived = refunds.filter((refund) => refund.status === 'succeeded').reduce((sum, refund) => sum + refund.amount, 0);
  const underway = refunds.filter((refund) => UNDERWAY.includes(refund.status)).reduce((sum, refund) => sum + refund.amount, 0);
  return (
    <div id={REFUND_ANCHOR} className="order-anchor">
      <DetailSection title="退款信息" testId="order-refunds">
        <dl className="order-amounts">
          <div>
            <dt>已退款</dt>
            <dd>
              <PriceText cents={arrived} strong={underway === 0} testId="order-refunded-total" />
            </dd>
          </div>
          {underway > 0 ? (
            <div>
              <dt>退款中</dt>
              <dd>
                <PriceText cents={underway} strong testId="order-refunding-total" />
              </dd>
            </div>
          ) : null}
        </dl>
        <ul className="order-payments" aria-label="退款记录">
          {refunds.map((refund) => (
            <li key={refund.refund_id} data-testid="order-refund-record" data-status={refund.status}>
              <div>
                <strong>{refund.kind_label}</strong>
                {refund.applicant_name ? ` · ${refund.applicant_name}` : ''} <PriceText cents={refund.amount} />{' '}
                <Tag color={STATUS_COLORS[refund.status]} data-testid="order-refund-status">
                  {refund.status_label}
                </Tag>
              </div>
              <div className="order-muted">原因：{refund.reason}</div>
              <div className="order-muted">
                发起于 {formatDateTime(refund.created_at)}
                {refund.refunded_at ? ` · 到账于 ${formatDateTime(refund.refunded_at)}` : ' · 款项将原路退回您的支付账户'}
              </div>
            </li>
          ))}
        </ul>
      </DetailSection>
    </div>
  );
}
