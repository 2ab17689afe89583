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
// The claim, the lease, the retries and the job are the shared outbox job's
// (server/platform/outbox-job.ts, at least once); this file has the table and
// the send. It is a job of the app's runner (server/platform/jobs.ts, decision 0034):
// run right after every commit of an event that queued notices (an
// after-commit hook of the lifecycle: installOutbox returns it and server/app.ts
// registers it, so this module does not import the order module), and swept
// every NOTICE_OUTBOX_SWEEP_SECONDS for what no hook announced (another
// instance's rows, a crash between a commit and its send).
import type { Kysely, Selectable } from 'kysely';
import type { Database, NoticeEmailTable } from '../../db/schema.ts';
import type { JobRunner } from '../../platform/jobs.ts';
import { createOutboxJob, installOutboxJob, outboxLimits, type OutboxLimits } from '../../platform/outbox-job.ts';
import type { Mailer } from './mailer.ts';
import { notifies, withSite } from '../order-notices/notice-kinds.ts';

export { backoffMs } from '../../platform/outbox-job.ts';

export interface OutboxOptions extends Partial<OutboxLimits> {
  db: Kysely<Database>;
  mailer: Mailer;
  now: () => number;
  /** The public origin the e-mails' links start with (PUBLIC_SITE_URL). */
  siteUrl: string;
  log?: { warn(object: unknown, message: string): void };
}

/** The outbox's job in the app's runner. */
export const OUTBOX_JOB = 'notice-outbox';

export const OUTBOX_DEFAULTS = { leaseMs: 120_000, batch: 20, maxAttempts: 8, sweepMs: 15_000 } as const;

export interface DrainResult {
  sent: number;
  retried: number;
  failed: number;
}

export function createOutboxWorker(options: OutboxOptions) {
  const { mailer, siteUrl } = options;
  const outbox = createOutboxJob<Selectable<NoticeEmailTable>>({
    name: OUTBOX_JOB,
    db: options.db,
    table: 'notice_email',
    idColumn: 'notice_email_id',
    now: options.now,
    limits: outboxLimits(OUTBOX_DEFAULTS, options),
    send: async (row) => {
      await mailer.send({ to: row.to_address, subject: row.subject, text: withSite(row.text, siteUrl), html: withSite(row.html, siteUrl) });
    },
    log: options.log,
    what: 'notice e-mail',
    logIdKey: 'noticeEmailId',
  });
  /** Sends everything due now; what it sent, retried and gave up on. */
  async function drain(): Promise<DrainResult> {
    const { sent, retried, failed } = await outbox.drain();
    return { sent, retried, failed };
  }
  return { drain, job: outbox.job };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;

/**
 * The outbox as a job of the app's runner, swept every sweepMs. Returns the
 * after-commit hook that runs it right after every committed event that
 * queued notices; the app registers it with the order lifecycle
 * (onOrderEventCommitted in server/app.ts).
 */
export function installOutbox(jobs: JobRunner, worker: OutboxWorker, log?: OutboxOptions['log']) {
  return installOutboxJob(jobs, worker, { name: 'notice e-mails', events: notifies, log });
}
