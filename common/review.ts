// The back office's material review as both sides see it: the common no-pass
// reasons the operator picks from, the memo's limits and how a memo is
// composed, and the queue's page size. Rules: docs/order-rules.md ("Material
// review").

/** Common reasons for a no-pass (per material, the operator picks any of them and/or writes a memo). */
export const REVIEW_REASONS = {
  blurred: '模糊不清',
  cut_off: '未拍全/有裁切',
  expired: '已过期',
  wrong_document: '证件不符',
} as const;
export type ReviewReason = keyof typeof REVIEW_REASONS;
export const REVIEW_REASON_VALUES = Object.keys(REVIEW_REASONS) as [ReviewReason, ...ReviewReason[]];

export const REVIEW_LIMITS = {
  /** The free-text part of a no-pass memo (其他). */
  memoMaxLength: 200,
  queuePageSize: 20,
  queueMaxPageSize: 100,
  /** The search box: an order id, an applicant's name or phone. */
  searchMaxLength: 30,
} as const;

/** What the customer reads: the reasons picked, then the operator's own words. "模糊不清；已过期；请上传彩色扫描件" */
export function composeMemo(reasons: readonly ReviewReason[], memo: string | null): string {
  const parts: string[] = reasons.map((reason) => REVIEW_REASONS[reason]);
  const own = memo?.trim();
  if (own) parts.push(own);
  return parts.join('；');
}

/** The queue's assignee filter: everyone's, nobody's, mine, or one operator's (id). */
export type AssigneeFilter = 'all' | 'none' | 'me' | number;

/** How long an order has been in its step: "2天3小时", "5小时12分", "8分钟". */
export function durationText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days}天${hours}小时`;
  if (hours > 0) return `${hours}小时${minutes % 60}分`;
  return `${minutes}分钟`;
}

/**
 * The queue's refund filter (`refund=failed`, 退款失败): the orders with a
 * failed refund whose money has not been refunded again since (decision 0026,
 * "A failed refund still to redo").
 */
export const QUEUE_REFUND_FILTERS = { failed: '退款失败' } as const;
export type QueueRefundFilter = keyof typeof QUEUE_REFUND_FILTERS;
export const QUEUE_REFUND_FILTER_VALUES = Object.keys(QUEUE_REFUND_FILTERS) as [QueueRefundFilter, ...QueueRefundFilter[]];

/** The work queue's courier filter (decision 0039): orders with a parcel whose tracking stopped or reported an exception. */
export const QUEUE_COURIER_FILTERS = { attention: '物流异常' } as const;
export type QueueCourierFilter = keyof typeof QUEUE_COURIER_FILTERS;
export const QUEUE_COURIER_FILTER_VALUES = Object.keys(QUEUE_COURIER_FILTERS) as [QueueCourierFilter, ...QueueCourierFilter[]];

/**
 * The queue's saved views (issue 27): presets of its filters, the operator's last choice kept on
 * the server (operator_queue_view, migration 040) and restored when the queue opens without a
 * filter in its URL. 即将超时: the step is due within QUEUE_DUE_SOON_MS, or already overdue.
 */
export const QUEUE_VIEWS = { mine: '我的待办', due_soon: '即将超时', all: '全部' } as const;
export type QueueView = keyof typeof QUEUE_VIEWS;
export const QUEUE_VIEW_VALUES = Object.keys(QUEUE_VIEWS) as [QueueView, ...QueueView[]];
export const QUEUE_DUE_SOON_MS = 24 * 60 * 60 * 1000;

/** The queue's order by due time: earliest first (overdue first, the default) or latest first. */
export const QUEUE_SORTS = { due_asc: '到期时间从早到晚', due_desc: '到期时间从晚到早' } as const;
export type QueueSort = keyof typeof QUEUE_SORTS;
export const QUEUE_SORT_VALUES = Object.keys(QUEUE_SORTS) as [QueueSort, ...QueueSort[]];

/** Orders one bulk take or assign may name. */
export const QUEUE_BULK_MAX = 100;
