// The refund of a refused applicant (issue 11; the agreed interface between
// the result service and the refund module, decision 0026).
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createOrderLifecycle } from '../order/lifecycle.ts';
import { createRejectionRefund } from './refund-records.ts';

/**
 * Called by the result service inside the transaction of a `result_reject` change (from its `within`),
 * once per rejected applicant. When the order has reject_refund = 1 it creates that applicant's refund
 * exactly once (a unique key in the database, not a check in memory); otherwise it does nothing.
 * The provider is called after commit (never inside the transaction).
 *
 * What it writes, all in the caller's transaction: the refund row (kind rejection, status pending; the
 * amount is the applicant's share, docs/order-rules.md "Refunds") and a `refund_create` audit row with
 * the customer's notice. refund_create is a record in the lifecycle (it does not change the order row
 * or its version), so it fits inside another change's `within`. Called again for the same applicant it
 * answers the refund made the first time and writes nothing. Returns null when the product has no
 * 拒签退全款, the applicant is not of the order, or nothing of the order's payment is left to give back.
 * The refund worker sends it to the payment provider right after the caller's transaction commits
 * (refund_create's after-commit hook, decision 0034); its sweep catches it otherwise.
 */
export async function refundOnRejection(
  trx: Transaction<Database>,
  input: { userOrderId: number; applicantId: number; at: number },
): Promise<{ refundId: number; amount: number } | null> {
  // The order lifecycle joins the caller's transaction: the refund_create record is its change.
  return createOrderLifecycle(trx, { now: () => input.at }).transaction((tx) => createRejectionRefund(tx, input), input.at);
}
