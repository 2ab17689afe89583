// The insurance section's cards: a plan card (what a plan covers and costs)
// and a user insurance card (one applicant, insured or not).
import { CheckCircleFilled, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import type { InsurancePlanView } from '../../../../common/contracts/insurance';
import type { OrderApplicant } from '../../../../common/contracts/order';
import { formatPrice } from '../../../../common/format';

export function PlanCard({ plan, selected, onSelect }: { plan: InsurancePlanView; selected: boolean; onSelect: () => void }) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={selected}
      className={selected ? 'oc-plan oc-plan-selected' : 'oc-plan'}
      onClick={onSelect}
      data-testid="insurance-plan"
    >
      <div className="oc-plan-head">
        <SafetyCertificateOutlined className="oc-plan-icon" />
        <div className="oc-plan-names">
          <div className="oc-plan-name">{plan.name}</div>
          <div className="oc-muted oc-plan-company">{plan.company}</div>
        </div>
        <div className="oc-plan-price">
          <strong>{formatPrice(plan.price_per_day)}</strong>
          <span className="oc-muted">/人/天</span>
        </div>
        {selected ? <CheckCircleFilled className="oc-check" /> : null}
      </div>
      <div className="oc-plan-desc">{plan.description}</div>
      <ul className="oc-plan-items">
        {plan.items.map((item) => (
          <li key={item.name}>
            <span>{item.name}</span>
            <strong>{item.amount}</strong>
          </li>
        ))}
      </ul>
      <div className="oc-plan-range">
        <span className="oc-plan-person" data-testid="insurance-plan-per-person">
          每人 <strong>{formatPrice(plan.per_person_amount)}</strong>（{plan.suggested_days} 天）
        </span>
        <span className="oc-muted">
          可保 {plan.min_days}–{plan.max_days} 天
        </span>
      </div>
    </button>
  );
}

export function NoPlanCard({ selected, onSelect }: { selected: boolean; onSelect: () => void }) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={selected}
      className={selected ? 'oc-plan oc-plan-none oc-plan-selected' : 'oc-plan oc-plan-none'}
      onClick={onSelect}
      data-testid="insurance-none"
    >
      <span className={selected ? 'oc-radio oc-radio-on' : 'oc-radio'} aria-hidden="true" />
      <span className="oc-plan-name">不购买保险</span>
      <span className="oc-muted">已自行投保，或稍后自行购买</span>
    </button>
  );
}

export function UserInsuranceCard({
  applicant,
  insured,
  onToggle,
  disabled = false,
}: {
  applicant: OrderApplicant;
  insured: boolean;
  onToggle?: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      role="checkbox"
      aria-checked={insured}
      className={insured ? 'oc-person oc-person-on' : 'oc-person'}
      onClick={onToggle}
      disabled={disabled}
      data-testid="insured-applicant"
    >
      <UserOutlined className="oc-person-icon" />
      <span className="oc-person-name">{applicant.name}</span>
      <span className="oc-muted oc-person-identity">{applicant.identity_label}</span>
      <span className={insured ? 'oc-person-state oc-person-state-on' : 'oc-person-state'}>{insured ? '投保' : '不投保'}</span>
    </button>
  );
}
