import { describe, expect, it } from 'vitest';
import { expiryText, formatAverageRating, formatDateTime, formatPassRate, formatPrice, starFillPercent } from './format.ts';

describe('spec §9 number formats', () => {
  it('shows cents ÷ 100 with ￥', () => {
    expect(formatPrice(129900)).toBe('￥1299');
    expect(formatPrice(129950)).toBe('￥1299.50');
    expect(formatPrice(0)).toBe('￥0');
  });

  it('shows pass_rate ÷ 100 as a percentage to 1 decimal', () => {
    expect(formatPassRate(9850)).toBe('98.5%');
    expect(formatPassRate(10000)).toBe('100.0%');
    expect(formatPassRate(9999)).toBe('100.0%');
  });

  it('averages sum_score over count to 1 decimal, 5.0 when sum_score is 0', () => {
    expect(formatAverageRating(0, 0)).toBe('5.0');
    expect(formatAverageRating(0, 3)).toBe('5.0');
    expect(formatAverageRating(47, 10)).toBe('4.7');
    expect(formatAverageRating(14, 3)).toBe('4.7');
  });

  it('fills stars score × 20%', () => {
    expect(starFillPercent(4)).toBe('80%');
    expect(starFillPercent(5)).toBe('100%');
    expect(starFillPercent(7)).toBe('100%');
  });
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('formatDateTime', () => {
  it('shows China time whatever the zone', () => {
    expect(formatDateTime(Date.parse('2026-12-01T02:05:00Z'))).toBe('2026-12-01 10:05');
    expect(formatDateTime(Date.parse('2026-12-01T16:30:00Z'))).toBe('2026-12-02 00:30');
  });
});

describe('expiryText', () => {
  const now = Date.parse('2026-12-01T02:00:00Z');
  it('counts hours and minutes, rounding minutes up', () => {
    expect(expiryText(now + 24 * HOUR, now)).toBe('24小时0分后自动取消');
    expect(expiryText(now + 23 * HOUR + 59 * MINUTE + 1, now)).toBe('24小时0分后自动取消');
    expect(expiryText(now + 2 * HOUR + 5 * MINUTE, now)).toBe('2小时5分后自动取消');
    expect(expiryText(now + 30_000, now)).toBe('1分后自动取消');
    expect(expiryText(now + 59 * MINUTE, now)).toBe('59分后自动取消');
  });
  it('says it is about to go once the time is up', () => {
    expect(expiryText(now, now)).toBe('即将自动取消');
    expect(expiryText(now - HOUR, now)).toBe('即将自动取消');
  });
});
