// When is a consulate in China open? Monday to Friday, except China's public
// holidays and days in lieu, except the destination's national days; and never
// on a make-up working weekend (调休上班日): China works those Saturdays and
// Sundays, foreign missions do not. China's own calendar (chinese-days' data,
// the statutory fallback) is server/platform/china-calendar.ts; its names are
// re-exported here for the interview module's callers.
import { addDays } from '../../../common/order.ts';
import { chinaDay } from '../../platform/china-calendar.ts';

export { type ChinaDay, type ChinaDayKind, chinaDay, HOLIDAY_DATA_YEARS, hasOfficialArrangement, statutoryHolidays } from '../../platform/china-calendar.ts';

export interface ConsulateDay {
  date: string;
  open: boolean;
  /** Why it is closed ('周末', '国庆节', '调休上班日', the destination's '独立日' …); null when open. */
  closedFor: string | null;
  /** Decided without the year's official arrangement (see chinaDay). */
  provisional: boolean;
}

/**
 * A consulate day: open Monday–Friday unless China has a holiday (or a day in
 * lieu) or the destination its national day. `nationalDays` maps 'MM-DD' to
 * the day's name (country_national_day of the destination); a 'YYYY-MM-DD' key
 * is a closure of this consulate that one day (interview_closure, migration 045).
 */
export function consulateDay(date: string, nationalDays: ReadonlyMap<string, string>): ConsulateDay {
  const china = chinaDay(date);
  const closed = (closedFor: string): ConsulateDay => ({ date, open: false, closedFor, provisional: china.provisional });
  if (china.kind === 'makeup_workday') return closed('调休上班日');
  if (china.kind === 'weekend') return closed('周末');
  if (china.kind === 'holiday') return closed(china.name ?? '节假日');
  const national = nationalDays.get(date) ?? nationalDays.get(date.slice(5));
  if (national) return closed(national);
  return { date, open: true, closedFor: null, provisional: china.provisional };
}

/** The open consulate days in [from, to] (inclusive). */
export function openDays(from: string, to: string, nationalDays: ReadonlyMap<string, string>): ConsulateDay[] {
  const days: ConsulateDay[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const day = consulateDay(date, nationalDays);
    if (day.open) days.push(day);
  }
  return days;
}
