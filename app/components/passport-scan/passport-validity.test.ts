import { describe, expect, it } from 'vitest';
import { addMonths } from '../../../common/passport';
import { passportValidityWarning, tripEnd } from './passport-validity';

describe('passport validity against the trip', () => {
  it('adds months, keeping the day or the month’s last day', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-08-15', 6)).toBe('2027-02-15');
  });

  it('ends the trip at the return date, else at departure plus the stay (a month when open-ended)', () => {
    expect(tripEnd({ departure: '2026-12-01', stayDays: 30 })).toBe('2026-12-30');
    expect(tripEnd({ departure: '2026-12-01', stayDays: 0 })).toBe('2026-12-30');
    expect(tripEnd({ departure: '2026-12-01', returnDate: '2026-12-10', stayDays: 90 })).toBe('2026-12-10');
  });

  it('warns when the passport ends less than six months after the trip, or has ended', () => {
    const trip = { departure: '2026-12-01', stayDays: 30 };
    expect(passportValidityWarning('2027-06-30', trip, '2026-11-28')).toBeNull();
    expect(passportValidityWarning('2027-06-29', trip, '2026-11-28')).toMatch(/不足出发日期加签证停留期（至 2026-12-30）后 6 个月（需至 2027-06-30）/);
    expect(passportValidityWarning('2026-10-01', trip, '2026-11-28')).toMatch(/已于 2026-10-01 过期/);
    expect(passportValidityWarning(undefined, trip, '2026-11-28')).toBeNull();
    expect(passportValidityWarning('2027-01-01', { stayDays: 30 }, '2026-11-28')).toBeNull();
  });
});
