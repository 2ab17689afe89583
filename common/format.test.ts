import { describe, expect, it } from 'vitest';
import { formatAverageRating, formatPassRate, formatPrice, starFillPercent } from './format.ts';

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
