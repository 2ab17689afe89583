// The one passport validity rule (issue 28): expiry ≥ trip end + 6 months,
// the trip ending on the return date, else on departure + the visa's stay.
import { describe, expect, it } from 'vitest';
import { addMonths, PASSPORT_SHORT_VALIDITY_TEXT, passportNeededUntil, passportValidityWarning, tripEnd } from './passport.ts';

describe('passport validity against the trip', () => {
  it('adds months, keeping the day or the month’s last day', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2027-08-31', 6)).toBe('2028-02-29'); // a leap year's February
    expect(addMonths('2026-08-31', 6)).toBe('2027-02-28');
    expect(addMonths('2026-08-15', 6)).toBe('2027-02-15');
    expect(addMonths('2026-07-31', 6)).toBe('2027-01-31');
    expect(addMonths('2026-12-31', 6)).toBe('2027-06-30'); // across the year, into a 30-day month
  });

  it('ends the trip at the return date, else at departure plus the stay (both days counted; a month when open-ended)', () => {
    expect(tripEnd({ departure: '2026-12-01', stayDays: 30 })).toBe('2026-12-30');
    expect(tripEnd({ departure: '2026-12-01', stayDays: 1 })).toBe('2026-12-01');
    expect(tripEnd({ departure: '2026-12-01', stayDays: 90 })).toBe('2027-02-28');
    // Stay 0 is an open-ended stay (studies): a month, as the insurance's trip counts it.
    expect(tripEnd({ departure: '2026-12-01', stayDays: 0 })).toBe('2026-12-30');
    // The return date wins over the stay, shorter or longer.
    expect(tripEnd({ departure: '2026-12-01', returnDate: '2026-12-10', stayDays: 90 })).toBe('2026-12-10');
    expect(tripEnd({ departure: '2026-12-01', returnDate: '2027-03-10', stayDays: 30 })).toBe('2027-03-10');
    expect(tripEnd({ departure: '2026-12-01', returnDate: null, stayDays: 30 })).toBe('2026-12-30');
  });

  it('needs the passport until six months after the trip’s end, month ends clamped', () => {
    // Departure 2026-08-02 + 30 days ends 2026-08-31; six months on is February's last day.
    expect(passportNeededUntil({ departure: '2026-08-02', stayDays: 30 })).toBe('2027-02-28');
    expect(passportNeededUntil({ departure: '2026-12-01', returnDate: '2026-12-31', stayDays: 30 })).toBe('2027-06-30');
  });

  it('warns when the passport ends before the needed day, not on it', () => {
    const trip = { departure: '2026-12-01', stayDays: 30 };
    expect(passportValidityWarning('2027-06-30', trip)).toBeNull();
    expect(passportValidityWarning('2027-07-01', trip)).toBeNull();
    const short = passportValidityWarning('2027-06-29', trip)!;
    expect(short.startsWith(PASSPORT_SHORT_VALIDITY_TEXT)).toBe(true);
    expect(short).toBe(
      '护照有效期不足行程结束后6个月，可能被拒签，请尽快更换护照（护照有效期至 2027-06-29；行程按出发日期 2026-12-01 加签证停留 30 天计至 2026-12-30，护照需有效至 2027-06-30）',
    );
    // At the month's end: the trip ends on 2026-08-31, the passport must last until 2027-02-28.
    expect(passportValidityWarning('2027-02-28', { departure: '2026-08-02', stayDays: 30 })).toBeNull();
    expect(passportValidityWarning('2027-02-27', { departure: '2026-08-02', stayDays: 30 })).toMatch(/计至 2026-08-31，护照需有效至 2027-02-28/);
  });

  it('says how the trip was counted: the return date, or an open-ended stay', () => {
    expect(passportValidityWarning('2027-06-01', { departure: '2026-12-01', returnDate: '2026-12-20', stayDays: 90 })).toMatch(
      /行程按回程日期计至 2026-12-20，护照需有效至 2027-06-20）$/,
    );
    expect(passportValidityWarning('2027-06-29', { departure: '2026-12-01', stayDays: 0 })).toMatch(
      /按出发日期 2026-12-01 加30 天（签证停留期不限）计至 2026-12-30，护照需有效至 2027-06-30/,
    );
    // No return date and a long stay: a passport that covers six months from departure is not enough.
    expect(passportValidityWarning('2027-06-01', { departure: '2026-12-01', stayDays: 90 })).toMatch(/需有效至 2027-08-28/);
  });

  it('checks nothing without an expiry or a departure date; an expired passport says so when today is known', () => {
    const trip = { departure: '2026-12-01', stayDays: 30 };
    expect(passportValidityWarning(undefined, trip)).toBeNull();
    expect(passportValidityWarning(null, trip)).toBeNull();
    expect(passportValidityWarning('', trip)).toBeNull();
    expect(passportValidityWarning('2027/01/01', trip)).toBeNull();
    expect(passportValidityWarning('2027-01-01', { stayDays: 30 })).toBeNull();
    expect(passportValidityWarning('2027-01-01', { stayDays: 30 }, '2026-11-28')).toBeNull();
    expect(passportValidityWarning('2026-10-01', trip, '2026-11-28')).toBe('护照已于 2026-10-01 过期，请先换发护照再申请签证');
    // The server leaves today out: the same passport is short for the trip.
    expect(passportValidityWarning('2026-10-01', trip)).toMatch(/^护照有效期不足行程结束后6个月/);
  });
});
