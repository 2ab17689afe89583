import { describe, expect, it } from 'vitest';
import { composeMemo, durationText } from './review.ts';

describe('review texts', () => {
  it('composes the memo the customer reads: reasons, then the operator’s words', () => {
    expect(composeMemo(['blurred', 'expired'], ' 请上传彩色扫描件 ')).toBe('模糊不清；已过期；请上传彩色扫描件');
    expect(composeMemo([], '证件页反光')).toBe('证件页反光');
    expect(composeMemo(['cut_off'], null)).toBe('未拍全/有裁切');
  });

  it('says how long an order has been in its step', () => {
    expect(durationText(8 * 60_000)).toBe('8分钟');
    expect(durationText((5 * 60 + 12) * 60_000)).toBe('5小时12分');
    expect(durationText((2 * 24 + 3) * 3_600_000)).toBe('2天3小时');
    expect(durationText(-5)).toBe('0分钟');
  });
});
