// The back office's service levels: how many of China's working days each
// processing step may take before it is overdue, when a step entered at a
// given instant is due, and when an order's departure date is at risk. The
// working days are China's (server/platform/china-calendar.ts: weekdays
// and make-up working weekends, not public holidays or days in lieu). The
// rules are in docs/order-rules.md ("Work queue and service levels").
import { addDays, chinaDate, isProcessing, type OrderStep, PRE_SUBMISSION_STEPS, stepIs, workingDaysBetween } from '../../../common/order.ts';
import { isChinaWorkingDay } from '../../platform/china-calendar.ts';

/**
 * Working days per step; 'product' = the product's processing time (need_days);
 * null = no due time (the interview date or the courier decides).
 */
export const STEP_SLA: Readonly<Record<OrderStep, number | 'product' | null>> = {
  material_review: 1,
  reupload_needed: 3,
  awaiting_mail: 5,
  page_check: 2,
  // Publishing every notice, the applicants' appointments and the submit: a fixed 10 working days (docs/order-rules.md).
  interview: 10,
  submitted: 'product',
  returning: null,
};

/** A day our staff (and customers' offices) work in mainland China. */
export { isChinaWorkingDay };

const CHINA_OFFSET_MS = 8 * 3_600_000;

/** 00:00 China time of a 'YYYY-MM-DD'. */
function chinaMidnight(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) - CHINA_OFFSET_MS;
}

/**
 * Due at the end (24:00 China time) of the N-th working day after the day the
 * step was entered: entered Tuesday 10:00 with 1 working day → due Wednesday
 * 24:00; entered Friday → due Monday 24:00 (or later across a holiday).
 */
export function dueAfterWorkingDays(enteredAt: number, workingDays: number): number {
  let date = chinaDate(enteredAt);
  let counted = 0;
  while (counted < workingDays) {
    date = addDays(date, 1);
    if (isChinaWorkingDay(date)) counted += 1;
  }
  return chinaMidnight(addDays(date, 1));
}

/** The due time of a step entered at `enteredAt`, or null when the step has none. */
export function stepDueAt(step: OrderStep | null, enteredAt: number, productNeedDays: number): number | null {
  if (step === null) return null;
  const sla = STEP_SLA[step];
  if (sla === null) return null;
  return dueAfterWorkingDays(enteredAt, sla === 'product' ? Math.max(productNeedDays, 1) : sla);
}

/**
 * Departure at risk: fewer working days are left before the departure date
 * than the product's processing still needs. Before submission the whole
 * processing time is still needed; once submitted, what is left of it.
 */
export function departureAtRisk(
  order: { status: string; step: OrderStep | null; departure_date: string; step_entered_at: number | null },
  productNeedDays: number,
  now: number,
): boolean {
  return departureRisk(order, productNeedDays, now) !== null;
}

/**
 * The figures behind departureAtRisk (the reminders tell them): the working
 * days left before the departure date and those the processing still needs;
 * null when the departure is not at risk.
 */
export function departureRisk(
  order: { status: string; step: OrderStep | null; departure_date: string; step_entered_at: number | null },
  productNeedDays: number,
  now: number,
): { daysLeft: number; daysNeeded: number } | null {
  if (!isProcessing(order) || order.step === null) return null;
  const today = chinaDate(now);
  let remaining = 0;
  if (PRE_SUBMISSION_STEPS.includes(order.step)) remaining = productNeedDays;
  else if (stepIs(order, 'submitted')) {
    const since = order.step_entered_at === null ? 0 : workingDaysBetween(chinaDate(order.step_entered_at), today, isChinaWorkingDay);
    remaining = Math.max(0, productNeedDays - since);
  }
  if (remaining === 0) return null;
  if (order.departure_date <= today) return { daysLeft: 0, daysNeeded: remaining };
  const daysLeft = workingDaysBetween(today, order.departure_date, isChinaWorkingDay);
  return daysLeft < remaining ? { daysLeft, daysNeeded: remaining } : null;
}
