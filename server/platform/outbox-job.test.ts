// The shared outbox job (outbox-job.ts) on SQLite or PostgreSQL
// (TEST_DATABASE_URL), on a table of the test's own, for what the two
// outboxes' tests (notification/outbox.test.ts, at least once, and
// notification/traveller-messages.test.ts, at most once) do not already
// show: at most once, two workers at once send each row once and the rows
// being sent count in the backlog; a hold gives the attempt back; a worker
// whose lease ran out and was taken over writes nothing when its slow send
// ends; a permanent failure is final on the first attempt.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/test-app.ts';
import { backoffMs, createOutboxJob, type OutboxCheck, type OutboxJobOptions } from './outbox-job.ts';

interface Row {
  row_id: number;
  body: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  claimed_until: number | null;
  claim_token: string | null;
  last_error: string | null;
  provider_id: string | null;
  sent_at: number | null;
}

let database: TestDatabase;
let handle: DatabaseHandle;
let db: Kysely<any>;
let clock = Date.parse('2026-12-01T02:00:00Z');
const now = () => clock;
const TABLE = 'outbox_job_test';

beforeAll(async () => {
  database = await createTestDatabase();
  handle = database.open();
  db = handle.db;
  const pg = database.kind === 'postgres';
  await db.schema
    .createTable(TABLE)
    .addColumn('row_id', pg ? 'serial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('status', 'varchar(10)', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', pg ? 'bigint' : 'integer', (col) => col.notNull())
    .addColumn('claimed_until', pg ? 'bigint' : 'integer')
    .addColumn('claim_token', 'varchar(40)')
    .addColumn('last_error', 'text')
    .addColumn('provider_id', 'text')
    .addColumn('sent_at', pg ? 'bigint' : 'integer')
    .execute();
});
afterAll(async () => {
  await handle?.destroy();
  await database?.drop();
});

let serial = 0;
/** Pending rows due now; returns their bodies. */
async function pendingRows(count: number): Promise<string[]> {
  const bodies = Array.from({ length: count }, () => `第${(serial += 1)}条`);
  await db
    .insertInto(TABLE)
    .values(bodies.map((body) => ({ body, status: 'pending', next_attempt_at: clock })))
    .execute();
  return bodies;
}

async function rowsOf(bodies: string[]): Promise<Row[]> {
  return (await db.selectFrom(TABLE).selectAll().where('body', 'in', bodies).orderBy('row_id').execute()) as Row[];
}

/** An outbox of the test table whose send records the body after a pause (so two workers overlap). */
function outbox(extra: Partial<OutboxJobOptions<Row>> = {}) {
  const sent: string[] = [];
  const log = { warn: vi.fn() };
  const job = createOutboxJob<Row>({
    name: 'test-outbox',
    db,
    table: TABLE,
    idColumn: 'row_id',
    now,
    limits: { leaseMs: 60_000, batch: 2, maxAttempts: 3, sweepMs: 0 },
    send: async (row) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      sent.push(row.body);
      return { provider_id: `p-${row.body}` };
    },
    log,
    what: 'test row',
    logIdKey: 'rowId',
    ...extra,
  });
  return { ...job, sent, log };
}

const atMostOnce = { abandoned: '中断，未再发送' };

describe(`the outbox job (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('at most once: rows being sent are sending and in the backlog; two workers at once send each row once', async () => {
    const bodies = await pendingRows(7);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const firstSend = new Promise<void>((resolve) => (started = resolve));
    const slow = outbox({
      atMostOnce,
      send: async (row) => {
        started();
        await gate;
        return { provider_id: `slow-${row.body}` };
      },
    });
    const backlogBefore = await slow.job.backlog!();
    const draining = slow.drain();
    await firstSend;
    // The slow worker holds a batch of two: sending, still counted as work to do.
    const held = (await rowsOf(bodies)).filter((row) => row.status === 'sending');
    expect(held.map((row) => row.body)).toEqual(bodies.slice(0, 2));
    expect(held.every((row) => row.attempts === 1 && Number(row.claimed_until) === clock + 60_000)).toBe(true);
    expect(await slow.job.backlog!()).toBe(backlogBefore);
    // Two more workers drain the rest meanwhile, never the rows being sent.
    const others = [outbox({ atMostOnce }), outbox({ atMostOnce })];
    const results = await Promise.all(others.map((other) => other.drain()));
    release();
    expect(await draining).toMatchObject({ sent: 2 });
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(5);
    expect(others.flatMap((other) => other.sent).sort()).toEqual(bodies.slice(2).sort());
    const rows = await rowsOf(bodies);
    expect(rows.map((row) => [row.status, row.attempts, row.claim_token, row.sent_at])).toEqual(bodies.map(() => ['sent', 1, null, clock]));
    expect(rows.slice(0, 2).map((row) => row.provider_id)).toEqual(bodies.slice(0, 2).map((body) => `slow-${body}`));
    expect(await slow.job.backlog!()).toBe(backlogBefore - 7);
  });

  it('a hold sends nothing, gives the attempt back and waits until its time; skip and fail are final', async () => {
    const [held, skipped, failed] = await pendingRows(3);
    const decisions: Record<string, OutboxCheck> = {
      [held!]: { hold: clock + 30_000, reason: '稍后' },
      [skipped!]: { status: 'skipped', reason: '已退订' },
      [failed!]: { status: 'failed', reason: '未知模板' },
    };
    let checking = true;
    const o = outbox({ check: async (row) => (checking ? (decisions[row.body] ?? null) : null) });
    expect(await o.drain()).toEqual({ sent: 0, retried: 0, failed: 1, held: 1, skipped: 1 });
    expect(o.sent).toEqual([]);
    expect(
      (await rowsOf([held!, skipped!, failed!])).map((row) => [row.status, row.attempts, Number(row.next_attempt_at), row.last_error, row.claim_token]),
    ).toEqual([
      ['pending', 0, clock + 30_000, '稍后', null],
      ['skipped', 1, clock, '已退订', null],
      ['failed', 1, clock, '未知模板', null],
    ]);
    checking = false;
    expect(await o.drain()).toMatchObject({ sent: 0, held: 0 });
    clock += 30_000;
    expect(await o.drain()).toMatchObject({ sent: 1 });
    expect(o.sent).toEqual([held]);
    expect((await rowsOf([held!]))[0]).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
  });

  it('a worker whose lease ran out and was taken over writes nothing when its slow send ends', async () => {
    const [body] = await pendingRows(1);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inSend = new Promise<void>((resolve) => (started = resolve));
    const slow = outbox({
      send: async () => {
        started();
        await gate;
        throw new Error('timed out');
      },
    });
    const draining = slow.drain();
    await inSend;
    // At least once: past the lease another worker claims the row again and sends it.
    clock += 60_000;
    const other = outbox();
    expect(await other.drain()).toMatchObject({ sent: 1 });
    release();
    // The first worker's failure finds the row no longer its own: nothing written.
    expect(await draining).toMatchObject({ sent: 0, retried: 1 });
    expect((await rowsOf([body!]))[0]).toMatchObject({ status: 'sent', attempts: 2, provider_id: `p-${body}`, last_error: null, claim_token: null });
  });

  it('a permanent failure is final at the first attempt; a passing one backs off, with the row id in the log', async () => {
    const [permanent, passing] = await pendingRows(2);
    const o = outbox({
      atMostOnce,
      send: async (row) => {
        throw Object.assign(new Error(row.body === permanent ? '非法号码' : '流控'), { permanent: row.body === permanent });
      },
      isPermanent: (error) => (error as { permanent?: boolean }).permanent === true,
    });
    expect(await o.drain()).toEqual({ sent: 0, retried: 1, failed: 1, held: 0, skipped: 0 });
    const [p, r] = await rowsOf([permanent!, passing!]);
    expect(p).toMatchObject({ status: 'failed', attempts: 1, last_error: '非法号码', claim_token: null });
    expect(r).toMatchObject({ status: 'pending', attempts: 1, last_error: '流控', claim_token: null, claimed_until: null });
    expect(Number(r!.next_attempt_at)).toBe(clock + backoffMs(1));
    expect(o.log.warn).toHaveBeenCalledWith(expect.objectContaining({ rowId: p!.row_id, attempts: 1 }), 'test row failed for good');
    expect(o.log.warn).toHaveBeenCalledWith(expect.objectContaining({ rowId: r!.row_id, attempts: 1 }), 'test row failed, will retry');
  });
});
