// Booking money the provider says has arrived, for one payment — the single
// function the notification, the client's query fallback and the
// reconciliation sweep all go through. One transaction; on PostgreSQL the
// payment row and then the order row are locked (always in that order), on
// SQLite transactions run one at a time anyway, so every decision is taken
// on rows nobody else can change meanwhile. Idempotent: a payment already
// booked (paid or refund_pending) is a duplicate and nothing changes.
//
// What happens to money that arrives (docs/order-rules.md, "Payment"):
// - order pending_payment and the payment's amount is the order's total
//   → payment paid; order processing / material_review; event 'pay'.
// - order cancelled by the expiry sweep while it was pending_payment, the
//   provider took the money before the payment's own expiry (which is never
//   after the order's), and the product has no interview step → the same, the
//   order is revived (event 'pay', revived). With an interview step the
//   expiry gave the applicants' places back to other customers, so the order
//   cannot simply go on: the money is refunded instead (order_expired).
// - anything else (paid by another payment, cancelled by the customer,
//   refunded, total changed since the QR code was made) → payment
//   refund_pending and an order_event 'payment_refund_due' for the operators.
// The partial unique index "one paid payment per order" backs this up: a
// second paid row cannot be stored, whatever happens.
import { PostgresAdapter } from 'kysely';
import { awaitsPayment, HANDLED_STATUSES, hasStatus, isCancelled, isProcessing } from '../../../common/order.ts';
import { SYSTEM } from '../../platform/principal.ts';
import { type Change, LifecycleConflict, type LifecycleTransaction, type OrderLifecycle } from '../order/lifecycle.ts';
import { settleDifference } from '../price-difference/price-difference-records.ts';

export type SettleSource = 'notify' | 'query' | 'close' | 'sweep' | 'expiry';
export type SettleOutcome = 'paid' | 'revived' | 'duplicate' | 'refund_due' | 'amount_mismatch' | 'unknown_trade';

export interface SettleInput {
  out_trade_no: string;
  provider_trade_no: string | null;
  /** cents, as the provider reports it */
  amount: number;
  /** when the provider took the money */
  paid_at: number;
  source: SettleSource;
}

export interface SettleResult {
  outcome: SettleOutcome;
  user_order_id: number | null;
  /** Why money is due back (refund_due only). */
  refund_reason?: 'order_paid' | 'order_cancelled' | 'order_expired' | 'order_status' | 'amount_changed' | 'difference_closed';
}

export const PAID_STEP = 'material_review';

class SettleConflict extends Error {}

/**
 * Settles one payment in a transaction of the order lifecycle: the payment's
 * row is written through tx.trx and the order's change (pay, price_difference_pay,
 * payment_refund_due) through the lifecycle, so they commit together.
 */
export async function settlePayment(lifecycle: OrderLifecycle, input: SettleInput, at: number): Promise<SettleResult> {
  // A conditional UPDATE that does not hit exactly one row means the locks did
  // not hold (should not happen): roll back and let the caller's retry decide anew.
  const expectOne = (result: { numUpdatedRows: bigint }) => {
    if (Number(result.numUpdatedRows) !== 1) throw new SettleConflict('payment or order changed during settlement');
  };

  const attempt = () =>
    lifecycle.transaction(async (tx: LifecycleTransaction): Promise<SettleResult> => {
      const { trx } = tx;
      const pg = trx.getExecutor().adapter instanceof PostgresAdapter;
      let paymentQuery = trx.selectFrom('payment').selectAll().where('out_trade_no', '=', input.out_trade_no);
      if (pg) paymentQuery = paymentQuery.forUpdate();
      const payment = await paymentQuery.executeTakeFirst();
      if (!payment) return { outcome: 'unknown_trade', user_order_id: null };
      if (payment.amount !== input.amount) return { outcome: 'amount_mismatch', user_order_id: payment.user_order_id };
      if (payment.status === 'paid' || payment.status === 'refund_pending') return { outcome: 'duplicate', user_order_id: payment.user_order_id };

      let orderQuery = trx
        .selectFrom('user_order')
        .select(['user_order_id', 'status', 'step', 'total_amount', 'version', 'need_interview', 'expires_at', 'departure_date', 'price_difference_paid'])
        .where('user_order_id', '=', payment.user_order_id);
      if (pg) orderQuery = orderQuery.forUpdate();
      const locked = await orderQuery.executeTakeFirstOrThrow();
      const order = { ...locked, need_interview: locked.need_interview === 1 };

      const detail = {
        out_trade_no: payment.out_trade_no,
        channel: payment.channel,
        amount: payment.amount,
        provider_trade_no: input.provider_trade_no,
        paid_at: input.paid_at,
        source: input.source,
      };
      const markPayment = async (status: 'paid' | 'refund_pending') =>
        expectOne(
          await trx
            .updateTable('payment')
            .set({ status, provider_trade_no: input.provider_trade_no, paid_at: input.paid_at })
            .where('payment_id', '=', payment.payment_id)
            .where('status', '=', payment.status)
            .executeTakeFirst(),
        );

      // A price difference's payment (补差价): books the open price difference, or goes back.
      if (payment.price_difference_id !== null) {
        const settled = isProcessing(order)
          ? await settleDifference(trx, { ...payment, price_difference_id: payment.price_difference_id }, order, input)
          : { ok: false as const, reason: 'order_status' as const };
        if (settled.ok) {
          await markPayment('paid');
          await tx.change(order, settled.change, SYSTEM);
          return { outcome: 'paid', user_order_id: order.user_order_id };
        }
        await markPayment('refund_pending');
        await tx.change(
          order,
          { event: 'payment_refund_due', detail: { ...detail, price_difference_id: payment.price_difference_id, reason: settled.reason } },
          SYSTEM,
        );
        return { outcome: 'refund_due', user_order_id: order.user_order_id, refund_reason: settled.reason };
      }

      const amountFits = payment.amount === order.total_amount;
      let decision: 'pay' | 'revive' | SettleResult['refund_reason'];
      if (awaitsPayment(order)) {
        decision = amountFits ? 'pay' : 'amount_changed';
      } else if (isCancelled(order)) {
        const cancellation = await trx
          .selectFrom('order_event')
          .select(['event', 'from_status'])
          .where('user_order_id', '=', order.user_order_id)
          .where('to_status', '=', 'cancelled')
          .orderBy('event_id', 'desc')
          .limit(1)
          .executeTakeFirst();
        const paidInTime =
          cancellation?.event === 'expire' && awaitsPayment({ status: cancellation.from_status ?? '' }) && input.paid_at <= payment.expires_at && amountFits;
        decision = !paidInTime ? 'order_cancelled' : !order.need_interview ? 'revive' : 'order_expired';
      } else if (hasStatus(order, HANDLED_STATUSES)) {
        decision = 'order_paid';
      } else {
        decision = 'order_status';
      }

      if (decision === 'pay' || decision === 'revive') {
        expectOne(
          await trx
            .updateTable('payment')
            .set({ status: 'paid', provider_trade_no: input.provider_trade_no, paid_at: input.paid_at })
            .where('payment_id', '=', payment.payment_id)
            .where('status', '=', payment.status)
            .executeTakeFirst(),
        );
        const pay: Change = {
          event: 'pay',
          set: { paid_at: input.paid_at, expires_at: null, ...(decision === 'revive' ? { cancelled_at: null, cancel_reason: null } : {}) },
          detail: decision === 'revive' ? { ...detail, revived: true } : detail,
        };
        await tx.change(order, pay, SYSTEM);
        return { outcome: decision === 'revive' ? 'revived' : 'paid', user_order_id: order.user_order_id };
      }

      // The money has to go back: keep it visible to the operators, never lose it.
      expectOne(
        await trx
          .updateTable('payment')
          .set({ status: 'refund_pending', provider_trade_no: input.provider_trade_no, paid_at: input.paid_at })
          .where('payment_id', '=', payment.payment_id)
          .where('status', '=', payment.status)
          .executeTakeFirst(),
      );
      await tx.change(order, { event: 'payment_refund_due', detail: { ...detail, reason: decision } }, SYSTEM);
      return { outcome: 'refund_due', user_order_id: order.user_order_id, refund_reason: decision };
    }, at);

  // SQLite has no row locks; PostgreSQL's could in theory be bypassed by a
  // writer that does not lock: a conflict is re-decided on fresh rows.
  for (let round = 0; ; round += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof SettleConflict || error instanceof LifecycleConflict) || round >= 2) throw error;
    }
  }
}
