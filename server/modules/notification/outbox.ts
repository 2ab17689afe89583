// The e-mail outbox worker (decision 0018). Notices' e-mails are rows of
// notice_email written in the order event's transaction; this worker sends
// them through the mailer after the commit. Several instances may run: a row
// is claimed by one conditional update (status pending, due, no live lease)
// that only one of them can win, on SQLite and PostgreSQL alike, and the claim
// is a lease — a worker that dies mid-send leaves the row to be claimed again
// once the lease is over. A failed send is retried with exponential backoff,
// then marked failed. A crash after the mailer accepted a message but before
// the row says 'sent' sends it again after the lease: at least once, never lost.
// On PostgreSQL the claim takes the due rows with FOR UPDATE SKIP LOCKED, so
// instances draining at once never wait on each other's rows.
// It is a job of the app's runner (server/platform/jobs.ts, decision 0034):
// run right after every commit of an event that queued notices (an
// after-commit hook of the lifecycle: installOutbox returns it and server/app.ts
// registers it, so this module does not import the order module), and swept
// every NOTICE_OUTBOX_SWEEP_SECONDS for what no hook announced (another
// instance's rows, a crash between a commit and its send).
import { randomUUID } from 'node:crypto';
import { type Kysely, PostgresAdapter } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { JobRunner, JobSpec } from '../../platform/jobs.ts';
import type { Mailer } from './mailer.ts';
import { notifies, withSite } from '../order-notices/notice-kinds.ts';
import { singleFlightDrain } from '../../platform/single-flight.ts';

export interface OutboxOptions {
  db: Kysely<Database>;
  mailer: Mailer;
  now: () => number;
  /** The public origin the e-mails' links start with (PUBLIC_SITE_URL). */
  siteUrl: string;
  log?: { warn(object: unknown, message: string): void };
  /** How long a claim holds a row (longer than the mailer's own timeouts). */
  leaseMs?: number;
  /** Rows claimed per round. */
  batch?: number;
  /** After this many failed attempts the row is marked failed. */
  maxAttempts?: number;
  /** The sweep's period (the job's interval); 0 = no sweep, only the after-commit runs (tests drain by hand). */
  sweepMs?: number;
}

/** The outbox's job in the app's runner. */
export const OUTBOX_JOB = 'notice-outbox';

export const OUTBOX_DEFAULTS = { leaseMs: 120_000, batch: 20, maxAttempts: 8, sweepMs: 15_000 } as const;

/** Wait before attempt n + 1 after n failed ones: 1 min, 2, 4 … capped at 6 h. */
export function backoffMs(failedAttempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, failedAttempts - 1), 6 * 3_600_000);
}

export interface DrainResult {
  sent: number;
  retried: number;
  failed: number;
}

// ── The worker ────────────────────────────────────────────────────────────

export function createOutboxWorker(options: OutboxOptions) {
  const { db, mailer, now, siteUrl, log } = options;
  const leaseMs = options.leaseMs ?? OUTBOX_DEFAULTS.leaseMs;
  const batch = options.batch ?? OUTBOX_DEFAULTS.batch;
  const maxAttempts = options.maxAttempts ?? OUTBOX_DEFAULTS.maxAttempts;

  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  /**
   * PostgreSQL: one UPDATE of the due rows its subselect locks, skipping rows
   * another instance's claim holds locked right now (FOR UPDATE SKIP LOCKED):
   * nobody waits, and a row is claimed by one of them only.
   */
  async function claimSkipLocked(at: number) {
    const token = randomUUID();
    const rows = await db
      .updateTable('notice_email')
      .set((eb) => ({ claimed_until: at + leaseMs, claim_token: token, attempts: eb('attempts', '+', 1) }))
      .where('notice_email_id', 'in', (eb) =>
        eb
          .selectFrom('notice_email')
          .select('notice_email_id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', at)
          .where((inner) => inner.or([inner('claimed_until', 'is', null), inner('claimed_until', '<=', at)]))
          .orderBy('notice_email_id')
          .limit(batch)
          .forUpdate()
          .skipLocked(),
      )
      .returning('notice_email_id')
      .execute();
    const claimed = rows.map((row) => ({ id: row.notice_email_id, token })).sort((a, b) => a.id - b.id);
    return { claimed, more: claimed.length === batch };
  }

  /** Claims up to `batch` due rows for this run; a row another worker won is skipped. */
  async function claim(at: number) {
    if (postgres) return claimSkipLocked(at);
    // SQLite (one writer at a time): the due rows, then a conditional update of each.
    const due = await db
      .selectFrom('notice_email')
      .select(['notice_email_id'])
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
      .orderBy('notice_email_id')
      .limit(batch)
      .execute();
    const claimed: Array<{ id: number; token: string }> = [];
    for (const { notice_email_id: id } of due) {
      const token = randomUUID();
      // The same conditions again, on the row itself: of two workers, the second finds the lease taken.
      const won = await db
        .updateTable('notice_email')
        .set((eb) => ({ claimed_until: at + leaseMs, claim_token: token, attempts: eb('attempts', '+', 1) }))
        .where('notice_email_id', '=', id)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
        .executeTakeFirst();
      if (Number(won.numUpdatedRows) === 1) claimed.push({ id, token });
    }
    // `more`: a full batch was due, so there may be more behind it (even when another worker won these).
    return { claimed, more: due.length === batch };
  }

  async function sendOne(id: number, token: string, result: DrainResult): Promise<void> {
    const row = await db.selectFrom('notice_email').selectAll().where('notice_email_id', '=', id).where('claim_token', '=', token).executeTakeFirst();
    if (!row) return;
    try {
      await mailer.send({ to: row.to_address, subject: row.subject, text: withSite(row.text, siteUrl), html: withSite(row.html, siteUrl) });
    } catch (error) {
      const failed = row.attempts >= maxAttempts;
      await db
        .updateTable('notice_email')
        .set({
          status: failed ? 'failed' : 'pending',
          next_attempt_at: now() + backoffMs(row.attempts),
          claimed_until: null,
          claim_token: null,
          last_error: String(error instanceof Error ? error.message : error).slice(0, 500),
        })
        .where('notice_email_id', '=', id)
        .where('claim_token', '=', token)
        .execute();
      if (failed) result.failed += 1;
      else result.retried += 1;
      log?.warn({ err: error, noticeEmailId: id, attempts: row.attempts }, failed ? 'notice e-mail failed for good' : 'notice e-mail failed, will retry');
      return;
    }
    await db
      .updateTable('notice_email')
      .set({ status: 'sent', sent_at: now(), claimed_until: null, claim_token: null, last_error: null })
      .where('notice_email_id', '=', id)
      .where('claim_token', '=', token)
      .execute();
    result.sent += 1;
  }

  /** Sends everything due now (round after round until nothing is left to claim). */
  async function drainOnce(): Promise<DrainResult> {
    const result: DrainResult = { sent: 0, retried: 0, failed: 0 };
    for (;;) {
      const { claimed, more } = await claim(now());
      for (const { id, token } of claimed) await sendOne(id, token, result);
      if (!more) return result;
    }
  }

  // One drain at a time per worker (the job's runs and a test's own drains); a call during a drain runs one more after it.
  const { drain } = singleFlightDrain(drainOnce);

  /** E-mails not yet sent (pending, including those waiting to retry): the job's backlog. */
  async function pending(): Promise<number> {
    const row = await db
      .selectFrom('notice_email')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  const job: JobSpec = {
    name: OUTBOX_JOB,
    intervalMs: options.sweepMs ?? OUTBOX_DEFAULTS.sweepMs,
    run: drain,
    leaseMs,
    backlog: pending,
    // Rows a stopped or crashed instance left pending go at once.
    runAtStart: true,
  };

  return { drain, job };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;

/**
 * The outbox as a job of the app's runner, swept every sweepMs. Returns the
 * after-commit hook that runs it right after every committed event that
 * queued notices; the app registers it with the order lifecycle
 * (onOrderEventCommitted in server/app.ts).
 */
export function installOutbox(jobs: JobRunner, worker: OutboxWorker, log?: OutboxOptions['log']) {
  jobs.register(worker.job);
  return { name: 'notice e-mails', events: notifies, run: () => jobs.poke(OUTBOX_JOB), log };
}
