// The parts of an order both customer reads show (the list's card, the top of
// the detail): the order's summary with its actions, and each applicant's line.
import type { OrderApplicantSummary, OrderSummary } from '../../../common/contracts/order.ts';
import {
  APPLICANT_IDENTITIES,
  APPLICANT_STATUSES,
  type ApplicantStatus,
  isDeparturePast,
  needsAction,
  orderActions,
  statusLabel,
  stepLabel,
} from '../../../common/order.ts';
import type { OrderRow } from '../order/order-reads.ts';

/** An applicant's visa validity, by applicant id (the result module's visa dates). */
export type VisaDates = Map<number, { valid_from: string | null; valid_to: string | null }>;

export function applicantSummary(
  row: { applicant_id: number; name: string; identity_id: number; status: ApplicantStatus },
  visaDates?: VisaDates,
): OrderApplicantSummary {
  const dates = visaDates?.get(row.applicant_id);
  return {
    visa_valid_from: dates?.valid_from ?? null,
    visa_valid_to: dates?.valid_to ?? null,
    applicant_id: row.applicant_id,
    name: row.name,
    identity_id: row.identity_id,
    identity_label: APPLICANT_IDENTITIES[row.identity_id as keyof typeof APPLICANT_IDENTITIES] ?? '',
    status: row.status,
    status_label: APPLICANT_STATUSES[row.status],
  };
}

export function summaryOf(row: OrderRow, today: string): Omit<OrderSummary, 'applicants'> {
  return {
    user_order_id: row.user_order_id,
    order_no: row.order_no,
    group_name: row.group_name,
    status: row.status,
    status_label: statusLabel(row.status),
    step: row.step,
    step_label: stepLabel(row.step),
    visa_product_id: row.visa_product_id,
    product_title: row.product_title,
    country: row.country,
    visa_type: row.visa_type,
    consular_district: row.consular_district_id ? { consular_district_id: row.consular_district_id, name: row.consular_district_name ?? '' } : null,
    departure_date: row.departure_date,
    order_date: row.order_date,
    unit_price: row.unit_price,
    applicant_count: row.applicant_count,
    total_amount: row.total_amount,
    created_at: row.created_at,
    expires_at: row.expires_at,
    departure_date_past: isDeparturePast(row, today),
    needs_action: needsAction(row, today),
    actions: orderActions(row, today),
  };
}
