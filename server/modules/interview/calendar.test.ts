// The consulate calendar: China's official arrangement where chinese-days has
// it, the computed statutory holidays after it, the destination's national
// days, and the same answers whatever the server's time zone.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import chineseDays from 'chinese-days';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../common/order.ts';
import { chinaDay, consulateDay, HOLIDAY_DATA_YEARS, hasOfficialArrangement, openDays, statutoryHolidays } from './calendar.ts';
import { bookingWindow, slotCapacity } from './slot-plan.ts';

const NONE = new Map<string, string>();
const FRANCE = new Map([
  ['07-14', '国庆日'],
  ['12-25', '圣诞节'],
]);

describe('consulate calendar', () => {
  it('closes on China’s 2026 National Day and its days in lieu, and on the make-up working weekends', () => {
    expect(hasOfficialArrangement(2026)).toBe(true);
    expect(consulateDay('2026-10-01', NONE)).toEqual({ date: '2026-10-01', open: false, closedFor: '国庆节', provisional: false });
    // Tuesday 6 and Wednesday 7 October are days in lieu.
    expect(chinaDay('2026-10-07')).toMatchObject({ kind: 'holiday', inLieu: true });
    expect(consulateDay('2026-10-07', NONE).open).toBe(false);
    // Thursday 8 and Friday 9 October are ordinary working days again.
    expect(consulateDay('2026-10-08', NONE).open).toBe(true);
    expect(consulateDay('2026-10-09', NONE).open).toBe(true);
    // China works Sunday 20 September and Saturday 10 October; consulates do not.
    for (const makeUp of ['2026-09-20', '2026-10-10']) {
      expect(chinaDay(makeUp).kind).toBe('makeup_workday');
      expect(chineseDays.isWorkday(makeUp)).toBe(true);
      expect(consulateDay(makeUp, NONE)).toMatchObject({ open: false, closedFor: '调休上班日' });
    }
    expect(consulateDay('2026-10-11', NONE)).toMatchObject({ open: false, closedFor: '周末' });
  });

  it('closes on the destination’s national days only for that destination', () => {
    // Tuesday 14 July 2026.
    expect(consulateDay('2026-07-14', FRANCE)).toMatchObject({ open: false, closedFor: '国庆日' });
    expect(consulateDay('2026-07-14', NONE).open).toBe(true);
    expect(consulateDay('2026-12-25', FRANCE).open).toBe(false);
    expect(openDays('2026-07-13', '2026-07-17', FRANCE).map((d) => d.date)).toEqual(['2026-07-13', '2026-07-15', '2026-07-16', '2026-07-17']);
  });

  it('falls back to the statutory holidays for a year chinese-days does not know yet, marked provisional', () => {
    expect(HOLIDAY_DATA_YEARS.last).toBeGreaterThanOrEqual(2026);
    expect(hasOfficialArrangement(2027)).toBe(false);
    // Why the fallback exists: chinese-days calls 1 January 2027 a working day.
    expect(chineseDays.isWorkday('2027-01-01')).toBe(true);
    expect(consulateDay('2027-01-01', NONE)).toEqual({ date: '2027-01-01', open: false, closedFor: '元旦', provisional: true });
    // Spring Festival 2027: 除夕 Friday 5 February to 初三 Monday 8 February.
    expect(consulateDay('2027-02-04', NONE)).toMatchObject({ open: true, provisional: true });
    for (const date of ['2027-02-05', '2027-02-08']) expect(consulateDay(date, NONE)).toMatchObject({ open: false, closedFor: '春节', provisional: true });
    expect(consulateDay('2027-02-09', NONE)).toMatchObject({ open: true, provisional: true });
    expect(openDays('2027-02-01', '2027-02-12', NONE).map((d) => d.date)).toEqual([
      '2027-02-01',
      '2027-02-02',
      '2027-02-03',
      '2027-02-04',
      '2027-02-09',
      '2027-02-10',
      '2027-02-11',
      '2027-02-12',
    ]);
    expect(consulateDay('2027-04-05', NONE).closedFor).toBe('清明节');
    expect(consulateDay('2027-06-09', NONE).closedFor).toBe('端午节');
    expect(consulateDay('2027-09-15', NONE).closedFor).toBe('中秋节');
    for (const date of ['2027-10-01', '2027-05-01']) expect(consulateDay(date, NONE).open).toBe(false);
  });

  it('computes statutory holidays that agree with the official arrangements of known years', () => {
    for (const year of [2025, 2026]) {
      for (const [date, name] of statutoryHolidays(year)) {
        expect(chinaDay(date), `${date} ${name}`).toMatchObject({ kind: 'holiday' });
      }
    }
    expect([...statutoryHolidays(2030).keys()]).toEqual([
      '2030-01-01',
      '2030-02-02',
      '2030-02-03',
      '2030-02-04',
      '2030-02-05',
      '2030-04-05',
      '2030-05-01',
      '2030-05-02',
      '2030-06-05',
      '2030-09-12',
      '2030-10-01',
      '2030-10-02',
      '2030-10-03',
    ]);
  });

  it('gives the same days whatever the server’s time zone', () => {
    const script = `
      const { statutoryHolidays, consulateDay } = await import(${JSON.stringify(fileURLToPath(new URL('./calendar.ts', import.meta.url)))});
      console.log(JSON.stringify({ y: [...statutoryHolidays(2031).keys(), ...statutoryHolidays(2027).keys()], d: ['2026-10-01', '2026-10-09', '2026-10-10', '2026-01-02'].map((d) => consulateDay(d, new Map()).open) }));
    `;
    const answers = ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Asia/Shanghai'].map((tz) =>
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
        env: { ...process.env, TZ: tz },
        encoding: 'utf8',
      }).trim(),
    );
    expect(new Set(answers).size).toBe(1);
    const parsed = JSON.parse(answers[0]!) as { y: string[]; d: boolean[] };
    expect(parsed.y).toContain('2031-01-22');
    expect(parsed.y).toContain('2027-04-05');
    expect(parsed.d).toEqual([false, true, false, false]);
  });
});

describe('booking window and capacity', () => {
  it('runs from tomorrow (or the order date) to the day before departure, at most 60 days ahead', () => {
    expect(bookingWindow('2026-12-01', '2026-12-01', '2026-12-20')).toEqual({ from: '2026-12-02', to: '2026-12-19' });
    expect(bookingWindow('2026-12-01', '2026-12-10', '2026-12-20')).toEqual({ from: '2026-12-10', to: '2026-12-19' });
    expect(bookingWindow('2026-12-01', '2026-12-01', '2027-06-01')).toEqual({ from: '2026-12-02', to: addDays('2026-12-01', 60) });
    expect(bookingWindow('2026-12-01', '2026-12-01', '2026-12-02')).toBeNull();
    expect(bookingWindow('2026-12-01', '2026-12-01', '2026-12-01')).toBeNull();
  });

  it('gives every district a fixed capacity of 3 to 6 places', () => {
    const capacities = Array.from({ length: 200 }, (_, i) => slotCapacity(i + 1));
    expect(Math.min(...capacities)).toBe(3);
    expect(Math.max(...capacities)).toBe(6);
    expect(slotCapacity(17)).toBe(slotCapacity(17));
  });
});
