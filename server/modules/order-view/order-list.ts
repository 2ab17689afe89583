// The customer's order list (order_list): one page of a tab, each order's
// summary and applicants with their visa dates.
import type { Kysely } from 'kysely';
import type { OrderListResult, OrderListScope } from '../../../common/contracts/order.ts';
import { ORDER_LIMITS } from '../../../common/contracts/rules.ts';
import { ORDER_LIST_TABS, type OrderListTabKey, chinaDate } from '../../../common/order.ts';
import type { Database } from '../../db/schema.ts';
import type { Customer } from '../../platform/principal.ts';
import { createOrderLifecycle } from '../order/lifecycle.ts';
import { createOrderReads } from '../order/order-reads.ts';
import { visaDatesOf } from '../result/result-records.ts';
import { applicantSummary, summaryOf } from './order-summary.ts';

export function createOrderList(db: Kysely<Database>, deps: { now: () => number }) {
  const orders = createOrderReads(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const { now } = deps;

  /** scope 'mine': the orders the caller placed (我的订单); 'all': every order of the enterprise. */
  return async function list(customer: Customer, tabKey: OrderListTabKey, page: number, scope: OrderListScope = 'all'): Promise<OrderListResult> {
    const at = now();
    const today = chinaDate(at);
    const tab = ORDER_LIST_TABS.find((candidate) => candidate.key === tabKey) ?? ORDER_LIST_TABS[0]!;
    // The list never shows a payable order whose time is up, even between two sweeps.
    await lifecycle.expireDue(at, { enterpriseId: customer.enterpriseId });
    const { rows, total } = await orders.listOrders(
      customer.enterpriseId,
      tab,
      today,
      (page - 1) * ORDER_LIMITS.pageSize,
      ORDER_LIMITS.pageSize,
      scope === 'mine' ? customer.accountId : undefined,
    );
    const applicants = await orders.applicants(rows.map((row) => row.user_order_id));
    const visaDates = await visaDatesOf(
      db,
      rows.map((row) => row.user_order_id),
    );
    return {
      total_count: total,
      page_data: rows.map((row) => ({
        ...summaryOf(row, today),
        applicants: applicants.filter((a) => a.user_order_id === row.user_order_id).map((a) => applicantSummary(a, visaDates)),
      })),
    };
  };
}
