// Orders as the API and the pages see them: statuses, processing steps, the
// order list's tabs and the call shapes. The rules are in docs/order-rules.md
// (on top of the design's order lifecycle).
import { IDENTITIES } from './constants.ts';
import type { ApplicantInterview, InsuranceSnapshot, OrderingStep, PaymentView, ReturnAddressSnapshot } from './ordering.ts';

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

export const ORDER_EVENTS = {
  create: '创建订单',
  cancel: '取消订单',
  expire: '超时未支付，自动取消',
  material_upload: '上传资料',
  material_replace: '替换资料',
  material_delete: '删除资料',
  effect_date: '选择生效日期',
  interview_choose: '选择面试时间',
  confirm: '确认订单',
  payment_create: '发起支付',
  pay: '支付成功',
  departure_date_update: '修改出发日期',
  payment_refund_due: '重复支付，待退款',
} as const;

export type OrderActor = 'customer' | 'operator' | 'system';

export const ORDER_LIMITS = {
  minApplicants: 1,
  maxApplicants: 20,
  applicantNameMaxLength: 30,
  cancelReasonMaxLength: 200,
  /** An unpaid order is cancelled this long after it was created. */
  unpaidTtlMs: 24 * 3_600_000,
  /** A departure date further than this is refused as a typo. */
  maxDepartureDaysAhead: 366,
  pageSize: 10,
} as const;

export const MOBILE_PHONE_PATTERN = /^1[3-9]\d{9}$/;

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
export type OrderAction = 'continue' | 'pay' | 'cancel' | 'choose_departure_date' | 'reupload' | 'mail_materials' | 'confirm_page_check';

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

export function orderActions(order: { status: string; step: string | null; departure_date: string }, today: string): OrderAction[] {
  const actions: OrderAction[] = [];
  if (isDeparturePast(order, today)) actions.push('choose_departure_date');
  if (order.status === 'draft') actions.push('continue');
  if (order.status === 'pending_payment') actions.push('pay');
  if (order.status === 'processing' && order.step === 'reupload_needed') actions.push('reupload');
  if (order.status === 'processing' && order.step === 'awaiting_mail') actions.push('mail_materials');
  if (order.status === 'processing' && order.step === 'page_check') actions.push('confirm_page_check');
  if (UNPAID_STATUSES.includes(order.status as OrderStatus)) actions.push('cancel');
  return actions;
}

/** Needs action = the customer has something to do other than finishing or paying an unpaid order. */
export function needsAction(order: { status: string; step: string | null; departure_date: string }, today: string): boolean {
  if (isDeparturePast(order, today)) return true;
  return order.status === 'processing' && CUSTOMER_ACTION_STEPS.includes(order.step as OrderStep);
}

// ── API shapes ────────────────────────────────────────────────────────────

export interface OrderApplicantInput {
  name: string;
  identity_id: number;
  mobile_phone: string;
  email?: string | null;
}

export interface OrderCreateInput {
  visa_product_id: number;
  consular_district_id?: number | null;
  /** YYYY-MM-DD */
  departure_date: string;
  /** YYYY-MM-DD, the day the application is started/submitted; today (China time) when absent. */
  order_date?: string | null;
  applicants: OrderApplicantInput[];
}

export interface DepartureWarning {
  message: string;
  /** Working days (Mon–Fri) from the order date to the day before departure. */
  working_days: number;
  need_days: number;
  /** The first departure date that leaves need_days working days. */
  earliest_departure_date: string;
}

export interface OrderCreateResult {
  user_order_id: number;
  expires_at: number;
  /** The departure date leaves fewer working days than the product usually needs (not refused). */
  departure_warning: DepartureWarning | null;
}

export interface OrderApplicantSummary {
  applicant_id: number;
  name: string;
  identity_id: number;
  identity_label: string;
  status: string;
  status_label: string;
}

export interface OrderApplicant extends OrderApplicantSummary {
  mobile_phone: string;
  email: string | null;
  passport_no: string | null;
  /** Covered by the order's insurance plan. */
  insured: boolean;
  /** The chosen interview/fingerprint time; null when none (yet). */
  interview: ApplicantInterview | null;
  /** Files uploaded for this applicant (materials and photo). */
  material_file_count: number;
}

/** An order card of the list. */
export interface OrderSummary {
  user_order_id: number;
  status: OrderStatus;
  status_label: string;
  step: OrderStep | null;
  step_label: string | null;
  visa_product_id: number;
  product_title: string;
  country: string;
  visa_type: string;
  consular_district: { consular_district_id: number; name: string } | null;
  departure_date: string;
  order_date: string;
  unit_price: number;
  applicant_count: number;
  total_amount: number;
  created_at: number;
  /** When an unpaid order is cancelled automatically; null once paid or closed. */
  expires_at: number | null;
  departure_date_past: boolean;
  needs_action: boolean;
  actions: OrderAction[];
  applicants: OrderApplicantSummary[];
}

export interface OrderEventView {
  event: string;
  event_label: string;
  actor: OrderActor;
  from_status: string | null;
  to_status: string | null;
  created_at: number;
}

export interface OrderDetail extends Omit<OrderSummary, 'applicants'> {
  visa_country_id: number;
  need_interview: boolean;
  reject_refund: boolean;
  updated_at: number;
  cancelled_at: number | null;
  cancel_reason: string | null;
  /** Changes with every state change (optimistic concurrency). */
  version: number;
  applicants: OrderApplicant[];
  /** The audit log, oldest first: the schedule of the detail page. */
  events: OrderEventView[];
  /** 'YYYY-MM-DD' the visa should take effect; null = from the departure date. */
  effect_date: string | null;
  /** cents: unit_price × applicant_count */
  product_amount: number;
  insurance_amount: number;
  discount_amount: number;
  insurance: InsuranceSnapshot | null;
  return_address: ReturnAddressSnapshot | null;
  payments: PaymentView[];
  confirmed_at: number | null;
  paid_at: number | null;
  /** For a draft: the first ordering step not done yet (where "continue" leads); 'pay' when pending_payment; null otherwise. */
  ordering_step: OrderingStep | null;
  /** Required electronic materials (and photos) still missing, per applicant; empty when complete. */
  missing_materials: Array<{ applicant_id: number; applicant_name: string; material_id: number | null; name: string }>;
}

export interface OrderListResult {
  page_data: OrderSummary[];
  total_count: number;
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
