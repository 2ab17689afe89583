// 旅行保险 (spec 2.5): the trip's return date (the cover is priced for it),
// the insurance days, the plans with their items and per-person cost, the
// insured applicants and the 《保险条款》 checkbox. Nothing is preselected:
// buying insurance is the customer's explicit choice.
import { InfoCircleOutlined } from '@ant-design/icons';
import { Checkbox, DatePicker, InputNumber } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { InsurancePlanListResult, InsurancePlanView } from '../../../../common/contracts/insurance';
import type { OrderApplicant, InsuranceSnapshot } from '../../../../common/contracts/order';
import { formatPrice } from '../../../../common/format';
import { insuranceEndDate, SCHENGEN_COUNTRIES, TRIP_DAYS_MAX, tripReturnDate } from '../../../../common/insurance';
import { NoPlanCard, PlanCard, UserInsuranceCard } from './insurance-cards';
import { TermsDialog, type TermsPlan } from './terms-dialog';

export interface InsuranceChoice {
  planId: number | null;
  days: number;
  insured: number[];
  agreed: boolean;
}

export interface InsuranceSectionProps {
  /** The destination (the order's country): Schengen states have an insurance rule of their own. */
  country: string;
  offer: InsurancePlanListResult;
  /** Why the return date asked for could not price the cover. */
  tripProblem?: string | null;
  /** The customer gave a return date ('YYYY-MM-DD'): the offer is priced again for it. */
  onReturnDateChange: (returnDate: string) => void;
  applicants: OrderApplicant[];
  choice: InsuranceChoice;
  onChange: (choice: InsuranceChoice) => void;
}

/** 回程日期: the trip's end, from which the cover is priced; until answered, an assumed week. */
function TripQuestion({ offer, problem, onChange }: { offer: InsurancePlanListResult; problem: string | null; onChange: (returnDate: string) => void }) {
  const first = offer.start_date;
  const last = tripReturnDate(offer.start_date, TRIP_DAYS_MAX);
  return (
    <div className="oc-trip" data-testid="insurance-trip">
      <label htmlFor="oc-return-date" className="oc-days-label">
        回程日期
      </label>
      <DatePicker
        id="oc-return-date"
        value={dayjs(offer.return_date)}
        allowClear={false}
        disabledDate={(day) => {
          const text = day.format('YYYY-MM-DD');
          return text < first || text > last;
        }}
        onChange={(day) => {
          if (day) onChange(day.format('YYYY-MM-DD'));
        }}
        aria-describedby="oc-trip-note"
        data-testid="insurance-return-date"
      />
      <span className="oc-muted" id="oc-trip-note" data-testid="insurance-trip-note">
        行程 {offer.trip_days} 天（{offer.start_date} 出发）
        {offer.trip_assumed ? '，尚未填写回程日期，暂按此估算保费' : '，保费按此行程计算'}
      </span>
      {problem ? (
        <p className="oc-warn" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

function SectionTitle() {
  return (
    <div className="oc-section-head">
      <h2 className="oc-section-title" id="oc-insurance-title">
        旅行保险
      </h2>
    </div>
  );
}

export function InsuranceSection({ country, offer, tripProblem = null, onReturnDateChange, applicants, choice, onChange }: InsuranceSectionProps) {
  const [termsPlan, setTermsPlan] = useState<TermsPlan | null>(null);
  const plan = offer.plans.find((candidate) => candidate.insurance_plan_id === choice.planId) ?? null;

  const choosePlan = (next: InsurancePlanView | null) => {
    if (!next) return onChange({ ...choice, planId: null });
    // Days follow the trip, within what the plan allows; everyone is insured unless told otherwise.
    const days = Math.min(next.max_days, Math.max(next.min_days, choice.planId === null ? next.suggested_days : choice.days));
    onChange({
      ...choice,
      planId: next.insurance_plan_id,
      days,
      insured: choice.planId === null && choice.insured.length === 0 ? applicants.map((a) => a.applicant_id) : choice.insured,
    });
  };

  const toggle = (applicantId: number) => {
    const insured = choice.insured.includes(applicantId) ? choice.insured.filter((id) => id !== applicantId) : [...choice.insured, applicantId];
    onChange({ ...choice, insured });
  };

  return (
    <section className="oc-section" aria-labelledby="oc-insurance-title" data-testid="confirm-insurance">
      <SectionTitle />
      <p className="oc-hint" data-testid="insurance-hint">
        <InfoCircleOutlined />{' '}
        {SCHENGEN_COUNTRIES.has(country)
          ? `${country}是申根国家：签证要求旅行医疗保险保额不低于 3 万欧元、覆盖全部申根国家和整个行程，以下方案均满足要求。`
          : '出境旅行建议购买含境外医疗和紧急救援的旅行保险。'}
        保障自出发日期 {offer.start_date} 起，可以不购买或自行投保。
      </p>
      <TripQuestion offer={offer} problem={tripProblem} onChange={onReturnDateChange} />
      <div className="oc-plans" role="radiogroup" aria-label="保险方案">
        <NoPlanCard selected={plan === null} onSelect={() => choosePlan(null)} />
        {offer.plans.map((candidate) => (
          <PlanCard
            key={candidate.insurance_plan_id}
            plan={candidate}
            selected={candidate.insurance_plan_id === choice.planId}
            onSelect={() => choosePlan(candidate)}
          />
        ))}
      </div>
      {plan ? (
        <div className="oc-insurance-detail">
          <div className="oc-days">
            <label htmlFor="oc-insurance-days" className="oc-days-label">
              保险天数
            </label>
            <InputNumber
              id="oc-insurance-days"
              min={plan.min_days}
              max={plan.max_days}
              precision={0}
              value={choice.days}
              onChange={(value) => onChange({ ...choice, days: typeof value === 'number' ? value : plan.min_days })}
              suffix="天"
              style={{ width: 120 }}
              data-testid="insurance-days"
            />
            <span className="oc-muted">
              保障期间 {offer.start_date} 至 {insuranceEndDate(offer.start_date, choice.days)}（行程 {offer.trip_days} 天，本方案可保 {plan.min_days}–
              {plan.max_days} 天）
            </span>
          </div>
          <h3 className="oc-subtitle">
            被保险人{' '}
            <span className="oc-muted">
              （已选 {choice.insured.length} / {applicants.length} 位）
            </span>
          </h3>
          <div className="oc-persons">
            {applicants.map((applicant) => (
              <UserInsuranceCard
                key={applicant.applicant_id}
                applicant={applicant}
                insured={choice.insured.includes(applicant.applicant_id)}
                onToggle={() => toggle(applicant.applicant_id)}
              />
            ))}
          </div>
          {choice.insured.length === 0 ? <p className="oc-warn">请至少选择一位被保险人，或选择“不购买保险”</p> : null}
          <div className="oc-plan-total" data-testid="insurance-total">
            保费 {formatPrice(plan.price_per_day)}/人/天 × {choice.days} 天 = 每人{' '}
            <strong data-testid="insurance-per-person">{formatPrice(plan.price_per_day * choice.days)}</strong>，× {choice.insured.length} 人 ={' '}
            <strong>{formatPrice(plan.price_per_day * choice.days * choice.insured.length)}</strong>
          </div>
          <Checkbox
            checked={choice.agreed}
            onChange={(event) => onChange({ ...choice, agreed: event.target.checked })}
            data-testid="insurance-protocol"
            className="oc-protocol"
          >
            我已阅读并同意
          </Checkbox>
          <button type="button" className="oc-link" onClick={() => setTermsPlan(plan)} data-testid="insurance-terms-link">
            《保险条款》
          </button>
        </div>
      ) : null}
      <TermsDialog
        plan={termsPlan}
        onClose={() => setTermsPlan(null)}
        onAgree={() => {
          onChange({ ...choice, agreed: true });
          setTermsPlan(null);
        }}
      />
    </section>
  );
}

/** A confirmed order's insurance, as kept when it was confirmed. */
export function InsuranceSummary({ insurance, applicants }: { insurance: InsuranceSnapshot | null; applicants: OrderApplicant[] }) {
  const [termsOpen, setTermsOpen] = useState(false);
  return (
    <section className="oc-section" aria-labelledby="oc-insurance-title" data-testid="confirm-insurance">
      <SectionTitle />
      {insurance ? (
        <>
          <div className="oc-plan oc-plan-selected oc-plan-static">
            <div className="oc-plan-head">
              <div className="oc-plan-names">
                <div className="oc-plan-name">{insurance.name}</div>
                <div className="oc-muted oc-plan-company">{insurance.company}</div>
              </div>
              <div className="oc-plan-price">
                <strong>{formatPrice(insurance.price_per_day)}</strong>
                <span className="oc-muted">/人/天</span>
              </div>
            </div>
            <ul className="oc-plan-items">
              {insurance.items.map((item) => (
                <li key={item.name}>
                  <span>{item.name}</span>
                  <strong>{item.amount}</strong>
                </li>
              ))}
            </ul>
          </div>
          <p className="oc-muted">
            保障期间 {insurance.start_date} 至 {insurance.end_date}，共 {insurance.days} 天 ·{' '}
            <button type="button" className="oc-link" onClick={() => setTermsOpen(true)}>
              《保险条款》
            </button>
          </p>
          <div className="oc-persons">
            {applicants.map((applicant) => (
              <UserInsuranceCard key={applicant.applicant_id} applicant={applicant} insured={applicant.insured} disabled />
            ))}
          </div>
          <div className="oc-plan-total">
            保费 {formatPrice(insurance.price_per_day)}/人/天 × {insurance.days} 天 × {insurance.insured_count} 人 ={' '}
            <strong>{formatPrice(insurance.amount)}</strong>
          </div>
          <TermsDialog plan={termsOpen ? { ...insurance, min_days: insurance.days, max_days: insurance.days } : null} onClose={() => setTermsOpen(false)} />
        </>
      ) : (
        <p className="oc-muted">未购买保险</p>
      )}
    </section>
  );
}
