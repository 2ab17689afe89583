// The outbox worker on SQLite or PostgreSQL (TEST_DATABASE_URL), on a
// database of its own with no app running: rows left pending (as after a crash
// between the commit and the send) are sent once by the next run; two workers
// at once send each row once, and so do two instances (each its job runner
// and its connection pool) poked at the same time; a failed send backs off and
// is retried, then marked failed; a live lease of a worker that died is waited
// for; on PostgreSQL a row another transaction holds locked is skipped (FOR
// UPDATE SKIP LOCKED), not waited for.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../db/database.ts';
import { createJobRunner } from '../../platform/jobs.ts';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-app.ts';
import type { Mailer, MailMessage } from './mailer.ts';
import { backoffMs, createOutboxWorker, OUTBOX_JOB } from './outbox.ts';

const SITE = 'https://www.yiqiantong.example';
let database: TestDatabase;
let handle: DatabaseHandle;
let clock = Date.parse('2026-12-01T02:00:00Z');
const now = () => clock;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = database.open();
});
afterAll(async () => {
  await handle?.destroy();
  await database?.drop();
});

/** A mailer that records what it sends, after a pause (so two workers overlap), failing while `failing` is set. */
function recordingMailer(options: { failing?: () => boolean } = {}) {
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    async send(message) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (options.failing?.()) throw new Error('connection refused');
      sent.push(message);
      return { delivered: 'smtp', id: String(sent.length) };
    },
    close() {},
  };
  return { mailer, sent };
}

let serial = 0;
/** Pending outbox rows, as a committed lifecycle event leaves them; returns their subjects. */
async function pendingRows(count: number): Promise<string[]> {
  const subjects: string[] = [];
  for (let i = 0; i < count; i += 1) {
    serial += 1;
    const notice = await handle.db
      .insertInto('notice')
      .values({
        recipient_kind: 'customer',
        recipient_id: 1,
        kind: 'material_review_failed',
        user_order_id: null,
        title: '需要重新上传资料',
        body: '请重新上传',
        link: '/order/order-reupload/1',
        order_event_id: null,
        read_at: null,
        created_at: clock,
      })
      .returning('notice_id')
      .executeTakeFirstOrThrow();
    const subject = `第${serial}封`;
    await handle.db
      .insertInto('notice_email')
      .values({
        notice_id: notice.notice_id,
        to_address: `user${serial}@example.com`,
        subject,
        text: '立即处理：{{site}}/order/order-reupload/1',
        html: '<a href="{{site}}/order/order-reupload/1">立即处理</a>',
        status: 'pending',
        next_attempt_at: clock,
        claimed_until: null,
        claim_token: null,
        last_error: null,
        sent_at: null,
        created_at: clock,
      })
      .execute();
    subjects.push(subject);
  }
  return subjects;
}

function rowsOf(subjects: string[]) {
  return handle.db.selectFrom('notice_email').selectAll().where('subject', 'in', subjects).orderBy('notice_email_id').execute();
}

const worker = (mailer: Mailer, extra: { batch?: number; maxAttempts?: number } = {}) =>
  createOutboxWorker({ db: handle.db, mailer, now, siteUrl: `${SITE}/`, sweepMs: 0, ...extra });

describe(`the outbox worker (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('sends rows left pending once, with the site in the links, and marks them sent', async () => {
    const subjects = await pendingRows(3);
    const { mailer, sent } = recordingMailer();
    expect(await worker(mailer, { batch: 2 }).drain()).toEqual({ sent: 3, retried: 0, failed: 0 });
    expect(sent.map((m) => m.subject)).toEqual(subjects);
    expect(sent[0]!.text).toBe(`立即处理：${SITE}/order/order-reupload/1`);
    expect(sent[0]!.html).toContain(`href="${SITE}/order/order-reupload/1"`);
    expect((await rowsOf(subjects)).map((r) => [r.status, r.attempts, r.sent_at, r.claim_token])).toEqual(subjects.map(() => ['sent', 1, clock, null]));
    expect(await worker(mailer).drain()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(sent).toHaveLength(3);
  });

  it('sends each row once, and every row, when several workers drain at the same time', async () => {
    const subjects = await pendingRows(12);
    const mailers = [recordingMailer(), recordingMailer(), recordingMailer()];
    // Small batches: a worker that lost a whole batch to the others must still look for more.
    const results = await Promise.all(mailers.map(({ mailer }) => worker(mailer, { batch: 2 }).drain()));
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(12);
    const all = mailers.flatMap(({ sent }) => sent.map((m) => m.subject)).sort();
    expect(all).toEqual([...subjects].sort());
    expect((await rowsOf(subjects)).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('backs off after a failed send, retries when due, and gives up after the last attempt', async () => {
    const [subject] = await pendingRows(1);
    let failing = true;
    const { mailer, sent } = recordingMailer({ failing: () => failing });
    const w = worker(mailer, { maxAttempts: 3 });
    expect(await w.drain()).toEqual({ sent: 0, retried: 1, failed: 0 });
    let [row] = await rowsOf([subject!]);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: clock + backoffMs(1), claim_token: null, last_error: 'connection refused' });
    // Not due yet: nothing happens.
    expect(await w.drain()).toEqual({ sent: 0, retried: 0, failed: 0 });
    clock += backoffMs(1);
    expect(await w.drain()).toEqual({ sent: 0, retried: 1, failed: 0 });
    [row] = await rowsOf([subject!]);
    expect(row).toMatchObject({ attempts: 2, next_attempt_at: clock + backoffMs(2) });
    expect(backoffMs(2)).toBe(2 * backoffMs(1));
    clock += backoffMs(2);
    expect(await w.drain()).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect((await rowsOf([subject!]))[0]).toMatchObject({ status: 'failed', attempts: 3 });
    failing = false;
    clock += backoffMs(3);
    expect(await w.drain()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(sent).toEqual([]);
  });

  it('leaves a row claimed by a worker that died until its lease is over, then sends it once', async () => {
    const [subject] = await pendingRows(1);
    // A worker claimed it and died before sending (its lease runs 2 minutes).
    await handle.db
      .updateTable('notice_email')
      .set({ claimed_until: clock + 120_000, claim_token: 'dead-worker', attempts: 1 })
      .where('subject', '=', subject!)
      .execute();
    const { mailer, sent } = recordingMailer();
    expect(await worker(mailer).drain()).toEqual({ sent: 0, retried: 0, failed: 0 });
    clock += 120_000;
    expect(await worker(mailer).drain()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(sent.map((m) => m.subject)).toEqual([subject]);
    expect((await rowsOf([subject!]))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('sends each row once when two instances (each its job runner and connection pool) are poked at the same time', async () => {
    const subjects = await pendingRows(24);
    const other = database.open();
    const instances = [handle, other].map((own) => {
      const recorded = recordingMailer();
      const jobs = createJobRunner({ log: { warn: vi.fn() } });
      jobs.register(createOutboxWorker({ db: own.db, mailer: recorded.mailer, now, siteUrl: SITE, sweepMs: 0, batch: 3 }).job);
      jobs.start();
      return { jobs, sent: recorded.sent };
    });
    try {
      for (let round = 0; round < 3; round += 1) for (const { jobs } of instances) jobs.poke(OUTBOX_JOB);
      await Promise.all(instances.map(({ jobs }) => jobs.settled(OUTBOX_JOB)));
      const sent = instances.flatMap((instance) => instance.sent.map((m) => m.subject)).filter((subject) => subjects.includes(subject));
      expect(sent.sort()).toEqual([...subjects].sort());
      // Both did some of the work.
      expect(instances.every((instance) => instance.sent.length > 0)).toBe(true);
      expect((await rowsOf(subjects)).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    } finally {
      await Promise.all(instances.map(({ jobs }) => jobs.stop()));
      await other.destroy();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL, skips a row another transaction holds locked instead of waiting for it', async () => {
    const [locked, free] = await pendingRows(2);
    const { mailer, sent } = recordingMailer();
    const holder = await handle.db.startTransaction().execute();
    try {
      await holder.selectFrom('notice_email').select('notice_email_id').where('subject', '=', locked!).forUpdate().execute();
      // A claim that waited for the lock would never finish while the holder keeps it.
      const drained = await Promise.race([worker(mailer).drain(), new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5_000))]);
      expect(drained).toEqual({ sent: 1, retried: 0, failed: 0 });
      expect(sent.map((m) => m.subject)).toEqual([free]);
    } finally {
      await holder.rollback().execute();
    }
    expect(await worker(mailer).drain()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(sent.map((m) => m.subject)).toEqual([free, locked]);
  });
});
