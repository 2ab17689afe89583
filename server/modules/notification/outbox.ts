// The e-mail outbox worker (decision 0018). Notices' e-mails are rows of
// notice_email written in the order event's transaction; this worker sends
// them through the mailer after the commit. Several instances may run: a row
// is claimed by one conditional update (status pending, due, no live lease)
// that only one of them can win, on SQLite and PostgreSQL alike, and the claim
// is a lease — a worker that dies mid-send leaves the row to be claimed again
// once the lease is over. A failed send is retried with exponential backoff,
// then marked failed. A crash after the mailer accepted a message but before
// the row says 'sent' sends it again after the lease: at least once, never lost.
// The lifecycle pokes the worker right after a commit that queued notices
// (pokeOutbox); a sweep every few seconds catches what no poke announced.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Mailer } from './mailer.ts';
import { withSite } from './notice-kinds.ts';
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
  /** The sweep's period; 0 = no timer (tests drain by hand). */
  sweepMs?: number;
}

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

// ── The poke: lifecycle → workers of this process ─────────────────────────

const listeners = new Set<() => void>();

/** Tells this process's outbox workers that a commit queued e-mails (call after the commit). */
export function pokeOutbox(): void {
  for (const listener of listeners) listener();
}

// ── The worker ────────────────────────────────────────────────────────────

export function createOutboxWorker(options: OutboxOptions) {
  const { db, mailer, now, siteUrl, log } = options;
  const leaseMs = options.leaseMs ?? OUTBOX_DEFAULTS.leaseMs;
  const batch = options.batch ?? OUTBOX_DEFAULTS.batch;
  const maxAttempts = options.maxAttempts ?? OUTBOX_DEFAULTS.maxAttempts;

  /** Claims up to `batch` due rows for this run; a row another worker won is skipped. */
  async function claim(at: number) {
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

  // One drain at a time per worker; a poke during a drain runs one more after it.
  const { drain, idle } = singleFlightDrain(drainOnce);

  const kick = () => {
    drain().catch((error: unknown) => log?.warn({ err: error }, 'notice outbox drain failed'));
  };

  let timer: NodeJS.Timeout | null = null;
  return {
    drain,
    /** Listens for pokes and sweeps every sweepMs; returns stop(). */
    start(): () => Promise<void> {
      listeners.add(kick);
      const sweepMs = options.sweepMs ?? OUTBOX_DEFAULTS.sweepMs;
      if (sweepMs > 0) {
        timer = setInterval(kick, sweepMs);
        timer.unref();
      }
      kick();
      return async () => {
        listeners.delete(kick);
        if (timer) clearInterval(timer);
        timer = null;
        await idle();
      };
    },
  };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
