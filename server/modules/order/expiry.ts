// Unpaid orders (draft, pending_payment) are cancelled by the system once
// their expires_at (created + 24 h) has passed. Safe with several app
// instances sweeping at once: each order is changed by one conditional UPDATE
// (same version, still unpaid, still due), so exactly one sweep wins it and
// writes its 'expire' event; the others change 0 rows and count nothing.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { ErrorCode } from '../../../common/error-codes.ts';
import { type OrderStatus, UNPAID_STATUSES } from '../../../common/order.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { releaseInterviewSlots } from '../interview/order-interview.ts';
import { createOrderRepository } from './order.repository.ts';

export const EXPIRE_REASON = '超时未支付，订单已自动取消';
export const EXPIRY_INTERVAL_MS = 60_000;
const BATCH = 100;
const MAX_ROUNDS = 50;

export interface ExpiryScope {
  enterpriseId?: number;
  userOrderId?: number;
}

/** Cancels every due unpaid order (optionally of one enterprise or one order); returns how many this call changed. */
export async function expireUnpaidOrders(db: Kysely<Database>, now: number, scope: ExpiryScope = {}): Promise<number> {
  const repo = createOrderRepository(db);
  let changed = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const due = await repo.dueUnpaidOrders(now, BATCH, scope);
    // One short transaction per order: no two sweeps ever wait on each other's locks in a cycle.
    for (const order of due) {
      const won = await repo.transition({
        userOrderId: order.user_order_id,
        expectedVersion: order.version,
        expectedStatuses: UNPAID_STATUSES,
        expiresBy: now,
        changes: { status: 'cancelled', step: null, cancelled_at: now, cancel_reason: EXPIRE_REASON, expires_at: null, updated_at: now },
        event: {
          actor: 'system',
          actor_id: null,
          event: 'expire',
          from_status: order.status,
          to_status: 'cancelled',
          detail: { expires_at: order.expires_at },
          created_at: now,
        },
        // The interview places go back to other customers with the expiry.
        alsoWithin: (trx) => releaseInterviewSlots(trx, order.user_order_id).then(() => undefined),
      });
      if (won) changed += 1;
    }
    // Orders lost to another sweep are no longer due; a full batch means there may be more.
    if (due.length < BATCH) break;
  }
  return changed;
}

/**
 * The customer's order as it stands now: `find` reads it (scoped to the
 * caller's enterprise; undefined → 1801 订单不存在); an unpaid order whose
 * time is up is expired first and read again, so no step ever acts on an order
 * past its 24 h. `beforeExpire` runs just before (payments settle theirs).
 */
export async function currentOrder<T extends { status: string; expires_at: number | null }>(
  db: Kysely<Database>,
  at: number,
  userOrderId: number,
  find: () => Promise<T | undefined>,
  beforeExpire?: () => Promise<void>,
): Promise<T> {
  let order = await find();
  if (!order) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
  if (UNPAID_STATUSES.includes(order.status as OrderStatus) && order.expires_at !== null && order.expires_at <= at) {
    await beforeExpire?.();
    await expireUnpaidOrders(db, at, { userOrderId });
    order = await find();
    if (!order) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
  }
  return order;
}

/** Sweeps every minute (never two sweeps of this instance at once); returns stop(). */
export function startOrderExpiry(db: Kysely<Database>, now: () => number, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): () => void {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const expired = await expireUnpaidOrders(db, now());
      if (expired > 0) log.info({ expired }, 'unpaid orders expired');
    } catch (error) {
      log.warn({ err: error }, 'order expiry failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), EXPIRY_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
