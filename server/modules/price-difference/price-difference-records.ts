// What other modules use of the price difference: the order detail's list
// (order module), the payable one and its settlement (payment module). The
// settlement runs inside the payment's transaction: it locks the row, checks
// it is still open, and returns the lifecycle change that marks it paid.
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { PriceDifferenceView } from '../../../common/contracts/price-difference.ts';
import { priceDifferenceStatusLabel } from '../../../common/price-difference.ts';
import type { Database } from '../../db/schema.ts';
import { type Change, subAllows, subFrom } from '../order/lifecycle.ts';
import { findOf, listOf, type PriceDifferenceRow } from './price-difference.repository.ts';

export function priceDifferenceView(row: PriceDifferenceRow): PriceDifferenceView {
  return {
    price_difference_id: row.price_difference_id,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    status_label: priceDifferenceStatusLabel(row.status),
    created_at: row.created_at,
    paid_at: row.paid_at,
    cancelled_at: row.cancelled_at,
  };
}

/** The order's price differences, newest first (the customer's order detail). */
export async function priceDifferencesOf(db: Kysely<Database>, userOrderId: number): Promise<PriceDifferenceView[]> {
  return (await listOf(db, userOrderId)).map(priceDifferenceView);
}

/** One price difference of the order (any state), or undefined. */
export function priceDifferenceOf(db: Kysely<Database>, userOrderId: number, priceDifferenceId: number) {
  return findOf(db, userOrderId, priceDifferenceId);
}

/** The state of a price difference by id (the payment dialog's answer). */
export async function priceDifferenceState(db: Kysely<Database>, priceDifferenceId: number) {
  const row = await db
    .selectFrom('price_difference')
    .select(['price_difference_id', 'status'])
    .where('price_difference_id', '=', priceDifferenceId)
    .executeTakeFirst();
  return row ? { price_difference_id: row.price_difference_id, status: row.status, status_label: priceDifferenceStatusLabel(row.status) } : null;
}

export interface DifferencePayment {
  user_order_id: number;
  price_difference_id: number;
  out_trade_no: string;
  amount: number;
  channel: string;
}

/**
 * Inside the settlement's transaction: the price difference a payment pays,
 * locked (PostgreSQL). Returns the change that books it when it is still
 * open and of this order and amount, else why the money must go back.
 */
export async function settleDifference(
  trx: Transaction<Database>,
  payment: DifferencePayment,
  order: { price_difference_paid: number },
  paid: { paid_at: number; provider_trade_no: string | null; source: string },
): Promise<{ ok: true; change: Change } | { ok: false; reason: 'difference_closed' }> {
  let query = trx.selectFrom('price_difference').selectAll().where('price_difference_id', '=', payment.price_difference_id);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
  const difference = await query.executeTakeFirst();
  if (
    !difference ||
    difference.user_order_id !== payment.user_order_id ||
    !subAllows('price_difference', 'pay', difference.status) ||
    difference.amount !== payment.amount
  ) {
    return { ok: false, reason: 'difference_closed' };
  }
  const id = difference.price_difference_id;
  return {
    ok: true,
    change: {
      event: 'price_difference_pay',
      set: { price_difference_due: 0, price_difference_paid: order.price_difference_paid + difference.amount },
      within: async (inner) => {
        const result = await inner
          .updateTable('price_difference')
          .set({ status: 'paid', paid_at: paid.paid_at, out_trade_no: payment.out_trade_no, updated_at: paid.paid_at })
          .where('price_difference_id', '=', id)
          .where('status', 'in', subFrom('price_difference', 'pay'))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw new Error(`price difference ${id} changed during settlement`);
      },
      detail: {
        price_difference_id: id,
        amount: difference.amount,
        out_trade_no: payment.out_trade_no,
        channel: payment.channel,
        provider_trade_no: paid.provider_trade_no,
        paid_at: paid.paid_at,
        source: paid.source,
      },
    },
  };
}
