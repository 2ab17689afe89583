// Which days an order may book, and what a consulate offers on a day. A day
// no supervisor has given slots to (产品管理 · 面试时段, catalogue-admin's
// slot-admin) gets the standard plan the first time it is asked for, the same
// every time (capacity from the district id), so that two instances
// generating the same day insert the same rows.
import { INTERVIEW_LIMITS, INTERVIEW_TIMES } from '../../../common/interview.ts';
import { addDays } from '../../../common/order.ts';

export interface BookingWindow {
  from: string;
  to: string;
}

/**
 * From tomorrow (or the order date when later) to the day before departure,
 * at most INTERVIEW_LIMITS.maxDaysAhead days after today; null when empty.
 */
export function bookingWindow(today: string, orderDate: string, departureDate: string): BookingWindow | null {
  const tomorrow = addDays(today, 1);
  const from = orderDate > tomorrow ? orderDate : tomorrow;
  const lastBeforeDeparture = addDays(departureDate, -1);
  const horizon = addDays(today, INTERVIEW_LIMITS.maxDaysAhead);
  const to = lastBeforeDeparture < horizon ? lastBeforeDeparture : horizon;
  return from <= to ? { from, to } : null;
}

export function inWindow(window: BookingWindow | null, date: string): boolean {
  return window !== null && date >= window.from && date <= window.to;
}

/** Places per half hour: 3–6, fixed per district (a small consulate takes fewer). */
export function slotCapacity(consularDistrictId: number): number {
  // FNV-1a over the id's digits: neighbouring ids get unrelated capacities.
  let hash = 0x811c9dc5;
  for (const char of String(consularDistrictId)) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return 3 + (hash % 4);
}

export function slotRows(consularDistrictId: number, date: string) {
  const capacity = slotCapacity(consularDistrictId);
  return INTERVIEW_TIMES.map((time) => ({
    consular_district_id: consularDistrictId,
    slot_date: date,
    start_time: time.start,
    end_time: time.end,
    capacity,
    booked: 0,
  }));
}
