// The order detail's schedule from the order's events (pure).
import { describe, expect, it } from 'vitest';
import { ORDER_STEP_VALUES } from '../../../common/order.ts';
import { orderSchedule, SCHEDULE_LABELS, schedulePath, type ScheduleEvent } from './schedule.ts';

const at = (n: number) => n * 1000;
function e(event: string, n: number, from: string | null, to: string | null, fromStep: string | null = null, toStep: string | null = null): ScheduleEvent {
  return { event, created_at: at(n), from_status: from as never, to_status: to as never, from_step: fromStep as never, to_step: toStep as never };
}

describe('orderSchedule', () => {
  it('lists each step reached and when, a second review after a re-upload too, and what lies ahead', () => {
    const events = [
      e('create', 1, null, 'draft'),
      e('material_upload', 2, null, null),
      e('confirm', 3, 'draft', 'pending_payment'),
      e('payment_create', 4, 'pending_payment', 'pending_payment'),
      e('pay', 5, 'pending_payment', 'processing', null, 'material_review'),
      e('material_review', 6, 'processing', 'processing', 'material_review', 'material_review'),
      e('material_review_failed', 7, 'processing', 'processing', 'material_review', 'reupload_needed'),
      e('reupload_submit', 8, 'processing', 'processing', 'reupload_needed', 'material_review'),
    ];
    const schedule = orderSchedule(events, { status: 'processing', mailsPaper: true, needInterview: false });
    expect(schedule.reached.map((s) => [s.key, s.label, s.reached_at])).toEqual([
      ['created', '提交订单', at(1)],
      ['confirmed', '确认订单', at(3)],
      ['paid', '支付成功', at(5)],
      ['material_review', '资料审核', at(5)],
      ['reupload_needed', '重新上传资料', at(7)],
      ['material_review', '资料审核', at(8)],
    ]);
    expect(schedule.upcoming.map((s) => s.key)).toEqual(['awaiting_mail', 'page_check', 'submitted', 'returning', 'completed']);
  });

  it('puts the interview on the path when the product needs one, and nothing ahead once the order ended', () => {
    const draft = orderSchedule([e('create', 1, null, 'draft')], { status: 'draft', mailsPaper: false, needInterview: true });
    expect(draft.upcoming.map((s) => s.key)).toEqual([
      'confirmed',
      'paid',
      'material_review',
      'page_check',
      'interview',
      'submitted',
      'returning',
      'completed',
    ]);
    const cancelled = orderSchedule([e('create', 1, null, 'draft'), e('cancel', 2, 'draft', 'cancelled')], {
      status: 'cancelled',
      mailsPaper: false,
      needInterview: true,
    });
    expect(cancelled.reached.map((s) => s.key)).toEqual(['created', 'cancelled']);
    expect(cancelled.upcoming).toEqual([]);
  });

  it('takes its steps from ORDER_STEPS, in their order: a new step is on the path without a change here', () => {
    const path = schedulePath({ mailsPaper: true, needInterview: true });
    expect(path).toEqual(['created', 'confirmed', 'paid', ...ORDER_STEP_VALUES.filter((step) => step !== 'reupload_needed'), 'completed']);
    for (const key of path) expect(SCHEDULE_LABELS[key]).toBeTruthy();
  });
});
