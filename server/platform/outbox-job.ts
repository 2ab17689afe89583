// An outbox as a job of the app's runner (server/platform/jobs.ts): the rows
// of one table, written in a business transaction, sent after its commit —
// the notices' e-mails (modules/notification/outbox.ts, decision 0018) and the
// travellers' SMS and e-mails (modules/notification/traveller-outbox.ts). Each
// outbox declares its table, how to send one row and its limits; this file
// has the rest:
//
// - The claim: the due rows (status pending, next_attempt_at passed, no live
//   lease), oldest first, `batch` at a time. Several instances may run: a row
//   is claimed by one conditional update that only one of them can win, and
//   the claim is a lease (claimed_until, claim_token; attempts counted). On
//   PostgreSQL one UPDATE of the rows its subselect locks with FOR UPDATE SKIP
//   LOCKED, so instances draining at once never wait on each other's rows; on
//   SQLite (one writer at a time) the due rows, then a conditional update of
//   each.
// - What a lease that runs out means, the one choice an outbox makes:
//   at least once (the default: a claimed row stays pending, and once its
//   lease is over another run claims it again: a crash after the provider
//   accepted a message sends it twice, never loses it), or at most once
//   (`atMostOnce`: a claim moves the row to 'sending', and a row still
//   sending after its lease is marked failed with the outbox's reason, not
//   sent again).
// - A send that throws is retried with exponential backoff (backoffMs), then,
//   after maxAttempts (or at once when `isPermanent` says so), marked failed.
//   Before the send an outbox may `check` the row: hold it (back to pending
//   until a time, the attempt not counted), skip it or fail it for good.
// - Every write after the claim is conditional on the claim's token: a worker
//   whose lease was taken over writes nothing.
// - The job: one drain at a time (singleFlightDrain), run at start, swept
//   every sweepMs, its backlog the rows not done yet (the job_backlog metric).
import { randomUUID } from 'node:crypto';
import { type Kysely, PostgresAdapter } from 'kysely';
import type { JobRunner, JobSpec } from './jobs.ts';
import { singleFlightDrain } from './single-flight.ts';

/** Wait before attempt n + 1 after n failed ones: 1 min, 2, 4 … capped at 6 h. */
export function backoffMs(failedAttempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, failedAttempts - 1), 6 * 3_600_000);
}

export interface OutboxLimits {
  /** How long a claim holds a row (longer than the provider's own timeouts). */
  leaseMs: number;
  /** Rows claimed per round. */
  batch: number;
  /** After this many failed attempts the row is marked failed. */
  maxAttempts: number;
  /** The sweep's period (the job's interval); 0 = no sweep, only pokes (tests drain by hand). */
  sweepMs: number;
}

/** An outbox's limits: the caller's where given, its defaults for the rest. */
export function outboxLimits(defaults: OutboxLimits, given: Partial<OutboxLimits>): OutboxLimits {
  return {
    leaseMs: given.leaseMs ?? defaults.leaseMs,
    batch: given.batch ?? defaults.batch,
    maxAttempts: given.maxAttempts ?? defaults.maxAttempts,
    sweepMs: given.sweepMs ?? defaults.sweepMs,
  };
}

/** What a check decides instead of a send: held (attempt not counted), skipped or failed for good, with the reason recorded. */
export type OutboxCheck = { hold: number; reason: string } | { status: 'skipped' | 'failed'; reason: string };

export interface OutboxDrainResult {
  sent: number;
  retried: number;
  failed: number;
  held: number;
  skipped: number;
}

/** The columns every outbox table has besides its id (and its own). */
export interface OutboxRow {
  attempts: number;
}

export interface OutboxJobOptions<Row extends OutboxRow> {
  /** The job's name in the runner. */
  name: string;
  // The outbox's own tables are typed by its module; this file knows only the columns above.
  db: Kysely<any>;
  table: string;
  idColumn: string;
  now: () => number;
  limits: OutboxLimits;
  /** At most once: claimed rows are 'sending'; one left sending past its lease is failed with this reason. */
  atMostOnce?: { abandoned: string };
  /** Before the send (outside its try: a throw here fails the run, not the row): null to send. */
  check?: (row: Row) => Promise<OutboxCheck | null>;
  /** Sends one row; returns columns to set with status 'sent' (a provider's id). A throw is a failed attempt. */
  send: (row: Row) => Promise<Record<string, unknown> | void>;
  /** A failure not worth retrying (a provider's refusal). */
  isPermanent?: (error: unknown) => boolean;
  log?: { warn(object: unknown, message: string): void };
  /** The log lines' words: `${what} failed, will retry`, and the row id's key. */
  what: string;
  logIdKey: string;
}

export function createOutboxJob<Row extends OutboxRow>(options: OutboxJobOptions<Row>) {
  const { db, table, idColumn, now, log } = options;
  const { leaseMs, batch, maxAttempts, sweepMs } = options.limits;
  const inFlight = options.atMostOnce ? 'sending' : 'pending';
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  /** The claim's columns: the lease, one more attempt and, at most once, 'sending'. */
  const claimSet = (at: number, token: string) => (eb: any) => ({
    ...(options.atMostOnce ? { status: 'sending' } : {}),
    claimed_until: at + leaseMs,
    claim_token: token,
    attempts: eb('attempts', '+', 1),
  });
  const leaseFree = (at: number) => (eb: any) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]);

  /** The ids of up to `batch` due rows (pending, due, no live lease), oldest first: a query of the database or a subquery. */
  const due = (source: any, at: number) =>
    source
      .selectFrom(table)
      .select(idColumn)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at)
      .where(leaseFree(at))
      .orderBy(idColumn)
      .limit(batch);

  /**
   * PostgreSQL: one UPDATE of the due rows its subselect locks, skipping rows
   * another instance's claim holds locked right now (FOR UPDATE SKIP LOCKED):
   * nobody waits, and a row is claimed by one of them only.
   */
  async function claimSkipLocked(at: number) {
    const token = randomUUID();
    const rows = await db
      .updateTable(table)
      .set(claimSet(at, token))
      .where(idColumn, 'in', (eb: any) => due(eb, at).forUpdate().skipLocked())
      .returning(idColumn)
      .execute();
    const claimed = rows.map((row) => ({ id: Number(row[idColumn]), token })).sort((a, b) => a.id - b.id);
    return { claimed, more: claimed.length === batch };
  }

  /** Claims up to `batch` due rows for this run; a row another worker won is skipped. */
  async function claim(at: number) {
    if (postgres) return claimSkipLocked(at);
    const rows = await due(db, at).execute();
    const claimed: Array<{ id: number; token: string }> = [];
    for (const row of rows) {
      const id = Number(row[idColumn]);
      const token = randomUUID();
      // The same conditions again, on the row itself: of two workers, the second finds it taken.
      const won = await db
        .updateTable(table)
        .set(claimSet(at, token))
        .where(idColumn, '=', id)
        .where('status', '=', 'pending')
        .where(leaseFree(at))
        .executeTakeFirst();
      if (Number(won.numUpdatedRows) === 1) claimed.push({ id, token });
    }
    // `more`: a full batch was due, so there may be more behind it (even when another worker won these).
    return { claimed, more: rows.length === batch };
  }

  /** At most once: rows left sending after their lease; the outcome is unknown, so they are not sent again. */
  async function abandonStale(at: number): Promise<number> {
    if (!options.atMostOnce) return 0;
    const result = await db
      .updateTable(table)
      .set({ status: 'failed', claimed_until: null, claim_token: null, last_error: options.atMostOnce.abandoned })
      .where('status', '=', 'sending')
      .where('claimed_until', '<=', at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The row's claim ends with these columns (only while the claim is still this worker's). */
  async function finish(id: number, token: string, set: Record<string, unknown> | ((eb: any) => Record<string, unknown>)) {
    const columns =
      typeof set === 'function' ? (eb: any) => ({ ...set(eb), claimed_until: null, claim_token: null }) : { ...set, claimed_until: null, claim_token: null };
    await db.updateTable(table).set(columns).where(idColumn, '=', id).where('claim_token', '=', token).execute();
  }

  async function sendOne(id: number, token: string, result: OutboxDrainResult): Promise<void> {
    const row = (await db.selectFrom(table).selectAll().where(idColumn, '=', id).where('claim_token', '=', token).executeTakeFirst()) as Row | undefined;
    if (!row) return;
    const checked = options.check ? await options.check(row) : null;
    if (checked && 'hold' in checked) {
      // Back to pending without counting the attempt.
      await finish(id, token, (eb) => ({ status: 'pending', next_attempt_at: checked.hold, last_error: checked.reason, attempts: eb('attempts', '-', 1) }));
      result.held += 1;
      return;
    }
    if (checked) {
      await finish(id, token, { status: checked.status, last_error: checked.reason });
      result[checked.status] += 1;
      return;
    }
    let set: Record<string, unknown> | void;
    try {
      set = await options.send(row);
    } catch (error) {
      const failed = options.isPermanent?.(error) || row.attempts >= maxAttempts;
      await finish(id, token, {
        status: failed ? 'failed' : 'pending',
        next_attempt_at: now() + backoffMs(row.attempts),
        last_error: String(error instanceof Error ? error.message : error).slice(0, 500),
      });
      if (failed) result.failed += 1;
      else result.retried += 1;
      log?.warn(
        { err: error, [options.logIdKey]: id, attempts: row.attempts },
        failed ? `${options.what} failed for good` : `${options.what} failed, will retry`,
      );
      return;
    }
    await finish(id, token, { status: 'sent', sent_at: now(), last_error: null, ...set });
    result.sent += 1;
  }

  /** Sends everything due now (round after round until nothing is left to claim). */
  async function drainOnce(): Promise<OutboxDrainResult> {
    const result: OutboxDrainResult = { sent: 0, retried: 0, failed: 0, held: 0, skipped: 0 };
    result.failed += await abandonStale(now());
    for (;;) {
      const { claimed, more } = await claim(now());
      for (const { id, token } of claimed) await sendOne(id, token, result);
      if (!more) return result;
    }
  }

  // One drain at a time per outbox (the job's runs and a test's own drains); a call during a drain runs one more after it.
  const { drain } = singleFlightDrain(drainOnce);

  /** Rows not done yet (pending, including those waiting to retry, and those being sent): the job's backlog. */
  async function backlog(): Promise<number> {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', [...new Set(['pending', inFlight])])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  const job: JobSpec = {
    name: options.name,
    intervalMs: sweepMs,
    run: drain,
    leaseMs,
    backlog,
    // Rows a stopped or crashed instance left pending go at once.
    runAtStart: true,
  };

  return { drain, job };
}

/**
 * Registers an outbox's job; returns the after-commit hook (of the order
 * lifecycle, onOrderEventCommitted in server/app.ts) that pokes it after the
 * events that queue its rows.
 */
export function installOutboxJob<Events, Log>(jobs: JobRunner, outbox: { job: JobSpec }, hook: { name: string; events: Events; log?: Log }) {
  jobs.register(outbox.job);
  return { name: hook.name, events: hook.events, run: () => jobs.poke(outbox.job.name), log: hook.log };
}
