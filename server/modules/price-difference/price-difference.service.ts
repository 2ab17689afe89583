// The price difference (补差价, issue 10): while an order is processing, an
// operator asks its customer for an amount with a reason (at most one open at
// a time) or cancels an unpaid one; the customer pays it through the payment
// module (payment_create with price_difference_id), whose settlement books it
// (price-difference-records.ts settleDifference). Each change is a lifecycle
// change guarded by the version the operator saw, and writes the order's
// price_difference_due with the row. Rules: docs/order-rules.md, "Price difference".
import type { Kysely } from 'kysely';
import type { PriceDifferencePanel } from '../../../common/contracts/price-difference.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { PRICE_DIFFERENCE_LIMITS } from '../../../common/price-difference.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import { checkAllowed, checkSubAllowed, createOrderLifecycle, type OrderRow, stateAllows, subAllows } from '../order/lifecycle.ts';
import type { OperatorDirectory } from '../operator/directory.ts';
import { priceDifferenceView } from './price-difference-records.ts';
import { createPriceDifferenceRepository } from './price-difference.repository.ts';

export interface PriceDifferenceRequestInput {
  user_order_id: number;
  version: number;
  amount: number;
  reason: string;
}

/** The amount in cents: an integer from 1 cent to the limit. */
export function validAmount(amount: number): boolean {
  return Number.isSafeInteger(amount) && amount > 0 && amount <= PRICE_DIFFERENCE_LIMITS.maxAmount;
}

/** The reason trimmed, with its inner runs of white space made one space; null when too short or long. */
export function cleanReason(reason: string): string | null {
  const clean = reason.replace(/\s+/g, ' ').trim();
  return clean.length >= PRICE_DIFFERENCE_LIMITS.reasonMinLength && clean.length <= PRICE_DIFFERENCE_LIMITS.reasonMaxLength ? clean : null;
}

/** A unique-index violation (the second open price difference), on SQLite or PostgreSQL. */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}

export function createPriceDifferenceService(db: Kysely<Database>, deps: { now: () => number; operators: OperatorDirectory }) {
  const repo = createPriceDifferenceRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);

  async function panel(order: OrderRow): Promise<PriceDifferencePanel> {
    const rows = await repo.list(order.user_order_id);
    const names = await deps.operators.names([...new Set(rows.map((row) => row.requested_by))]);
    return {
      user_order_id: order.user_order_id,
      status: order.status,
      step: order.step,
      version: order.version,
      total_amount: order.total_amount,
      price_difference_due: order.price_difference_due,
      price_difference_paid: order.price_difference_paid,
      can_request: stateAllows('price_difference_request', order, deps.now()) && subAllows('price_difference', 'create', openDifference(order)),
      list: rows.map((row) => ({ ...priceDifferenceView(row), requested_by: names.get(row.requested_by) ?? `人员${row.requested_by}` })),
    };
  }

  async function fresh(operator: Operator, userOrderId: number) {
    return panel(await lifecycle.current(operator, userOrderId));
  }

  /** The order's price difference as the sub-machine sees it: the order row keeps the open amount. */
  const openDifference = (order: OrderRow) => (order.price_difference_due > 0 ? ('open' as const) : ('none' as const));

  /** The table first (not processing → 2167), then the version the operator saw (2166). */
  function checkOrder(event: 'price_difference_request' | 'price_difference_cancel', order: OrderRow, operator: Operator, at: number, version: number) {
    checkAllowed(event, order, operator, at);
    if (order.version !== version) throw new AppError(ErrorCode.PRICE_DIFFERENCE_ORDER_STALE);
  }

  return {
    list: fresh,

    async request(operator: Operator, input: PriceDifferenceRequestInput): Promise<PriceDifferencePanel> {
      try {
        await lifecycle.change(operator, input.user_order_id, (order, at) => {
          checkOrder('price_difference_request', order, operator, at, input.version);
          // The table's refusal (2163: another one is open).
          checkSubAllowed('price_difference', 'create', openDifference(order));
          if (!validAmount(input.amount)) throw new AppError(ErrorCode.PRICE_DIFFERENCE_AMOUNT_INVALID);
          const reason = cleanReason(input.reason);
          if (reason === null) throw new AppError(ErrorCode.PRICE_DIFFERENCE_REASON_INVALID);
          let id = 0;
          return {
            event: 'price_difference_request',
            set: { price_difference_due: input.amount },
            within: async (trx) => {
              id = await repo.insert(trx, {
                user_order_id: order.user_order_id,
                amount: input.amount,
                reason,
                status: 'open',
                requested_by: operator.operatorId,
                created_at: at,
                updated_at: at,
              });
            },
            detail: () => ({ price_difference_id: id, amount: input.amount, reason }),
          };
        });
      } catch (error) {
        // The database's word on "one open per order" (a row the column did not show).
        if (isUniqueViolation(error)) throw new AppError(ErrorCode.PRICE_DIFFERENCE_ALREADY_OPEN);
        throw error;
      }
      return fresh(operator, input.user_order_id);
    },

    async cancel(operator: Operator, input: { user_order_id: number; price_difference_id: number; version: number }): Promise<PriceDifferencePanel> {
      await lifecycle.change(operator, input.user_order_id, async (order, at) => {
        checkOrder('price_difference_cancel', order, operator, at, input.version);
        const difference = await repo.find(order.user_order_id, input.price_difference_id);
        if (!difference) throw new AppError(ErrorCode.PRICE_DIFFERENCE_NOT_FOUND);
        // The table's refusal (2165: paid or cancelled already).
        checkSubAllowed('price_difference', 'close', difference.status);
        return {
          event: 'price_difference_cancel',
          set: { price_difference_due: 0 },
          within: async (trx) => {
            // Paid meanwhile (the settlement holds the order row too): not cancelled.
            if (!(await repo.cancel(trx, difference.price_difference_id, operator.operatorId, at))) throw new AppError(ErrorCode.PRICE_DIFFERENCE_NOT_OPEN);
          },
          detail: { price_difference_id: difference.price_difference_id, amount: difference.amount },
        };
      });
      return fresh(operator, input.user_order_id);
    },
  };
}

export type PriceDifferenceService = ReturnType<typeof createPriceDifferenceService>;
