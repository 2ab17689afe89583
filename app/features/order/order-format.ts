// Pure helpers of the order pages (list, detail): what each action button
// says and where it leads, and the schedule's runs. No React here, so the
// rules are unit-tested. (Times and the countdown text: common/format.ts.)
import type { OrderAction } from '../../../common/order';
import { PRICE_DIFFERENCE_ANCHOR } from '../../../common/price-difference';

export const ACTION_LABELS: Record<OrderAction, string> = {
  continue: '继续办理',
  pay: '去支付',
  cancel: '取消订单',
  choose_departure_date: '修改出发日期',
  reupload: '重新上传资料',
  mail_materials: '寄送资料',
  confirm_page_check: '确认核对页',
  pay_price_difference: '补差价',
  view_interview_notice: '查看面试通知',
};

/**
 * Where an action that is a plain link leads. 'continue' needs the order's
 * ordering step and 'cancel' is a call, so they have no path here; the list's
 * 'choose_departure_date' goes to the detail page, which asks for the date.
 */
export function actionPath(action: OrderAction, userOrderId: number): string | null {
  switch (action) {
    case 'pay':
      return `/ordering/order-confirm/${userOrderId}`;
    case 'choose_departure_date':
      return orderDetailPath(userOrderId);
    case 'reupload':
      return `/order/order-reupload/${userOrderId}`;
    case 'mail_materials':
      return `/order/order-mail-list/${userOrderId}`;
    case 'confirm_page_check':
      return `/order/order-page-check/${userOrderId}`;
    case 'pay_price_difference':
      return `${orderDetailPath(userOrderId)}#${PRICE_DIFFERENCE_ANCHOR}`;
    case 'view_interview_notice':
      return `/order/order-interview-notification/${userOrderId}`;
    case 'continue':
    case 'cancel':
      return null;
  }
}

export function orderDetailPath(userOrderId: number): string {
  return `/order/order-detail/${userOrderId}`;
}

export interface ScheduleEntry<E> {
  event: E;
  /** How many events of the same kind, by the same actor, came in a row (uploads come in dozens). */
  count: number;
}

/** The schedule newest first, with runs of the same event by the same actor shown once with their count. */
export function scheduleEntries<E extends { event: string; actor: string; actor_name?: string | null }>(events: readonly E[]): Array<ScheduleEntry<E>> {
  const entries: Array<ScheduleEntry<E>> = [];
  for (const event of [...events].reverse()) {
    const last = entries.at(-1);
    if (last && last.event.event === event.event && last.event.actor === event.actor && last.event.actor_name === event.actor_name) last.count += 1;
    else entries.push({ event, count: 1 });
  }
  return entries;
}

/**
 * When the travellers' uploaded scans of a finished order were deleted at the
 * end of their retention (the first retention_purge event; a later one only
 * removes an e-visa whose validity ended), or null while they are kept.
 */
export function scansPurgedAt(events: readonly { event: string; created_at: number }[]): number | null {
  return events.find((event) => event.event === 'retention_purge')?.created_at ?? null;
}
