// Pure helpers of the order pages (list, detail): times in China time, the
// unpaid order's countdown, and what each action button says and where it
// leads. No React here, so the rules are unit-tested.
import type { OrderAction } from '../../../common/order';

const CHINA_OFFSET_MS = 8 * 3_600_000;
const MINUTE_MS = 60_000;

/** Epoch ms → 'YYYY-MM-DD HH:mm' in China time, the same on the server and in any browser zone. */
export function formatDateTime(epochMs: number): string {
  const iso = new Date(epochMs + CHINA_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/**
 * The countdown of an unpaid order: 'x小时x分后自动取消'. Minutes are rounded
 * up, so the text never claims less time than is left.
 */
export function expiryText(expiresAt: number, now: number): string {
  const left = expiresAt - now;
  if (left <= 0) return '即将自动取消';
  const totalMinutes = Math.ceil(left / MINUTE_MS);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (hours === 0) return `${minutes}分后自动取消`;
  return `${hours}小时${minutes}分后自动取消`;
}

export const ACTION_LABELS: Record<OrderAction, string> = {
  continue: '继续办理',
  pay: '去支付',
  cancel: '取消订单',
  choose_departure_date: '修改出发日期',
  reupload: '重新上传资料',
  mail_materials: '邮寄资料',
  confirm_page_check: '确认核对页',
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
export function scheduleEntries<E extends { event: string; actor: string }>(events: readonly E[]): Array<ScheduleEntry<E>> {
  const entries: Array<ScheduleEntry<E>> = [];
  for (const event of [...events].reverse()) {
    const last = entries.at(-1);
    if (last && last.event.event === event.event && last.event.actor === event.actor) last.count += 1;
    else entries.push({ event, count: 1 });
  }
  return entries;
}
