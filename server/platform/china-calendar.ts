// China's calendar: what a date is in mainland China (a working day, a
// weekend, a public holiday, a make-up working weekend). Processing happens
// in China, so the order's service levels and departure warnings count these
// days, and the interview module's consulate days start from them; it lives
// here, below the modules, so none of them owns it (issue 24, decision 0035).
//
// China's arrangement comes from chinese-days' data, which is published year by
// year (the State Council announces each year in the November before). For a
// year the data does not have yet, the statutory holidays are computed (New
// Year, Spring Festival from 除夕 for 4 days, Qingming, Labour Day 1–2 May,
// Dragon Boat, Mid-Autumn, National Day 1–3 October) and every date of that
// year is marked provisional: the official arrangement will add days in lieu.
//
// Dates are 'YYYY-MM-DD' strings, never Date objects: chinese-days' own
// lookups parse them as UTC and read them back in the server's zone, which is
// a day off west of Greenwich. The data is read directly and the two
// conversions used for the fallback are called so that the zone cannot move them.
import chineseDays from 'chinese-days';
import data from 'chinese-days/dist/chinese-days.json' with { type: 'json' };
import { addDays } from '../../common/order.ts';

const { getSolarDateFromLunar, getSolarTermDate } = chineseDays;

/** "National Day,国庆节,3" → "国庆节". */
function chineseName(entry: string): string {
  return entry.split(',')[1] ?? entry;
}

const HOLIDAYS = data.holidays as Record<string, string>;
const MAKEUP_WORKDAYS = data.workdays as Record<string, string>;
const IN_LIEU = data.inLieuDays as Record<string, string>;
const COVERED_YEARS = new Set(Object.keys(HOLIDAYS).map((date) => Number(date.slice(0, 4))));

/** The years whose official arrangement chinese-days knows (contiguous). */
export const HOLIDAY_DATA_YEARS = { first: Math.min(...COVERED_YEARS), last: Math.max(...COVERED_YEARS) } as const;

export function hasOfficialArrangement(year: number): boolean {
  return COVERED_YEARS.has(year);
}

/**
 * The solar date of a lunar date. The library reads the lunar date with the
 * local-time getters of the Date it is given; a local noon keeps the zone (and
 * its daylight saving) out of it.
 */
function solarOfLunar(lunarYear: number, lunarMonth: number, lunarDay: number): string {
  return getSolarDateFromLunar(new Date(lunarYear, lunarMonth - 1, lunarDay, 12)).date;
}

/**
 * Qingming (清明) of a year. The library builds the day at UTC midnight and
 * formats it in the local zone, so west of Greenwich it answers the day before.
 */
function qingming(year: number): string {
  const answered = getSolarTermDate(year, 4, 'pure_brightness');
  const westOfUtc = new Date(`${answered}T00:00:00Z`).getTimezoneOffset() > 0;
  return westOfUtc ? addDays(answered, 1) : answered;
}

const statutoryCache = new Map<number, Map<string, string>>();

/** The statutory public holidays of a year (国务院《全国年节及纪念日放假办法》, 2025 version), without days in lieu. */
export function statutoryHolidays(year: number): Map<string, string> {
  const cached = statutoryCache.get(year);
  if (cached) return cached;
  const days = new Map<string, string>();
  days.set(`${year}-01-01`, '元旦');
  // Lunar new year of lunar year `year` always falls in January/February of `year`.
  const newYear = solarOfLunar(year, 1, 1);
  for (let offset = -1; offset <= 2; offset += 1) days.set(addDays(newYear, offset), '春节');
  days.set(qingming(year), '清明节');
  days.set(`${year}-05-01`, '劳动节');
  days.set(`${year}-05-02`, '劳动节');
  days.set(solarOfLunar(year, 5, 5), '端午节');
  days.set(solarOfLunar(year, 8, 15), '中秋节');
  for (const day of ['01', '02', '03']) days.set(`${year}-10-${day}`, '国庆节');
  statutoryCache.set(year, days);
  return days;
}

export type ChinaDayKind = 'workday' | 'weekend' | 'holiday' | 'makeup_workday';

export interface ChinaDay {
  kind: ChinaDayKind;
  /** The holiday's name ('国庆节'); for a make-up working day, the holiday it makes up for. */
  name: string | null;
  /** A day in lieu (调休): a weekday off that is made up on a weekend. */
  inLieu: boolean;
  /** The year's official arrangement is not known yet: computed from the statutory holidays. */
  provisional: boolean;
}

function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** What a date is in mainland China: a working day, a weekend, a public holiday, or a make-up working weekend. */
export function chinaDay(date: string): ChinaDay {
  const year = Number(date.slice(0, 4));
  const weekend = weekday(date) === 0 || weekday(date) === 6;
  if (hasOfficialArrangement(year)) {
    const holiday = HOLIDAYS[date];
    if (holiday) return { kind: 'holiday', name: chineseName(holiday), inLieu: Boolean(IN_LIEU[date]), provisional: false };
    const makeup = MAKEUP_WORKDAYS[date];
    if (makeup) return { kind: 'makeup_workday', name: chineseName(makeup), inLieu: false, provisional: false };
    return { kind: weekend ? 'weekend' : 'workday', name: null, inLieu: false, provisional: false };
  }
  const holiday = statutoryHolidays(year).get(date);
  if (holiday) return { kind: 'holiday', name: holiday, inLieu: false, provisional: true };
  return { kind: weekend ? 'weekend' : 'workday', name: null, inLieu: false, provisional: true };
}

/** Processing happens in China: public holidays and days in lieu are off, make-up weekends are worked. */
export function isChinaWorkingDay(date: string): boolean {
  const kind = chinaDay(date).kind;
  return kind === 'workday' || kind === 'makeup_workday';
}
