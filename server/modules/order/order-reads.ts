// The order's own rows as the views above it read them (server/modules/order-view/):
// the order module's read side, so a view never reaches into its repository.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createOrderRepository } from './order.repository.ts';

export type { OrderRow } from './order.repository.ts';

export function createOrderReads(db: Kysely<Database>) {
  const repo = createOrderRepository(db);
  return {
    /** One page of an enterprise's orders in a list tab, and how many there are. */
    listOrders: repo.listOrders,
    /** The applicants of these orders, in their order. */
    applicants: repo.applicants,
    /** The order's lifecycle records, oldest first. */
    events: repo.events,
    /** Uploaded files per applicant. */
    fileCounts: repo.fileCounts,
    payments: repo.payments,
    /** Does the product ask any of these identities for mailed paper materials? */
    mailsPaper: repo.mailsPaper,
  };
}
