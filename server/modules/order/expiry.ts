// Unpaid orders (draft, pending_payment) are cancelled by the system once
// their expires_at (created + 24 h) has passed: the lifecycle's 'expire'
// event. Safe with several app instances sweeping at once: each order is
// changed under its version, so exactly one sweep wins it and writes its
// 'expire' event; the others lose the race and count nothing.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createOrderLifecycle } from './lifecycle.ts';
import type { OrderScope } from './order.repository.ts';

export { EXPIRE_REASON } from './lifecycle.ts';
export const EXPIRY_INTERVAL_MS = 60_000;

/** Cancels every due unpaid order (optionally of one enterprise or one order); returns how many this call changed. */
export function expireUnpaidOrders(db: Kysely<Database>, now: number, scope: OrderScope & { userOrderId?: number } = {}): Promise<number> {
  return createOrderLifecycle(db, { now: () => now }).expireDue(now, scope);
}

/** Sweeps every minute (never two sweeps of this instance at once); returns stop(), which waits for a sweep under way. */
export function startOrderExpiry(db: Kysely<Database>, now: () => number, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): () => Promise<void> {
  const lifecycle = createOrderLifecycle(db, { now });
  let running: Promise<void> | null = null;
  const sweep = async () => {
    try {
      const expired = await lifecycle.expireDue(now());
      if (expired > 0) log.info({ expired }, 'unpaid orders expired');
    } catch (error) {
      log.warn({ err: error }, 'order expiry failed');
    }
  };
  const timer = setInterval(() => {
    if (running) return;
    running = sweep().finally(() => {
      running = null;
    });
  }, EXPIRY_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
