// The visa-reject-reason dialog (spec 2.1, /order/instances/visa-reject-reason-dialog):
// for a refused applicant, the embassy's reason; what happens to the money —
// with 拒签退全款 the refund of this applicant, its amount and state (the
// order's refund of kind rejection for this applicant), without it that the
// fee is not refundable; and what the customer can do next.
import { Button, Tag } from 'antd';
import { formatDateTime } from '../../../common/format';
import { AppDialog } from '../../components/app-dialog';
import { PriceText } from './price-text';
import './visa.css';

export interface VisaRejectReasonDialogProps {
  open: boolean;
  onClose: () => void;
  applicantName: string;
  /** The refusal reason text (common reasons and the operator's note). */
  reason: string;
  /** The order's product has 拒签退全款. */
  rejectRefund: boolean;
  /** This applicant's refund, when there is one. */
  refund: { amount: number; status_label: string; refunded_at: number | null } | null;
  /** The embassy's letter, when the operator attached it. */
  letterUrl?: string | null;
}

export function VisaRejectReasonDialog({ open, onClose, applicantName, reason, rejectRefund, refund, letterUrl = null }: VisaRejectReasonDialogProps) {
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title="拒签原因"
      subtitle={applicantName}
      width={520}
      footer={
        <div className="visa-dialog-footer">
          <Button type="primary" onClick={onClose}>
            我知道了
          </Button>
        </div>
      }
    >
      <div className="visa-reject" data-testid="visa-reject-reason-dialog">
        <section>
          <h3 className="visa-reject-title">使馆给出的原因</h3>
          <p className="visa-reject-reason" data-testid="visa-reject-reason">
            {reason || '使馆未说明原因'}
          </p>
          {letterUrl ? (
            <a href={letterUrl} target="_blank" rel="noreferrer" data-testid="visa-reject-letter">
              查看使馆拒签信
            </a>
          ) : null}
        </section>
        <section data-testid="visa-reject-money">
          <h3 className="visa-reject-title">费用</h3>
          {rejectRefund ? (
            refund ? (
              <p>
                该申请人的费用将全额退回：退款 <PriceText cents={refund.amount} strong />{' '}
                <Tag color={refund.refunded_at ? 'success' : 'processing'} data-testid="visa-reject-refund-status">
                  {refund.status_label}
                </Tag>
                {refund.refunded_at ? <span className="order-muted">（{formatDateTime(refund.refunded_at)} 已退回原支付账户）</span> : null}
              </p>
            ) : (
              <p>该产品支持拒签退全款：该申请人的费用将原路退回，退款处理中，到账后会通知您。</p>
            )
          ) : (
            <p>该产品不支持拒签退款：签证费和服务费已用于办理，拒签后不予退还。</p>
          )}
        </section>
        <section>
          <h3 className="visa-reject-title">接下来可以怎么做</h3>
          <ul className="visa-reject-next">
            <li>根据拒签原因补充或更换材料（如资金证明、在职证明、行程安排）后可以重新申请。</li>
            <li>部分国家拒签后需间隔一段时间才能再次递交，重新申请前请咨询客服。</li>
            <li>如对结果有疑问，可联系您的签证顾问或在线客服，我们会协助分析原因。</li>
          </ul>
        </section>
      </div>
    </AppDialog>
  );
}
