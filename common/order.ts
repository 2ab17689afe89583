// Orders as both sides see them: statuses, processing steps, the order list's
// tabs, the actions and China's calendar dates. The calls' shapes are the
// contracts in common/contracts/order.ts; the rules are in docs/order-rules.md
// (on top of the design's order lifecycle).
import { IDENTITIES } from './constants.ts';
import type { OrderingStep } from './ordering.ts';

export const ORDER_STATUSES = {
  draft: '草稿',
  pending_payment: '待支付',
  processing: '办理中',
  completed: '已完成',
  cancelled: '已取消',
  refunded: '已退款',
} as const;
export type OrderStatus = keyof typeof ORDER_STATUSES;
export const ORDER_STATUS_VALUES = Object.keys(ORDER_STATUSES) as OrderStatus[];

/** Not paid yet: the customer may still cancel, and the system expires them. */
export const UNPAID_STATUSES: readonly OrderStatus[] = ['draft', 'pending_payment'];
/** Paid and kept: the payment took effect (a payment that reaches a cancelled order is refunded, not kept). */
export const PAID_STATUSES: readonly OrderStatus[] = ['processing', 'completed', 'refunded'];
/** Statuses an order never leaves: its schedule has nothing upcoming. */
export const ENDED_STATUSES = ['completed', 'cancelled', 'refunded'] as const satisfies readonly OrderStatus[];
export type EndedStatus = (typeof ENDED_STATUSES)[number];
export const isEnded = (status: OrderStatus): status is EndedStatus => (ENDED_STATUSES as readonly OrderStatus[]).includes(status);

/** Sub-steps of `processing`, in the order of the detail page's schedule. */
export const ORDER_STEPS = {
  material_review: '资料审核中',
  reupload_needed: '待重新上传资料',
  awaiting_mail: '待邮寄资料',
  page_check: '待确认核对页',
  interview: '待面试/录指纹',
  submitted: '已递交使馆',
  returning: '护照寄回中',
} as const;
export type OrderStep = keyof typeof ORDER_STEPS;
export const ORDER_STEP_VALUES = Object.keys(ORDER_STEPS) as OrderStep[];

/** Steps in which the customer has to act (re-upload, mail materials, confirm the page check). */
export const CUSTOMER_ACTION_STEPS: readonly OrderStep[] = ['reupload_needed', 'awaiting_mail', 'page_check'];
/** Steps before the application is at the embassy: a departure date that passed still matters. */
export const PRE_SUBMISSION_STEPS: readonly OrderStep[] = ['material_review', 'reupload_needed', 'awaiting_mail', 'page_check', 'interview'];

/** Applicant identities (spec §9) decide the material checklist. */
export const APPLICANT_IDENTITIES = IDENTITIES;
export type IdentityId = keyof typeof IDENTITIES;

/** Each applicant's own status: one can be refused while another is issued. */
export const APPLICANT_STATUSES = {
  pending: '办理中',
  issued: '已出签',
  rejected: '已拒签',
} as const;
export type ApplicantStatus = keyof typeof APPLICANT_STATUSES;

/**
 * Every event of the order lifecycle, with the label the schedule shows.
 * The rules (who fires it, from which state, to which) are the lifecycle
 * table in server/modules/order/lifecycle.ts; docs/order-rules.md shows it.
 */
export const ORDER_EVENTS = {
  create: '创建订单',
  material_upload: '上传资料',
  material_replace: '替换资料',
  material_delete: '删除资料',
  effect_date: '选择生效日期',
  interview_choose: '选择面试时间',
  confirm: '确认订单',
  payment_create: '发起支付',
  pay: '支付成功',
  payment_refund_due: '重复支付，待退款',
  cancel: '取消订单',
  expire: '超时未支付，自动取消',
  departure_date_update: '修改出发日期',
  assign: '分配办理人员',
  material_review: '审核资料',
  material_review_passed: '资料审核通过',
  material_review_failed: '资料审核未通过，待重新上传',
  reupload_submit: '重新提交资料审核',
  mail_send: '寄出纸质资料',
  mail_missing: '纸质资料缺件，待补寄',
  mail_receive: '收到纸质资料',
  page_check_publish: '发布核对页',
  page_check_confirm: '确认核对页',
  page_check_correction: '核对页申请修改',
  page_check_done: '核对页全部确认',
  interview_notice_publish: '发布面试通知',
  interview_change_request: '申请修改面试日期',
  interview_change_accept: '同意修改面试日期',
  interview_change_decline: '拒绝修改面试日期',
  price_difference_request: '发起补差价',
  price_difference_pay: '补差价支付成功',
  price_difference_cancel: '取消补差价',
  submit: '递交使馆',
  result_issue: '出签',
  result_reject: '拒签',
  refund_create: '发起退款',
  refund_settle: '退款成功',
  close_refund: '全额退款并关闭订单',
  ship_back: '护照寄回',
  return_delivered: '护照已签收',
  return_confirm: '登记护照已签收',
  return_back: '登记护照快件已退回',
  complete: '办理完成',
  retention_purge: '删除已到保留期限的资料扫描件',
} as const;
export type OrderEventName = keyof typeof ORDER_EVENTS;
/** Every event name, for contracts' enums (the views' allowed_events). */
export const ORDER_EVENT_VALUES = Object.keys(ORDER_EVENTS) as [OrderEventName, ...OrderEventName[]];

export type OrderActor = 'customer' | 'operator' | 'system';

/**
 * The order list's tabs (lifecycle design). Tabs are filters, not a
 * partition: 需要处理 cuts across the others — an order waiting for a
 * re-upload is also 办理中.
 */
export interface OrderListTab {
  key: 'all' | 'unpaid' | 'action' | 'processing' | 'completed' | 'closed';
  label: string;
  statuses: readonly OrderStatus[];
  /** When set, only orders in one of these processing steps (or see departurePast). */
  steps?: readonly OrderStep[];
  /** 需要处理 also holds unsubmitted orders whose departure date has passed. */
  departurePast?: boolean;
}

export const ORDER_LIST_TABS: readonly OrderListTab[] = [
  { key: 'all', label: '全部', statuses: ORDER_STATUS_VALUES },
  { key: 'unpaid', label: '待支付', statuses: ['draft', 'pending_payment'] },
  { key: 'action', label: '需要处理', statuses: ['processing'], steps: CUSTOMER_ACTION_STEPS, departurePast: true },
  { key: 'processing', label: '办理中', statuses: ['processing'] },
  { key: 'completed', label: '已完成', statuses: ['completed'] },
  { key: 'closed', label: '已取消/已退款', statuses: ['cancelled', 'refunded'] },
];
export type OrderListTabKey = OrderListTab['key'];
export const ORDER_LIST_TAB_KEYS = ORDER_LIST_TABS.map((tab) => tab.key) as [OrderListTabKey, ...OrderListTabKey[]];

/** What the customer can or must do next, for the card's and the detail page's buttons. */
export const ORDER_ACTIONS = [
  'continue',
  'pay',
  'cancel',
  'choose_departure_date',
  'reupload',
  'mail_materials',
  'confirm_page_check',
  'pay_price_difference',
  'view_interview_notice',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export function statusLabel(status: string): string {
  return ORDER_STATUSES[status as OrderStatus] ?? status;
}

export function stepLabel(step: string | null): string | null {
  return step === null ? null : (ORDER_STEPS[step as OrderStep] ?? step);
}

/** An order not yet at the embassy whose departure date is before today (China time) needs a new date. */
export function isDeparturePast(order: { status: string; step: string | null; departure_date: string }, today: string): boolean {
  if (order.departure_date >= today) return false;
  if (UNPAID_STATUSES.includes(order.status as OrderStatus)) return true;
  return order.status === 'processing' && (order.step === null || PRE_SUBMISSION_STEPS.includes(order.step as OrderStep));
}

/** What the order's actions and 需要处理 read of it; price_difference_due: the open price difference (cents, 0 when none). */
export interface ActionOrder {
  status: string;
  step: string | null;
  departure_date: string;
  price_difference_due?: number;
}

/** A processing order with an open price difference: the customer has to pay it (补差价). */
export function owesPriceDifference(order: ActionOrder): boolean {
  return order.status === 'processing' && (order.price_difference_due ?? 0) > 0;
}

export function orderActions(order: ActionOrder, today: string): OrderAction[] {
  const actions: OrderAction[] = [];
  if (isDeparturePast(order, today)) actions.push('choose_departure_date');
  if (order.status === 'draft') actions.push('continue');
  if (order.status === 'pending_payment') actions.push('pay');
  if (order.status === 'processing' && order.step === 'reupload_needed') actions.push('reupload');
  if (order.status === 'processing' && order.step === 'awaiting_mail') actions.push('mail_materials');
  if (order.status === 'processing' && order.step === 'page_check') actions.push('confirm_page_check');
  if (owesPriceDifference(order)) actions.push('pay_price_difference');
  if (order.status === 'processing' && order.step === 'interview') actions.push('view_interview_notice');
  if (UNPAID_STATUSES.includes(order.status as OrderStatus)) actions.push('cancel');
  return actions;
}

/** Needs action = the customer has something to do other than finishing or paying an unpaid order. */
export function needsAction(order: ActionOrder, today: string): boolean {
  if (isDeparturePast(order, today) || owesPriceDifference(order)) return true;
  return order.status === 'processing' && CUSTOMER_ACTION_STEPS.includes(order.step as OrderStep);
}

// ── Where an order is, for the pages and the views (issue 24) ────────────
// The one place besides the lifecycle that names statuses and steps: pages ask
// these (or the view's allowed_events) instead of comparing literals, which the
// lint rule (eslint.config.js ORDER_LITERAL_FREE_FILES) refuses elsewhere.
/** What the place helpers read of an order (a summary, a detail, a workbench, a row). */
export interface PlacedOrder {
  status: string;
  step: string | null;
}

/** Paid and being handled, or done: the steps' reviews and notices are shown. */
export const HANDLED_STATUSES = ['processing', 'completed'] as const satisfies readonly OrderStatus[];
/** Closed after payment: completed, or refunded in full. */
export const FINISHED_STATUSES = ['completed', 'refunded'] as const satisfies readonly OrderStatus[];
/** Statuses whose card shows each applicant's own status (办理中/已出签/已拒签). */
export const APPLICANT_STATUS_SHOWN_STATUSES = ['processing', 'completed', 'refunded'] as const satisfies readonly OrderStatus[];
/** The page check exists from its step on: its section and panel show from here. */
export const PAGE_CHECK_SHOWN_STEPS = ['page_check', 'interview', 'submitted', 'returning'] as const satisfies readonly OrderStep[];
/** At the embassy or on the way back: visa results and the return parcel show from here. */
export const RESULT_SHOWN_STEPS = ['submitted', 'returning'] as const satisfies readonly OrderStep[];

/** Is the order in one of these statuses? */
export function hasStatus(order: { status: string }, statuses: readonly OrderStatus[]): boolean {
  return statuses.includes(order.status as OrderStatus);
}

/** Is the order processing, in this step? */
export function atStep(order: PlacedOrder, step: OrderStep): boolean {
  return order.status === 'processing' && order.step === step;
}

/** Is this the view's step? (A view without the status: a step is set only while processing.) */
export function stepIs(view: { step: string | null }, step: OrderStep): boolean {
  return view.step === step;
}

/** Is the order processing, in one of these steps? */
export function isProcessingIn(order: PlacedOrder, steps: readonly OrderStep[]): boolean {
  return order.status === 'processing' && order.step !== null && steps.includes(order.step as OrderStep);
}

export function isDraft(order: { status: string }): boolean {
  return order.status === 'draft';
}

/** Confirmed, waiting for the customer's payment. */
export function awaitsPayment(order: { status: string }): boolean {
  return order.status === 'pending_payment';
}

export function isUnpaid(order: { status: string }): boolean {
  return hasStatus(order, UNPAID_STATUSES);
}

export function isProcessing(order: { status: string }): boolean {
  return order.status === 'processing';
}

export function isCancelled(order: { status: string }): boolean {
  return order.status === 'cancelled';
}

export function isRefunded(order: { status: string }): boolean {
  return order.status === 'refunded';
}

/**
 * Where a draft resumes: materials first, then the interview time (when the
 * product needs one), then the confirmation; a confirmed order is paid next.
 */
export function draftResumesAt(
  order: PlacedOrder & { need_interview: boolean },
  progress: { materialsMissing: boolean; interviewsMissing: boolean },
): OrderingStep | null {
  if (awaitsPayment(order)) return 'pay';
  if (!isDraft(order)) return null;
  if (progress.materialsMissing) return 'upload';
  if (order.need_interview && progress.interviewsMissing) return 'interview';
  return 'confirm';
}

/**
 * The lifecycle event behind each customer action: a page shows the action's
 * button only when the order view's allowed_events holds it. Actions without
 * one (paying a price difference, reading the interview notice) are not the
 * order's own transitions and follow the server's `actions` alone.
 */
export const ACTION_EVENTS: Readonly<Partial<Record<OrderAction, OrderEventName>>> = {
  continue: 'confirm',
  pay: 'payment_create',
  cancel: 'cancel',
  choose_departure_date: 'departure_date_update',
  reupload: 'reupload_submit',
  mail_materials: 'mail_send',
  confirm_page_check: 'page_check_confirm',
};

/** May the customer take this action now? Without allowed_events (the list's summaries), the server's actions decide alone. */
export function actionAllowed(action: OrderAction, allowedEvents: readonly OrderEventName[] | undefined): boolean {
  const event = ACTION_EVENTS[action];
  return event === undefined || allowedEvents === undefined || allowedEvents.includes(event);
}

/** Is this event among the order view's allowed events? */
export function eventAllowed(order: { allowed_events: readonly OrderEventName[] }, event: OrderEventName): boolean {
  return order.allowed_events.includes(event);
}

// ── Calendar dates (China time) ───────────────────────────────────────────
// Dates are 'YYYY-MM-DD' in Asia/Shanghai, which is UTC+8 all year (no
// daylight saving since 1991), so no time-zone database is needed.

const CHINA_OFFSET_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The calendar date in China at an instant (epoch ms). */
export function chinaDate(epochMs: number): string {
  return new Date(epochMs + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}

/** 'YYYY-MM-DD' naming a day that exists (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 2000;
}

function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** Is this 'YYYY-MM-DD' a working day? The default knows weekends only; the server passes China's calendar. */
export type WorkingDayRule = (date: string) => boolean;

export const MONDAY_TO_FRIDAY: WorkingDayRule = (date) => {
  const weekday = new Date(dayNumber(date) * DAY_MS).getUTCDay();
  return weekday !== 0 && weekday !== 6;
};

/** Working days in [from, to). */
export function workingDaysBetween(from: string, to: string, isWorkingDay: WorkingDayRule = MONDAY_TO_FRIDAY): number {
  let count = 0;
  for (let day = dayNumber(from); day < dayNumber(to); day += 1) {
    if (isWorkingDay(new Date(day * DAY_MS).toISOString().slice(0, 10))) count += 1;
  }
  return count;
}

/** The first date whose preceding days from `from` hold `workingDays` working days. */
export function earliestDepartureDate(from: string, workingDays: number, isWorkingDay: WorkingDayRule = MONDAY_TO_FRIDAY): string {
  let date = from;
  while (workingDaysBetween(from, date, isWorkingDay) < workingDays) date = addDays(date, 1);
  return date;
}
