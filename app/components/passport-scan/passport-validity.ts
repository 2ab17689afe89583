// Does the passport last long enough for the trip? Most countries want it
// valid at least six months after the traveller leaves them (issue 28): the
// trip's end is the return date when known, else the departure date plus
// the visa's stay (a month when the stay is open-ended).
import { addDays } from '../../../common/order';
import { addMonths } from '../../../common/passport';

export const PASSPORT_MONTHS_AFTER_TRIP = 6;

export interface TripEnd {
  departure: string;
  /** The customer's return date, when known. */
  returnDate?: string | null;
  /** The visa's stay in days; 0 when open-ended. */
  stayDays: number;
}

/** The trip's last day as the check counts it. */
export function tripEnd({ departure, returnDate, stayDays }: TripEnd): string {
  return returnDate ?? addDays(departure, (stayDays > 0 ? stayDays : 30) - 1);
}

/** Why the passport does not last long enough, in the page's words; null when it does (or nothing to check). */
export function passportValidityWarning(expiry: string | null | undefined, trip: Partial<TripEnd> & { stayDays: number }, today: string): string | null {
  if (!expiry || !/^\d{4}-\d{2}-\d{2}$/.test(expiry)) return null;
  if (expiry < today) return `护照已于 ${expiry} 过期，请先换发护照再申请签证`;
  if (!trip.departure) return null;
  const end = tripEnd({ departure: trip.departure, returnDate: trip.returnDate, stayDays: trip.stayDays });
  const needed = addMonths(end, PASSPORT_MONTHS_AFTER_TRIP);
  if (expiry >= needed) return null;
  const basis = trip.returnDate ? `回程日期 ${end}` : `出发日期加签证停留期（至 ${end}）`;
  return `护照有效期至 ${expiry}，不足${basis}后 ${PASSPORT_MONTHS_AFTER_TRIP} 个月（需至 ${needed}），可能被拒签或拒绝登机，建议先换发护照`;
}
