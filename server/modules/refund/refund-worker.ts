// The refund worker (decision 0026): refunds are created in the database, in
// the transaction of the event that asks for them, and given to the payment
// provider only after the commit, by this worker. The refund row is its
// queue: a due row (pending: to send; processing: to ask about) is claimed by
// one conditional update — status and due time unchanged, no live lease —
// that only one worker of any instance can win, on SQLite and PostgreSQL
// alike. The claim is a lease: a worker that dies mid-call leaves the row to
// be claimed again once the lease is over, and asking the provider again with
// the same out_refund_no answers the same refund, so a refund is never made
// twice. What the provider says:
// - accepted → processing (the notification will settle it; the worker asks
//   again after a while in case it is lost: the query fallback);
// - refused for good (not enough left, trade unknown) → failed, logged;
// - unreachable / unknown outcome → stays pending, retried with backoff, never
//   given up (giving up could refund twice if the first call did go through).
// On PostgreSQL the claim takes the due rows with FOR UPDATE SKIP LOCKED, so
// instances draining at once never wait on each other's rows.
// It is a job of the app's runner (server/platform/jobs.ts, decision 0034):
// run right after every committed refund_create or close_refund (an
// after-commit hook of the lifecycle, registered by installRefundWorker) and
// swept every sweepMs for the rest (other instances' refunds, a crash between
// a commit and its run, queries due).
import { randomUUID } from 'node:crypto';
import { type Kysely, PostgresAdapter } from 'kysely';
import type { OrderEventName } from '../../../common/order.ts';
import type { Database } from '../../db/schema.ts';
import type { JobRunner, JobSpec } from '../../platform/jobs.ts';
import { onOrderEventCommitted } from '../order/after-commit.ts';
import { createOrderLifecycle, subAllows, subFrom } from '../order/lifecycle.ts';
import type { PaymentProvider } from '../payment/provider.ts';
import type { PaymentProviders } from '../payment/registry.ts';
import { type RefundRow, settleRefund } from './refund-records.ts';
import { singleFlightDrain } from '../../platform/single-flight.ts';

export type RefundProvider = Pick<PaymentProvider, 'refund' | 'queryRefund'>;

export interface RefundWorkerOptions {
  db: Kysely<Database>;
  /**
   * The provider to ask: one for every refund (tests), or the one the
   * refund's payment was made with (providerOfPayment; undefined when that
   * provider is no longer configured — the refund waits).
   */
  provider: RefundProvider | ((row: RefundRow) => Promise<RefundProvider | undefined>);
  now: () => number;
  log?: { warn(object: unknown, message: string): void; error?(object: unknown, message: string): void };
  /** How long a claim holds a row (longer than a provider call may take). */
  leaseMs?: number;
  batch?: number;
  /** The sweep's period (the job's interval); 0 = no sweep, only the after-commit runs (tests drain by hand). */
  sweepMs?: number;
  /** After the provider accepted a refund, when to ask about it if no notification came. */
  firstQueryMs?: number;
}

export const REFUND_WORKER_DEFAULTS = { leaseMs: 60_000, batch: 20, sweepMs: 10_000, firstQueryMs: 60_000 } as const;

/** The refund worker's job in the app's runner. */
export const REFUND_JOB = 'refunds';

/** The events whose commit leaves refunds to send: the worker runs right after them. */
export const REFUND_CREATING_EVENTS: readonly OrderEventName[] = ['refund_create', 'close_refund'];

/** Refunds still to send (pending) or to settle (processing): what the worker claims — the states the provider's word settles from (the lifecycle's refund sub-machine). */
const OPEN_STATUSES = subFrom('refund', 'succeed');

/** Wait before try n + 1 after n: 30 s, 1 min, 2, 4 … capped at 1 h (a refund is never given up). */
export function refundBackoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

export interface RefundDrainResult {
  sent: number;
  settled: number;
  retried: number;
  failed: number;
}

/** The refund's payment's provider (payment.provider), from the app's registry. */
export function providerOfPayment(db: Kysely<Database>, providers: PaymentProviders): (row: RefundRow) => Promise<RefundProvider | undefined> {
  return async (row) => {
    const payment = await db.selectFrom('payment').select('provider').where('payment_id', '=', row.payment_id).executeTakeFirst();
    return payment ? providers.byName(payment.provider) : undefined;
  };
}

export function createRefundWorker(options: RefundWorkerOptions) {
  const { db, now, log } = options;
  const providerFor = typeof options.provider === 'function' ? options.provider : async () => options.provider as RefundProvider;
  // The provider's final word on a refund is booked through the lifecycle (refund_settle, settleRefund).
  const lifecycle = createOrderLifecycle(db, { now });
  const leaseMs = options.leaseMs ?? REFUND_WORKER_DEFAULTS.leaseMs;
  const batch = options.batch ?? REFUND_WORKER_DEFAULTS.batch;
  const firstQueryMs = options.firstQueryMs ?? REFUND_WORKER_DEFAULTS.firstQueryMs;

  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  /**
   * PostgreSQL: one UPDATE of the due rows its subselect locks, skipping rows
   * another instance's claim holds locked right now (FOR UPDATE SKIP LOCKED):
   * nobody waits, and a row is claimed by one of them only.
   */
  async function claimSkipLocked(at: number) {
    const token = randomUUID();
    const rows = await db
      .updateTable('refund')
      .set((eb) => ({ claimed_until: at + leaseMs, claim_token: token, attempts: eb('attempts', '+', 1) }))
      .where('refund_id', 'in', (eb) =>
        eb
          .selectFrom('refund')
          .select('refund_id')
          .where('status', 'in', OPEN_STATUSES)
          .where('next_attempt_at', '<=', at)
          .where((inner) => inner.or([inner('claimed_until', 'is', null), inner('claimed_until', '<=', at)]))
          .orderBy('next_attempt_at')
          .orderBy('refund_id')
          .limit(batch)
          .forUpdate()
          .skipLocked(),
      )
      .returning('refund_id')
      .execute();
    const claimed = rows.map((row) => ({ id: row.refund_id, token })).sort((a, b) => a.id - b.id);
    return { claimed, more: claimed.length === batch };
  }

  async function claim(at: number) {
    if (postgres) return claimSkipLocked(at);
    // SQLite (one writer at a time): the due rows, then a conditional update of each.
    const due = await db
      .selectFrom('refund')
      .select(['refund_id', 'status'])
      .where('status', 'in', OPEN_STATUSES)
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
      .orderBy('next_attempt_at')
      .orderBy('refund_id')
      .limit(batch)
      .execute();
    const claimed: Array<{ id: number; token: string }> = [];
    for (const { refund_id: id, status } of due) {
      const token = randomUUID();
      // The same conditions on the row itself: of two workers, the second finds the lease taken.
      const won = await db
        .updateTable('refund')
        .set((eb) => ({ claimed_until: at + leaseMs, claim_token: token, attempts: eb('attempts', '+', 1) }))
        .where('refund_id', '=', id)
        .where('status', '=', status)
        .where('next_attempt_at', '<=', at)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
        .executeTakeFirst();
      if (Number(won.numUpdatedRows) === 1) claimed.push({ id, token });
    }
    return { claimed, more: due.length === batch };
  }

  /** Ends this worker's claim: the row's new state (only while the claim is still ours). */
  async function release(
    row: RefundRow,
    token: string,
    set: { status?: 'pending' | 'processing' | 'failed'; next_attempt_at: number; provider_refund_no?: string | null; last_error?: string | null },
  ) {
    await db
      .updateTable('refund')
      .set({ ...set, claimed_until: null, claim_token: null, updated_at: now() })
      .where('refund_id', '=', row.refund_id)
      .where('claim_token', '=', token)
      .where('status', '=', row.status)
      .execute();
  }

  async function settleFrom(
    row: RefundRow,
    info: { status: 'SUCCESS' | 'ABNORMAL' | 'CLOSED'; provider_refund_no: string; amount: number; success_at: number | null },
    source: 'send' | 'query',
  ) {
    const result = await settleRefund(
      lifecycle,
      {
        out_refund_no: row.out_refund_no,
        state: info.status,
        provider_refund_no: info.provider_refund_no,
        amount: info.amount,
        success_at: info.success_at,
        source,
      },
      now(),
    );
    if (result.outcome === 'amount_mismatch') log?.warn({ outRefundNo: row.out_refund_no, amount: info.amount }, 'provider reports another refund amount');
    return result;
  }

  /** The refund's provider; when it is not configured the row waits (asked again after the backoff) and says why. */
  async function providerOrWait(row: RefundRow, token: string, result: RefundDrainResult): Promise<RefundProvider | undefined> {
    const provider = await providerFor(row);
    if (provider) return provider;
    await release(row, token, { next_attempt_at: now() + refundBackoffMs(row.attempts), last_error: 'payment provider not configured' });
    log?.warn({ refundId: row.refund_id }, 'refund provider not configured, will retry');
    result.retried += 1;
    return undefined;
  }

  async function sendOne(row: RefundRow, token: string, result: RefundDrainResult): Promise<void> {
    const provider = await providerOrWait(row, token, result);
    if (!provider) return;
    let answer;
    try {
      answer = await provider.refund({ out_refund_no: row.out_refund_no, out_trade_no: row.out_trade_no, amount: row.amount, reason: row.reason });
    } catch (error) {
      // Unknown outcome: asked again later with the same number.
      await release(row, token, {
        next_attempt_at: now() + refundBackoffMs(row.attempts),
        last_error: String(error instanceof Error ? error.message : error).slice(0, 500),
      });
      log?.warn({ err: error, refundId: row.refund_id }, 'refund request failed, will retry');
      result.retried += 1;
      return;
    }
    if (!answer.ok) {
      await release(row, token, { status: 'failed', next_attempt_at: now(), last_error: `${answer.code}: ${answer.message}`.slice(0, 500) });
      (log?.error ?? log?.warn)?.call(log, { refundId: row.refund_id, code: answer.code }, 'payment provider refused the refund');
      result.failed += 1;
      return;
    }
    result.sent += 1;
    const refund = answer.refund;
    if (refund.status === 'PROCESSING') {
      await release(row, token, {
        status: 'processing',
        provider_refund_no: refund.provider_refund_no,
        next_attempt_at: now() + firstQueryMs,
        last_error: null,
      });
      return;
    }
    await settleFrom(row, { ...refund, status: refund.status }, 'send');
    result.settled += 1;
  }

  /** The query fallback: a refund the provider took but whose notification has not come (yet). */
  async function queryOne(row: RefundRow, token: string, result: RefundDrainResult): Promise<void> {
    const provider = await providerOrWait(row, token, result);
    if (!provider) return;
    let info;
    try {
      info = await provider.queryRefund(row.out_refund_no);
    } catch (error) {
      await release(row, token, {
        next_attempt_at: now() + refundBackoffMs(row.attempts),
        last_error: String(error instanceof Error ? error.message : error).slice(0, 500),
      });
      result.retried += 1;
      return;
    }
    if (info === null) {
      // The provider never got it: send it again (same number, so at most once there).
      await release(row, token, { status: 'pending', next_attempt_at: now(), last_error: 'provider has no such refund' });
      result.retried += 1;
      return;
    }
    if (info.status === 'PROCESSING') {
      await release(row, token, { next_attempt_at: now() + refundBackoffMs(row.attempts), last_error: null });
      return;
    }
    await settleFrom(row, { ...info, status: info.status }, 'query');
    result.settled += 1;
  }

  async function drainOnce(): Promise<RefundDrainResult> {
    const result: RefundDrainResult = { sent: 0, settled: 0, retried: 0, failed: 0 };
    for (;;) {
      const { claimed, more } = await claim(now());
      for (const { id, token } of claimed) {
        const row = await db.selectFrom('refund').selectAll().where('refund_id', '=', id).where('claim_token', '=', token).executeTakeFirst();
        if (!row) continue;
        // Not sent yet (the table's send: pending → processing) is sent; sent is asked about.
        if (subAllows('refund', 'send', row.status)) await sendOne(row, token, result);
        else if (subAllows('refund', 'succeed', row.status)) await queryOne(row, token, result);
      }
      if (!more) return result;
    }
  }

  // One drain at a time per worker (the job's runs and a test's own drains); a call during a drain runs one more after it.
  const { drain } = singleFlightDrain(drainOnce);

  /** Refunds still to send or to settle: the job's backlog. */
  async function open(): Promise<number> {
    const row = await db
      .selectFrom('refund')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', OPEN_STATUSES)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  const job: JobSpec = {
    name: REFUND_JOB,
    intervalMs: options.sweepMs ?? REFUND_WORKER_DEFAULTS.sweepMs,
    run: drain,
    leaseMs,
    backlog: open,
    // Refunds a stopped or crashed instance left go at once.
    runAtStart: true,
  };

  return { drain, job };
}

export type RefundWorker = ReturnType<typeof createRefundWorker>;

/**
 * The worker as a job of the app's runner, run right after every committed
 * event that creates refunds (the lifecycle's after-commit hook) and swept
 * every sweepMs.
 */
export function installRefundWorker(jobs: JobRunner, worker: RefundWorker, db: Kysely<Database>, log?: RefundWorkerOptions['log']): void {
  jobs.register(worker.job);
  onOrderEventCommitted(db, { name: 'refunds to send', events: REFUND_CREATING_EVENTS, run: () => jobs.poke(REFUND_JOB), log });
}
