// Payment queries: our payment rows, the provider's notifications as
// received, and what the payment module reads of an order. Booking the money
// (the one transaction that marks a payment and its order paid) is in
// settlement.ts.
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { PaymentChannel } from '../../../common/ordering.ts';
import type { Database, PaymentNotificationTable, PaymentTable } from '../../db/schema.ts';

export type PaymentRow = Selectable<PaymentTable>;

export function createPaymentRepository(db: Kysely<Database>) {
  const payments = () => db.selectFrom('payment').selectAll();

  return {
    /** The event that cancelled the order (expire or cancel), if it is cancelled. */
    cancellation(userOrderId: number) {
      return db
        .selectFrom('order_event')
        .select(['event', 'from_status', 'created_at'])
        .where('user_order_id', '=', userOrderId)
        .where('to_status', '=', 'cancelled')
        .orderBy('event_id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    byTradeNo(outTradeNo: string) {
      return payments().where('out_trade_no', '=', outTradeNo).executeTakeFirst();
    },

    ofOrder(userOrderId: number, outTradeNo: string) {
      return payments().where('user_order_id', '=', userOrderId).where('out_trade_no', '=', outTradeNo).executeTakeFirst();
    },

    latest(userOrderId: number) {
      return payments().where('user_order_id', '=', userOrderId).orderBy('payment_id', 'desc').limit(1).executeTakeFirst();
    },

    pending(userOrderId: number) {
      return payments().where('user_order_id', '=', userOrderId).where('status', '=', 'pending').orderBy('payment_id').execute();
    },

    /** A pending QR code of this channel and amount (and price difference, or the order's own) that still has `validAfter` to live. */
    reusable(userOrderId: number, channel: PaymentChannel, amount: number, validAfter: number, priceDifferenceId: number | null = null) {
      return payments()
        .where('user_order_id', '=', userOrderId)
        .where('price_difference_id', priceDifferenceId === null ? 'is' : '=', priceDifferenceId)
        .where('status', '=', 'pending')
        .where('channel', '=', channel)
        .where('amount', '=', amount)
        .where('expires_at', '>', validAfter)
        .orderBy('payment_id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** Inside the lifecycle's 'payment_create' transaction. */
    async insert(trx: Transaction<Database>, payment: Insertable<PaymentTable>): Promise<void> {
      await trx.insertInto('payment').values(payment).execute();
    },

    /** A price difference's payment (no lifecycle event: the order does not change). */
    async insertRow(payment: Insertable<PaymentTable>): Promise<void> {
      await db.insertInto('payment').values(payment).execute();
    },

    /** pending → closed; false when it was paid (or closed) meanwhile. */
    async close(paymentId: number): Promise<boolean> {
      const result = await db
        .updateTable('payment')
        .set({ status: 'closed' })
        .where('payment_id', '=', paymentId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Pending payments past their expiry: the provider knows by now whether they were paid. */
    duePending(at: number, limit: number) {
      return payments().where('status', '=', 'pending').where('expires_at', '<=', at).orderBy('expires_at').orderBy('payment_id').limit(limit).execute();
    },

    /** How many pending payments are past their expiry (the reconciliation job's backlog). */
    async countDuePending(at: number): Promise<number> {
      const row = await db
        .selectFrom('payment')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'pending')
        .where('expires_at', '<=', at)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    recordNotification(row: Insertable<PaymentNotificationTable>) {
      return db.insertInto('payment_notification').values(row).execute();
    },
  };
}

export type PaymentRepository = ReturnType<typeof createPaymentRepository>;
