// The customer's side of the order view: the order list and the order
// detail, each one call answering everything its page shows. The operator's
// side is the workbench (workbench*.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createOrderDetail } from './order-detail.ts';
import { createOrderList } from './order-list.ts';

export function createCustomerOrderView(db: Kysely<Database>, deps: { now: () => number }) {
  return { detail: createOrderDetail(db, deps), list: createOrderList(db, deps) };
}

export type CustomerOrderView = ReturnType<typeof createCustomerOrderView>;
