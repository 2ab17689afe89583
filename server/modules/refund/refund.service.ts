// Refunds by hand and the provider's refund notification (issue 11,
// decision 0026). A supervisor refunds part of what an order paid, with a
// reason, while it is processing or completed (refund_create), or closes it
// before submission with everything paid refunded (close_refund → refunded).
// Operators see the panel; only supervisors create refunds (2201). Refunds
// of refused applicants are made by the result itself (on-rejection.ts).
// Every refund is given to the provider after the commit by the worker
// (refund-worker.ts) and settled by the provider's signed notification
// (notify) or the worker's query. Rules: docs/order-rules.md, "Refunds".
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { RefundPanel } from '../../../common/contracts/refund.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { REFUND_LIMITS } from '../../../common/refund.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import { checkAllowed, createOrderLifecycle, LifecycleConflict, type OrderRow, stateAllows, subFrom } from '../order/lifecycle.ts';
import type { HeaderBag, NotificationAnswer, PaymentProvider } from '../payment/provider.ts';
import type { OperatorDirectory } from '../operator/directory.ts';
import { countRefundsToRedo } from './failed-refunds.ts';
import { applicantNames, insertSpread, lockOrder, refundablePayments, refundsOfOrder, refundView, settleRefund } from './refund-records.ts';

export interface RefundServiceDeps {
  now: () => number;
  operators: OperatorDirectory;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** The reason trimmed, inner white space made one space; null when too short or long. */
export function cleanRefundReason(reason: unknown): string | null {
  if (typeof reason !== 'string') return null;
  const clean = reason.replace(/\s+/g, ' ').trim();
  return clean.length >= REFUND_LIMITS.reasonMinLength && clean.length <= REFUND_LIMITS.reasonMaxLength ? clean : null;
}

export function createRefundService(db: Kysely<Database>, deps: RefundServiceDeps) {
  const { now, log } = deps;
  const lifecycle = createOrderLifecycle(db, deps);

  async function panel(order: OrderRow): Promise<RefundPanel> {
    const [rows, payments, names] = await Promise.all([
      refundsOfOrder(db, order.user_order_id),
      refundablePayments(db, order.user_order_id),
      applicantNames(db, order.user_order_id),
    ]);
    const creators = await deps.operators.names([...new Set(rows.flatMap((row) => (row.created_by === null ? [] : [row.created_by])))]);
    const paidTotal = payments.reduce((sum, payment) => sum + payment.paid, 0);
    const refundable = payments.reduce((sum, payment) => sum + payment.remaining, 0);
    return {
      user_order_id: order.user_order_id,
      status: order.status,
      step: order.step,
      version: order.version,
      last_refund_id: rows[0]?.refund_id ?? 0,
      paid_total: paidTotal,
      refunded_total: paidTotal - refundable,
      refundable,
      // What the order allows (the table's places and guards); only a supervisor presses the buttons.
      can_refund: stateAllows('refund_create', order, now()) && refundable > 0,
      can_close: stateAllows('close_refund', order, now()),
      list: rows.map((row) => ({
        ...refundView(row, row.applicant_id === null ? null : (names.get(row.applicant_id) ?? null)),
        created_by: row.created_by === null ? '系统' : (creators.get(row.created_by) ?? `人员${row.created_by}`),
      })),
    };
  }

  async function fresh(operator: Operator, userOrderId: number): Promise<RefundPanel> {
    return panel(await lifecycle.current(operator, userOrderId));
  }

  function supervisorOnly(operator: Operator): void {
    if (operator.role !== 'supervisor') throw new AppError(ErrorCode.REFUND_SUPERVISOR_ONLY);
  }

  return {
    list: fresh,

    /** The 工作台's alert: failed refunds still to redo (failed-refunds.ts). Any operator may read it. */
    failedCount: () => countRefundsToRedo(db),

    /**
     * A supervisor's refund by hand: the amount is spread over the order's
     * payments (its own first) and never exceeds what they can still give
     * back, read and spent under the order's row lock. The panel's
     * last_refund_id guards against a double submission: a refund made since
     * the supervisor looked refuses this one (2208).
     */
    async create(
      operator: Operator,
      input: { user_order_id: number; version: number; last_refund_id?: number; amount: number; reason: string },
    ): Promise<RefundPanel> {
      supervisorOnly(operator);
      const order = await lifecycle.current(operator, input.user_order_id);
      // The table's refusal (2206: not processing or completed).
      checkAllowed('refund_create', order, operator, now());
      if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new AppError(ErrorCode.REFUND_AMOUNT_INVALID);
      const reason = cleanRefundReason(input.reason);
      if (reason === null) throw new AppError(ErrorCode.REFUND_REASON_INVALID);
      const at = now();
      const committed = lifecycle.transaction(async (tx) => {
        const { trx } = tx;
        // Under the order's row lock (PostgreSQL) or the write lock (SQLite): a refund made since is seen here.
        const locked = await lockOrder(trx, order.user_order_id);
        if (!locked) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
        if (locked.version !== input.version) throw new AppError(ErrorCode.REFUND_ORDER_STALE);
        const newest = await trx
          .selectFrom('refund')
          .select('refund_id')
          .where('user_order_id', '=', order.user_order_id)
          .orderBy('refund_id', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (input.last_refund_id !== undefined && (newest?.refund_id ?? 0) !== input.last_refund_id) throw new AppError(ErrorCode.REFUND_ORDER_STALE);
        const payments = await refundablePayments(trx, order.user_order_id);
        const refundable = payments.reduce((sum, payment) => sum + payment.remaining, 0);
        if (refundable <= 0) throw new AppError(ErrorCode.REFUND_NOTHING_PAID);
        if (input.amount > refundable) throw new AppError(ErrorCode.REFUND_AMOUNT_EXCEEDS, `退款金额超过可退金额（最多 ${(refundable / 100).toFixed(2)} 元）`);
        const made = await insertSpread(
          trx,
          payments,
          input.amount,
          { user_order_id: order.user_order_id, applicant_id: null, kind: 'manual', reason, created_by: operator.operatorId },
          at,
        );
        await tx.change(
          { ...locked, need_interview: locked.need_interview === 1 },
          // The order's version moves: the same panel (same version) submitted again makes no second refund.
          { event: 'refund_create', claimVersion: true, detail: { kind: 'manual', amount: input.amount, reason, refunds: made } },
          operator,
        );
      }, at);
      // The version claimed by another submission between the lock and the write (cannot happen under the lock; never a 500).
      await committed.catch((error: unknown) => {
        throw error instanceof LifecycleConflict ? new AppError(ErrorCode.REFUND_ORDER_STALE) : error;
      });
      // Committed: refund_create's after-commit hooks send the refunds and the notice's e-mail.
      return fresh(operator, input.user_order_id);
    },

    /**
     * Closes an order before submission with everything it paid refunded
     * (close_refund → refunded): one refund per paid payment for what is left
     * of it, an open price difference cancelled, interview places given back.
     */
    async close(operator: Operator, input: { user_order_id: number; version: number; reason: string }): Promise<RefundPanel> {
      supervisorOnly(operator);
      const reason = cleanRefundReason(input.reason);
      await lifecycle.change(operator, input.user_order_id, async (order, at) => {
        // The table's refusal (2207: only before submission).
        checkAllowed('close_refund', order, operator, at);
        if (order.version !== input.version) throw new AppError(ErrorCode.REFUND_ORDER_STALE);
        if (reason === null) throw new AppError(ErrorCode.REFUND_REASON_INVALID);
        const { released, applicants, within: givePlacesBack } = await lifecycle.interviewPlacesBack(order.user_order_id);
        let made: Array<{ refund_id: number; amount: number; out_trade_no: string }> = [];
        return {
          event: 'close_refund',
          set: { price_difference_due: 0 },
          applicants,
          within: async (trx) => {
            // The order's row is this transaction's now: the rests are exact.
            const payments = await refundablePayments(trx, order.user_order_id);
            const total = payments.reduce((sum, payment) => sum + payment.remaining, 0);
            if (total > 0)
              made = await insertSpread(
                trx,
                payments,
                total,
                { user_order_id: order.user_order_id, applicant_id: null, kind: 'close', reason, created_by: operator.operatorId },
                at,
              );
            await trx
              .updateTable('price_difference')
              .set({ status: 'cancelled', cancelled_at: at, cancelled_by: operator.operatorId, updated_at: at })
              .where('user_order_id', '=', order.user_order_id)
              .where('status', 'in', subFrom('price_difference', 'close'))
              .execute();
            await givePlacesBack?.(trx, order);
          },
          detail: () => ({
            reason,
            amount: made.reduce((sum, refund) => sum + refund.amount, 0),
            refunds: made,
            ...(released > 0 ? { interview_places_released: released } : {}),
          }),
        };
      });
      // Committed: close_refund's after-commit hook has the worker send the refunds.
      return fresh(operator, input.user_order_id);
    },

    /**
     * The provider's refund notification: verified (a bad signature changes
     * nothing and is refused), recorded with the payment notifications, and
     * settled through the same function as the worker's query — a duplicate
     * is answered success and changes nothing.
     */
    async notify(
      provider: Pick<PaymentProvider, 'name' | 'parseRefundNotification' | 'answer'>,
      rawBody: string,
      headers: HeaderBag,
    ): Promise<NotificationAnswer> {
      const receivedAt = now();
      const record = (row: { notify_id: string | null; out_trade_no: string | null; signature_valid: boolean; outcome: string }) =>
        db
          .insertInto('payment_notification')
          .values({
            provider: provider.name,
            body: rawBody.slice(0, 10_000),
            received_at: receivedAt,
            ...row,
            signature_valid: row.signature_valid ? 1 : 0,
            outcome: `refund_${row.outcome}`,
          })
          .execute()
          .catch((error: unknown) => log.error({ err: error }, 'refund notification not recorded'));

      const parsed = await provider.parseRefundNotification(rawBody, headers);
      if (!parsed.ok) {
        log.warn({ reason: parsed.reason, outRefundNo: parsed.out_refund_no }, 'refund notification refused');
        await record({ notify_id: parsed.notify_id, out_trade_no: null, signature_valid: parsed.reason !== 'bad_signature', outcome: parsed.reason });
        return parsed.reason === 'bad_signature'
          ? provider.answer({ success: false, status: 401, message: '签名错误' })
          : provider.answer({ success: false, status: 400, message: '通知格式错误' });
      }
      const note = parsed.notification;
      const base = { notify_id: note.notify_id, out_trade_no: note.out_trade_no, signature_valid: true };
      if (note.refund_status === 'PROCESSING') {
        await record({ ...base, outcome: 'ignored' });
        return provider.answer({ success: true });
      }
      // Only the provider the refund's payment was made with may settle it.
      const owner = await db
        .selectFrom('refund')
        .innerJoin('payment', 'payment.payment_id', 'refund.payment_id')
        .select('payment.provider')
        .where('refund.out_refund_no', '=', note.out_refund_no)
        .executeTakeFirst();
      if (owner && owner.provider !== provider.name) {
        log.error({ outRefundNo: note.out_refund_no, provider: provider.name, paymentProvider: owner.provider }, 'refund notification from another provider');
        await record({ ...base, outcome: 'unknown_refund' });
        return provider.answer({ success: false, status: 404, message: '退款不存在' });
      }
      let result;
      try {
        result = await settleRefund(
          lifecycle,
          {
            out_refund_no: note.out_refund_no,
            state: note.refund_status,
            provider_refund_no: note.provider_refund_no,
            amount: note.amount,
            success_at: note.success_at,
            source: 'notify',
          },
          receivedAt,
        );
      } catch (error) {
        log.error({ err: error, outRefundNo: note.out_refund_no }, 'refund notification failed');
        await record({ ...base, outcome: 'error' });
        return provider.answer({ success: false, status: 500, message: '系统繁忙' });
      }
      await record({ ...base, outcome: result.outcome });
      if (result.outcome === 'unknown_refund') return provider.answer({ success: false, status: 404, message: '退款不存在' });
      if (result.outcome === 'amount_mismatch') {
        log.error({ outRefundNo: note.out_refund_no, amount: note.amount }, 'refund notification amount differs from the refund');
        return provider.answer({ success: false, status: 400, message: '金额不符' });
      }
      return provider.answer({ success: true });
    },
  };
}

export type RefundService = ReturnType<typeof createRefundService>;
