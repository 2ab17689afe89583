// The customer's order detail (order_detail_get) in one read: the order with
// its snapshots, applicants (interview times, file counts, visa dates),
// events and schedule, payments, where a draft resumes, the materials still
// missing, price differences, refunds and visa results — with the version the
// page's next write names and the events the customer may fire now
// (allowed_events, from the lifecycle's table). It sits above every module
// that holds a part of the order, so none of them imports the order back
// (issue 24, decision 0035).
import type { Kysely } from 'kysely';
import type { OrderApplicant, OrderDetail } from '../../../common/contracts/order.ts';
import { ORDER_EVENTS, chinaDate, draftResumesAt, isDraft } from '../../../common/order.ts';
import { passportValidityWarning } from '../../../common/passport.ts';
import { PAYMENT_CHANNELS, PAYMENT_STATUSES } from '../../../common/ordering.ts';
import type { Database } from '../../db/schema.ts';
import type { Customer } from '../../platform/principal.ts';
import { applicantInterviews } from '../interview/order-interview.ts';
import { missingMaterials } from '../material/material-progress.ts';
import { allowedEvents, createOrderLifecycle } from '../order/lifecycle.ts';
import { createOrderReads } from '../order/order-reads.ts';
import { orderSchedule } from '../order/schedule.ts';
import { priceDifferencesOf } from '../price-difference/price-difference-records.ts';
import { refundsOf } from '../refund/refund-records.ts';
import { visaResultsOf } from '../result/result-records.ts';
import { applicantSummary, summaryOf } from './order-summary.ts';

export function createOrderDetail(db: Kysely<Database>, deps: { now: () => number }) {
  const orders = createOrderReads(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const { now } = deps;

  return async function detail(customer: Customer, userOrderId: number): Promise<OrderDetail> {
    const order = await lifecycle.current(customer, userOrderId);
    const at = now();
    const [applicants, events, interviewOf, fileCounts, payments, missing] = await Promise.all([
      orders.applicants([userOrderId]),
      orders.events(userOrderId),
      applicantInterviews(db, [userOrderId]),
      orders.fileCounts(userOrderId),
      orders.payments(userOrderId),
      // Only a draft still collects its materials.
      isDraft(order) ? missingMaterials(db, userOrderId) : Promise.resolve([]),
    ]);
    const differences = await priceDifferencesOf(db, userOrderId);
    // Which colleague did each customer action (issue 29): the names of the enterprise's accounts in the events.
    const colleagueIds = [...new Set(events.flatMap((row) => (row.actor === 'customer' && row.actor_id !== null ? [row.actor_id] : [])))];
    const colleagues = colleagueIds.length
      ? await db.selectFrom('account').select(['id', 'name']).where('id', 'in', colleagueIds).where('enterprise_id', '=', customer.enterpriseId).execute()
      : [];
    const colleagueName = new Map(colleagues.map((row) => [row.id, row.name]));
    const visaResults = await visaResultsOf(db, userOrderId);
    const visaDates = new Map(visaResults.map((v) => [v.applicant_id, { valid_from: v.valid_from, valid_to: v.valid_to }]));
    const filesOf = new Map(fileCounts.map((row) => [row.applicant_id, Number(row.count)]));
    const mailsPaper = await orders.mailsPaper(order.user_order_id, [...new Set(applicants.map((row) => row.identity_id))]);
    return {
      ...summaryOf(order, chinaDate(at)),
      visa_country_id: order.visa_country_id,
      need_interview: order.need_interview,
      reject_refund: order.reject_refund,
      updated_at: order.updated_at,
      cancelled_at: order.cancelled_at,
      cancel_reason: order.cancel_reason,
      version: order.version,
      allowed_events: allowedEvents(order, customer, at),
      applicants: applicants.map((row): OrderApplicant => {
        return {
          ...applicantSummary(row, visaDates),
          mobile_phone: row.mobile_phone,
          email: row.email,
          passport_no: row.passport_no,
          passport_expiry: row.passport_expiry,
          passport_warning: passportValidityWarning(row.passport_expiry, { departure: order.departure_date, stayDays: order.stay_days }),
          insured: row.insured,
          interview: interviewOf.get(row.applicant_id) ?? null,
          material_file_count: filesOf.get(row.applicant_id) ?? 0,
        };
      }),
      events: events.map((row) => ({
        event: row.event,
        event_label: ORDER_EVENTS[row.event] ?? row.event,
        actor: row.actor,
        actor_name: row.actor === 'customer' && row.actor_id !== null ? (colleagueName.get(row.actor_id) ?? null) : null,
        from_status: row.from_status,
        to_status: row.to_status,
        created_at: row.created_at,
      })),
      schedule: orderSchedule(events, { status: order.status, mailsPaper, needInterview: order.need_interview }),
      effect_date: order.effect_date,
      product_amount: order.product_amount,
      insurance_amount: order.insurance_amount,
      discount_amount: order.discount_amount,
      insurance: order.insurance_snapshot,
      return_address: order.return_address,
      payments: payments.map((row) => ({
        out_trade_no: row.out_trade_no,
        channel: row.channel,
        channel_label: PAYMENT_CHANNELS[row.channel],
        amount: row.amount,
        status: row.status,
        status_label: PAYMENT_STATUSES[row.status],
        created_at: row.created_at,
        paid_at: row.paid_at,
        price_difference_id: row.price_difference_id,
      })),
      confirmed_at: order.confirmed_at,
      paid_at: order.paid_at,
      ordering_step: draftResumesAt(order, {
        materialsMissing: missing.length > 0,
        interviewsMissing: applicants.some((applicant) => applicant.interview_slot_id === null),
      }),
      missing_materials: missing,
      price_differences: differences,
      refunds: await refundsOf(db, userOrderId),
      price_difference_due: order.price_difference_due,
      price_difference_paid: order.price_difference_paid,
      paid_total: payments.filter((row) => row.status === 'paid').reduce((sum, row) => sum + row.amount, 0),
      visa_results: visaResults,
    };
  };
}
