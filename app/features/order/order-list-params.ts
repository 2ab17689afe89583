// The order list's place in the URL (?tab=unpaid&page=2): read by the route's
// loader and written by the page, so a reload or the back button keeps them.
import type { OrderListScope } from '../../../common/contracts/order';
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

/** 全部 / 我的订单 (issue 29): ?mine=1 for the orders the colleague placed. */
export function parseScope(value: string | null): OrderListScope {
  return value === '1' ? 'mine' : 'all';
}

/** The search of a tab and page: the defaults (全部, page 1, the whole enterprise) are left out. */
export function orderListSearch(tab: OrderListTabKey, page: number, scope: OrderListScope = 'all'): URLSearchParams {
  const params = new URLSearchParams();
  if (scope === 'mine') params.set('mine', '1');
  if (tab !== 'all') params.set('tab', tab);
  if (page > 1) params.set('page', String(page));
  return params;
}

export function orderListPath(tab: OrderListTabKey, page: number, scope: OrderListScope = 'all'): string {
  const search = orderListSearch(tab, page, scope).toString();
  return search ? `/order/order-list?${search}` : '/order/order-list';
}
