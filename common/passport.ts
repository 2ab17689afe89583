// How long a passport must last for a visa application (issue 28): most
// consulates refuse a passport that runs out less than six months after the
// traveller leaves their country. The trip ends on the return date when the
// order has one, else on the departure date plus the visa's stay (the
// product's stay_days, both days counted; a month when the stay is
// open-ended, stay_days 0, as the insurance's trip does). The one rule, used
// by the create-order form (passport-scan), the confirm page and the order
// detail (order_detail_get's passport_warning) and the operator's workbench.
// docs/order-rules.md "Passport validity".
import { tripDays, tripReturnDate } from './insurance.ts';

export const PASSPORT_VALIDITY_MONTHS = 6;

/** What the warning measures, in the words every page shows (the warning adds the dates). */
export const PASSPORT_SHORT_VALIDITY_TEXT = `护照有效期不足行程结束后${PASSPORT_VALIDITY_MONTHS}个月，可能被拒签，请尽快更换护照`;

/** The trip the passport is checked against. */
export interface PassportTrip {
  /** 'YYYY-MM-DD'. */
  departure: string;
  /** The customer's return date, when the order has one. */
  returnDate?: string | null;
  /** The visa's stay in days (the product's stay_days as the order was placed); 0 when open-ended. */
  stayDays: number;
}

/** YYYY-MM-DD plus whole months (the 31st of a shorter month becomes its last day). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** The trip's last day as the check counts it: the return date, else departure + stay − 1 (a stay of 1 day ends on the departure date). */
export function tripEnd({ departure, returnDate, stayDays }: PassportTrip): string {
  return returnDate || tripReturnDate(departure, tripDays(stayDays));
}

/** The first expiry date that is enough for this trip (trip end + 6 months). */
export function passportNeededUntil(trip: PassportTrip): string {
  return addMonths(tripEnd(trip), PASSPORT_VALIDITY_MONTHS);
}

/** How the trip's end was counted, for the warning's words. */
function tripBasis(trip: PassportTrip, end: string): string {
  if (trip.returnDate) return `按回程日期计至 ${end}`;
  const stay = trip.stayDays > 0 ? `签证停留 ${trip.stayDays} 天` : `${tripDays(0)} 天（签证停留期不限）`;
  return `按出发日期 ${trip.departure} 加${stay}计至 ${end}`;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The warning for an applicant's passport, or null when it lasts long enough
 * (or its expiry or the departure date is not known). With `today`, a
 * passport already expired says so (the create-order form, before the order
 * exists); the server leaves it out (an order's detail is read long after).
 */
export function passportValidityWarning(expiry: string | null | undefined, trip: Partial<PassportTrip> & { stayDays: number }, today?: string): string | null {
  if (!expiry || !DATE.test(expiry)) return null;
  if (today && expiry < today) return `护照已于 ${expiry} 过期，请先换发护照再申请签证`;
  if (!trip.departure || !DATE.test(trip.departure)) return null;
  const full: PassportTrip = { departure: trip.departure, returnDate: trip.returnDate ?? null, stayDays: trip.stayDays };
  const end = tripEnd(full);
  const needed = addMonths(end, PASSPORT_VALIDITY_MONTHS);
  if (expiry >= needed) return null;
  return `${PASSPORT_SHORT_VALIDITY_TEXT}（护照有效期至 ${expiry}；行程${tripBasis(full, end)}，护照需有效至 ${needed}）`;
}
