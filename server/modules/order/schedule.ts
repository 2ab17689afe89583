// The order detail's schedule (办理进度, spec 2.4): each step the order
// reached and when, read from its order_event rows, and the steps still ahead
// on its usual path. A step reached twice (资料审核 after a re-upload) shows
// twice. Pure: the detail read passes the events and what decides the path.
import { type EndedStatus, isEnded, ORDER_STATUSES, ORDER_STEP_VALUES, type OrderStatus, type OrderStep } from '../../../common/order.ts';

export type ScheduleKey = 'created' | 'confirmed' | 'paid' | OrderStep | EndedStatus;

/** What the schedule calls each step (the node, not the state: 资料审核, not 资料审核中). */
export const SCHEDULE_LABELS: Record<ScheduleKey, string> = {
  created: '提交订单',
  confirmed: '确认订单',
  paid: '支付成功',
  material_review: '资料审核',
  reupload_needed: '重新上传资料',
  awaiting_mail: '邮寄纸质资料',
  page_check: '确认核对页',
  interview: '面试/录指纹',
  submitted: '递交使馆',
  returning: '护照寄回',
  completed: ORDER_STATUSES.completed,
  cancelled: ORDER_STATUSES.cancelled,
  refunded: ORDER_STATUSES.refunded,
};

export interface ScheduleEvent {
  event: string;
  from_status: OrderStatus | null;
  to_status: OrderStatus | null;
  from_step: OrderStep | null;
  to_step: OrderStep | null;
  created_at: number;
}

export interface Schedule {
  reached: Array<{ key: ScheduleKey; label: string; reached_at: number }>;
  upcoming: Array<{ key: ScheduleKey; label: string }>;
}

export interface PathOptions {
  mailsPaper: boolean;
  needInterview: boolean;
}

const always = () => true;

/**
 * Whether each step of ORDER_STEPS is on an order's usual path, in
 * ORDER_STEPS's order. Every step is named, so a new step asks the compiler
 * whether it is on every order's path or only on some (an optional step that
 * said `always` would be announced to every customer in advance).
 */
const ON_PATH: Record<OrderStep, (options: PathOptions) => boolean> = {
  material_review: always,
  // A re-upload is part of the review: reached, it shows; ahead, it is not announced.
  reupload_needed: () => false,
  awaiting_mail: (options) => options.mailsPaper,
  page_check: always,
  interview: (options) => options.needInterview,
  submitted: always,
  returning: always,
};

/** The usual path of an order: mailing only for products with paper materials, the interview only when it needs one. */
export function schedulePath(options: PathOptions): ScheduleKey[] {
  const steps = ORDER_STEP_VALUES.filter((step) => ON_PATH[step](options));
  return ['created', 'confirmed', 'paid', ...steps, 'completed'];
}

/** Where a reached step sits on the path (a re-upload is part of the review). */
function pathIndex(path: ScheduleKey[], key: ScheduleKey): number {
  return path.indexOf(key === 'reupload_needed' ? 'material_review' : key);
}

export function orderSchedule(events: readonly ScheduleEvent[], options: PathOptions & { status: OrderStatus }): Schedule {
  const reached: Schedule['reached'] = [];
  const reach = (key: ScheduleKey, at: number) => reached.push({ key, label: SCHEDULE_LABELS[key], reached_at: at });
  for (const event of events) {
    if (event.event === 'create') reach('created', event.created_at);
    else if (event.event === 'confirm') reach('confirmed', event.created_at);
    else if (event.event === 'pay') reach('paid', event.created_at);
    const { to_status: to, from_status: from } = event;
    if (to === 'processing' && event.to_step && (from !== 'processing' || event.from_step !== event.to_step)) reach(event.to_step, event.created_at);
    else if (to && to !== from && isEnded(to)) reach(to, event.created_at);
  }
  const path = schedulePath(options);
  const ended = isEnded(options.status);
  const last = reached.at(-1);
  const from = last ? pathIndex(path, last.key) : -1;
  const upcoming = ended ? [] : path.slice(from + 1).map((key) => ({ key, label: SCHEDULE_LABELS[key] }));
  return { reached, upcoming };
}
