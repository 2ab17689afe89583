import { describe, expect, it } from 'vitest';
import type { InterviewSlotListResult } from '../../../../common/contracts/interview';
import {
  initialDate,
  initialSelection,
  keepFitting,
  missingApplicants,
  placesFor,
  selectable,
  shortDate,
  slotIndex,
  slotLabel,
  unchanged,
} from './interview-model';

function list(overrides: Partial<InterviewSlotListResult> = {}): InterviewSlotListResult {
  return {
    user_order_id: 7,
    status: 'draft',
    allowed_events: ['interview_choose'],
    consulate: { consular_district_id: 1, district_name: '上海', consulate_name: '美国驻上海总领事馆', city: '上海', address: '南京西路1038号' },
    window: { from: '2026-12-02', to: '2026-12-04' },
    notice: null,
    dates: [
      {
        date: '2026-12-02',
        weekday: '周三',
        provisional: false,
        slots: [
          { interview_slot_id: 11, start_time: '09:00', end_time: '09:30', capacity: 3, remaining: 0, full: true },
          { interview_slot_id: 12, start_time: '09:30', end_time: '10:00', capacity: 3, remaining: 1, full: false },
        ],
      },
      {
        date: '2026-12-03',
        weekday: '周四',
        provisional: false,
        slots: [{ interview_slot_id: 21, start_time: '09:00', end_time: '09:30', capacity: 3, remaining: 3, full: false }],
      },
    ],
    applicants: [
      { applicant_id: 1, name: '张三', choice: { interview_slot_id: 11, slot_date: '2026-12-02', start_time: '09:00', end_time: '09:30', bookable: true } },
      { applicant_id: 2, name: '李四', choice: null },
    ],
    ...overrides,
  };
}

describe('interview model', () => {
  it('starts from the bookable current choices', () => {
    expect(initialSelection(list())).toEqual({ 1: 11, 2: null });
    const stale = list();
    stale.applicants[0]!.choice!.bookable = false;
    expect(initialSelection(stale)).toEqual({ 1: null, 2: null });
  });

  it('counts the order’s own places and the form’s other choices', () => {
    const l = list();
    const full = l.dates[0]!.slots[0]!;
    const one = l.dates[0]!.slots[1]!;
    // 张三 holds a place on the full time: it stays his, and would go to 李四 if 张三 moved.
    expect(selectable(l, { 1: 11, 2: null }, full, 1)).toBe(true);
    expect(selectable(l, { 1: 11, 2: null }, full, 2)).toBe(false);
    expect(selectable(l, { 1: 21, 2: null }, full, 2)).toBe(true);
    // The last place of 09:30: taken by 李四 in the form, no longer open to 张三.
    expect(placesFor(l, { 1: 11, 2: 12 }, one, 1)).toBe(0);
    expect(selectable(l, { 1: 11, 2: 12 }, one, 2)).toBe(true);
  });

  it('opens each picker on the chosen date or the first day with room', () => {
    const l = list();
    expect(initialDate(l, { 1: 11, 2: null }, 1)).toBe('2026-12-02');
    expect(initialDate(l, { 1: 11, 2: 12 }, 2)).toBe('2026-12-02');
    const crowded = list();
    crowded.dates[0]!.slots[1]!.remaining = 0;
    expect(initialDate(crowded, { 1: 11, 2: null }, 2)).toBe('2026-12-03');
  });

  it('labels times and says who still has to choose', () => {
    expect(shortDate('2026-12-02')).toBe('12月2日');
    expect(slotLabel(slotIndex(list()).get(12)!)).toBe('2026年12月2日 周三 09:30–10:00');
    expect(missingApplicants(list(), { 1: 11, 2: null })).toEqual(['李四']);
    expect(unchanged(list(), { 1: 11, 2: 21 })).toBe(false);
    const both = list();
    both.applicants[1]!.choice = { interview_slot_id: 21, slot_date: '2026-12-03', start_time: '09:00', end_time: '09:30', bookable: true };
    expect(unchanged(both, { 1: 11, 2: 21 })).toBe(true);
  });

  it('keeps only the choices that still fit after a time filled up', () => {
    const after = list();
    after.dates[0]!.slots[1]!.remaining = 0;
    expect(keepFitting(after, { 1: 11, 2: 12 })).toEqual({ 1: 11, 2: null });
  });
});
