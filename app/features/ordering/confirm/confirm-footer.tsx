// The fixed footer of the confirm page: the price text and the one action
// ('确认并支付' for a draft, '去支付' once confirmed).
import { Button } from 'antd';
import { formatPrice } from '../../../../common/format';
import { type PriceParts, priceText } from './confirm-model';

export interface ConfirmFooterProps {
  parts: PriceParts;
  actionLabel: string;
  onAction: () => void;
  disabled?: boolean;
  loading?: boolean;
  note?: string | null;
}

export function ConfirmFooter({ parts, actionLabel, onAction, disabled = false, loading = false, note }: ConfirmFooterProps) {
  return (
    <footer className="ordering-footer oc-footer" data-testid="confirm-footer">
      <div className="ordering-footer-inner oc-footer-inner">
        <div className="oc-footer-price">
          <div className="oc-footer-total">
            合计 <strong data-testid="confirm-total">{formatPrice(parts.totalAmount)}</strong>
          </div>
          <div className="oc-footer-text" data-testid="confirm-price-text">
            {priceText(parts)}
          </div>
          {note ? <div className="oc-footer-note">{note}</div> : null}
        </div>
        <Button type="primary" size="large" onClick={onAction} disabled={disabled} loading={loading} className="oc-footer-button" data-testid="confirm-submit">
          {actionLabel}
        </Button>
      </div>
    </footer>
  );
}
