// 《保险条款》 of one plan, from its own figures (common/insurance.ts).
import { Button } from 'antd';
import type { InsuranceItem } from '../../../../common/contracts/order';
import { insuranceTerms } from '../../../../common/insurance';
import { AppDialog } from '../../../components/app-dialog';

export interface TermsPlan {
  name: string;
  company: string;
  min_days: number;
  max_days: number;
  items: InsuranceItem[];
}

export function TermsDialog({ plan, onClose, onAgree }: { plan: TermsPlan | null; onClose: () => void; onAgree?: () => void }) {
  return (
    <AppDialog
      open={plan !== null}
      onClose={onClose}
      title="保险条款"
      subtitle={plan ? `${plan.name} · ${plan.company}` : undefined}
      width={640}
      footer={
        onAgree ? (
          <Button type="primary" onClick={onAgree} data-testid="terms-agree">
            我已阅读并同意
          </Button>
        ) : (
          <Button onClick={onClose}>关闭</Button>
        )
      }
    >
      {/* Focusable: on a phone the terms scroll inside the dialog, and the keyboard must reach them (axe scrollable-region-focusable). */}
      <div className="oc-terms" data-testid="terms-text" tabIndex={0} role="region" aria-label="保险条款全文">
        {plan ? insuranceTerms(plan).map((paragraph) => <p key={paragraph.slice(0, 6)}>{paragraph}</p>) : null}
      </div>
    </AppDialog>
  );
}
