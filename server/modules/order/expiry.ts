// Unpaid orders (draft, pending_payment) are cancelled by the system once
// their expires_at (created + 24 h) has passed: the lifecycle's 'expire'
// event. Safe with several app instances sweeping at once: each order is
// changed under its version, so exactly one sweep wins it and writes its
// 'expire' event; the others lose the race and count nothing. The sweep is a
// job of the app's runner (server/platform/jobs.ts), every minute.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createJobRunner, type JobSpec } from '../../platform/jobs.ts';
import { createOrderLifecycle } from './lifecycle.ts';
import type { OrderScope } from './order.repository.ts';

export { EXPIRE_REASON } from './lifecycle.ts';
export const EXPIRY_INTERVAL_MS = 60_000;
export const EXPIRY_JOB = 'order-expiry';

/** Cancels every due unpaid order (optionally of one enterprise or one order); returns how many this call changed. */
export function expireUnpaidOrders(db: Kysely<Database>, now: number, scope: OrderScope & { userOrderId?: number } = {}): Promise<number> {
  return createOrderLifecycle(db, { now: () => now }).expireDue(now, scope);
}

/** The sweep as a job: every minute; its backlog is the unpaid orders past their time. */
export function orderExpiryJob(db: Kysely<Database>, now: () => number, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): JobSpec {
  const lifecycle = createOrderLifecycle(db, { now });
  return {
    name: EXPIRY_JOB,
    intervalMs: EXPIRY_INTERVAL_MS,
    async run() {
      const expired = await lifecycle.expireDue(now());
      if (expired > 0) log.info({ expired }, 'unpaid orders expired');
    },
    async backlog() {
      const row = await db
        .selectFrom('user_order')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', 'in', ['draft', 'pending_payment'])
        .where('expires_at', '<=', now())
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

/**
 * The sweep on a runner of its own (the app registers orderExpiryJob with its
 * runner instead): every minute, never two at once; returns stop(), which
 * waits for a sweep under way.
 */
export function startOrderExpiry(db: Kysely<Database>, now: () => number, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): () => Promise<void> {
  const runner = createJobRunner({ log });
  runner.register(orderExpiryJob(db, now, log));
  runner.start();
  return () => runner.stop();
}
