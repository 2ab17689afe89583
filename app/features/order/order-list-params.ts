// The order list's place in the URL (?tab=unpaid&page=2): read by the route's
// loader and written by the page, so a reload or the back button keeps them.
import { ORDER_LIMITS } from '../../../common/contracts/rules';
import { ORDER_LIST_TABS, type OrderListTabKey } from '../../../common/order';

export function parseTab(value: string | null): OrderListTabKey {
  return ORDER_LIST_TABS.find((tab) => tab.key === value)?.key ?? 'all';
}

export function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

export function lastPage(totalCount: number): number {
  return Math.max(1, Math.ceil(totalCount / ORDER_LIMITS.pageSize));
}

/** The search of a tab and page: the defaults (全部, page 1) are left out. */
export function orderListSearch(tab: OrderListTabKey, page: number): URLSearchParams {
  const params = new URLSearchParams();
  if (tab !== 'all') params.set('tab', tab);
  if (page > 1) params.set('page', String(page));
  return params;
}

export function orderListPath(tab: OrderListTabKey, page: number): string {
  const search = orderListSearch(tab, page).toString();
  return search ? `/order/order-list?${search}` : '/order/order-list';
}
