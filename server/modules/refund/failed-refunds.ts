// Failed refunds still to redo (decision 0026, "A failed refund still to
// redo"): the provider refused them for good, their money is refundable
// again, and nobody has refunded it since. The 工作台 counts them and the
// work queue's 退款失败 filter lists their orders, so an operator is told
// instead of having to open the order by chance.
//
// The rule, on one failed refund F of order O:
//   1. no manual or close refund of O was created after F (created_at
//      strictly later): the supervisor's refund by hand after a failure is the
//      redo — the panel showed them every failed row and they chose the
//      amount, so it answers every failure before it. If the redo fails in its
//      turn, it is the failed refund to redo (one, not two: the same money).
//      Rejection refunds are made by the system, never in answer to a failure,
//      so they do not count. Strictly later, because the rows of one refund by
//      hand (spread over payments) share their created_at: a part that
//      succeeded does not clear a sibling part that failed;
//   2. O can still give money back (paid − refunds not failed > 0): when the
//      rest of the refunds has given back everything paid, nothing is owed;
//   3. O is processing or completed: where a supervisor can refund again
//      (refund_create's guard). A refunded order (a failed close refund) is
//      left out — see the decision's "Not done".
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The order statuses where a supervisor can refund again (refund_create's guard). */
const REDO_STATUSES = ['processing', 'completed'] as const;

/** The failed refunds still to redo: their refund_id and order. */
export function failedRefundsToRedo(db: Db) {
  return db
    .selectFrom('refund as failed')
    .innerJoin('user_order', 'user_order.user_order_id', 'failed.user_order_id')
    .select(['failed.refund_id', 'failed.user_order_id'])
    .where('failed.status', '=', 'failed')
    .where('user_order.status', 'in', REDO_STATUSES)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('refund as redo')
            .select('redo.refund_id')
            .whereRef('redo.user_order_id', '=', 'failed.user_order_id')
            .where('redo.kind', 'in', ['manual', 'close'])
            .whereRef('redo.created_at', '>', 'failed.created_at'),
        ),
      ),
    )
    .where((eb) =>
      eb(
        eb
          .selectFrom('payment')
          .select((sub) => sub.fn.coalesce(sub.fn.sum<number>('payment.amount'), sub.val(0)).as('paid'))
          .whereRef('payment.user_order_id', '=', 'failed.user_order_id')
          .where('payment.status', '=', 'paid'),
        '>',
        eb
          .selectFrom('refund as given')
          .select((sub) => sub.fn.coalesce(sub.fn.sum<number>('given.amount'), sub.val(0)).as('given'))
          .whereRef('given.user_order_id', '=', 'failed.user_order_id')
          .where('given.status', '!=', 'failed'),
      ),
    );
}

/** The orders with a failed refund still to redo (a subquery for the work queue's filter). */
export function ordersWithRefundToRedo(db: Db) {
  return failedRefundsToRedo(db).clearSelect().select('failed.user_order_id');
}

/** How many failed refunds are still to redo, and on how many orders (the 工作台's alert). */
export async function countRefundsToRedo(db: Db): Promise<{ refund_count: number; order_count: number }> {
  const row = await db
    .selectFrom(failedRefundsToRedo(db).as('todo'))
    .select((eb) => [eb.fn.countAll<number>().as('refunds'), eb.fn.count<number>('todo.user_order_id').distinct().as('orders')])
    .executeTakeFirstOrThrow();
  return { refund_count: Number(row.refunds), order_count: Number(row.orders) };
}
