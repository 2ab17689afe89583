// PLACEHOLDER — the issue11-refunds branch replaces this file
// The refund on rejection (issue 11, agreed interface between RESULTS and
// REFUNDS): called by the result service inside the transaction of a
// `result_reject` change (from its `within`), once per rejected applicant.
// This placeholder creates nothing; REFUNDS's version creates the applicant's
// refund exactly once when the order has reject_refund = 1.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Called by the result service inside the transaction of a `result_reject` change (from its `within`),
 * once per rejected applicant. When the order has reject_refund = 1 it creates that applicant's refund
 * exactly once (a unique key in the database, not a check in memory); otherwise it does nothing.
 * The provider is called after commit (never inside the transaction).
 */
export async function refundOnRejection(
  _trx: Transaction<Database>,
  _input: { userOrderId: number; applicantId: number; at: number },
): Promise<{ refundId: number; amount: number } | null> {
  return null;
}
