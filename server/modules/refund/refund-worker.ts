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
// Commits that create refunds poke the workers of this process; a sweep
// catches the rest (other instances' refunds, lost pokes, queries due).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { PaymentProvider } from '../payment/provider.ts';
import { onRefundPoke, type RefundRow, settleRefund } from './refund-records.ts';
import { singleFlightDrain } from '../../platform/single-flight.ts';

export interface RefundWorkerOptions {
  db: Kysely<Database>;
  provider: Pick<PaymentProvider, 'refund' | 'queryRefund'>;
  now: () => number;
  log?: { warn(object: unknown, message: string): void; error?(object: unknown, message: string): void };
  /** How long a claim holds a row (longer than a provider call may take). */
  leaseMs?: number;
  batch?: number;
  /** The sweep's period; 0 = no timer (tests drain by hand). */
  sweepMs?: number;
  /** After the provider accepted a refund, when to ask about it if no notification came. */
  firstQueryMs?: number;
}

export const REFUND_WORKER_DEFAULTS = { leaseMs: 60_000, batch: 20, sweepMs: 10_000, firstQueryMs: 60_000 } as const;

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

export function createRefundWorker(options: RefundWorkerOptions) {
  const { db, provider, now, log } = options;
  const leaseMs = options.leaseMs ?? REFUND_WORKER_DEFAULTS.leaseMs;
  const batch = options.batch ?? REFUND_WORKER_DEFAULTS.batch;
  const firstQueryMs = options.firstQueryMs ?? REFUND_WORKER_DEFAULTS.firstQueryMs;

  async function claim(at: number) {
    const due = await db
      .selectFrom('refund')
      .select(['refund_id', 'status'])
      .where('status', 'in', ['pending', 'processing'])
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
      db,
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

  async function sendOne(row: RefundRow, token: string, result: RefundDrainResult): Promise<void> {
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
        if (row.status === 'pending') await sendOne(row, token, result);
        else if (row.status === 'processing') await queryOne(row, token, result);
      }
      if (!more) return result;
    }
  }

  // One drain at a time per worker; a poke during a drain runs one more after it.
  const { drain, idle } = singleFlightDrain(drainOnce);

  const kick = () => {
    drain().catch((error: unknown) => log?.warn({ err: error }, 'refund worker drain failed'));
  };

  return {
    drain,
    /** Listens for pokes and sweeps every sweepMs; returns stop(). */
    start(): () => Promise<void> {
      const unlisten = onRefundPoke(kick);
      const sweepMs = options.sweepMs ?? REFUND_WORKER_DEFAULTS.sweepMs;
      let timer: NodeJS.Timeout | null = null;
      if (sweepMs > 0) {
        timer = setInterval(kick, sweepMs);
        timer.unref();
      }
      kick();
      return async () => {
        unlisten();
        if (timer) clearInterval(timer);
        await idle();
      };
    },
  };
}

export type RefundWorker = ReturnType<typeof createRefundWorker>;
