// The database rate limiter on a real, migrated database: SQLite by default,
// PostgreSQL (a schema of its own) when TEST_DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../config.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database, RateLimitTables } from '../db/schema.ts';
import { createRateLimiter, RATE_LIMIT_KEY_MAX_LENGTH, storedLimitKey } from './rate-limit.ts';

const url = process.env.TEST_DATABASE_URL;
const kind = url ? 'PostgreSQL' : 'SQLite';

let config: AppConfig['database'];
let pgSchema: string | undefined;
let sqliteDir: string | undefined;
const handles: DatabaseHandle[] = [];
let db: Kysely<Database & RateLimitTables>;
/** Until the lead merges RateLimitTables into Database. */
const withRateLimitTables = (handle: DatabaseHandle) => handle.db as unknown as Kysely<Database & RateLimitTables>;

function open(): DatabaseHandle {
  const handle = openDatabase(config, pgSchema ? { pgSchema, poolSize: 10 } : {});
  handles.push(handle);
  return handle;
}

beforeAll(async () => {
  if (url) {
    pgSchema = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${pgSchema}`);
    await admin.end();
    config = { kind: 'postgres', url };
  } else {
    sqliteDir = mkdtempSync(join(tmpdir(), 'visa-rate-'));
    config = { kind: 'sqlite', file: join(sqliteDir, 'test.db') };
  }
  const migrator = open();
  await migrateToLatest(migrator);
  db = withRateLimitTables(migrator);
});

afterAll(async () => {
  for (const handle of handles) await handle.destroy();
  if (url && pgSchema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop schema ${pgSchema} cascade`);
    await admin.end();
  }
  if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
});

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 21, 8, 0, 0);
let keys = 0;
const freshKey = (label = 'k') => `${label}:${(keys += 1)}:${randomBytes(3).toString('hex')}`;

async function counter(key: string) {
  return db.selectFrom('rate_limit_counter').selectAll().where('limit_key', '=', storedLimitKey(key)).executeTakeFirst();
}

describe(`rate limiter (${kind})`, () => {
  it('migration 003 creates rate_limit_counter', async () => {
    const tables = await db.introspection.getTables();
    const table = tables.find((t) => t.name === 'rate_limit_counter');
    expect(table?.columns.map((c) => c.name).sort()).toEqual(['hits', 'limit_key', 'window_started_at']);
  });

  it('lets `limit` hits through per window, then refuses', async () => {
    const limiter = createRateLimiter(db);
    const key = freshKey();
    const answers: boolean[] = [];
    for (let i = 0; i < 5; i += 1) answers.push(await limiter.hit(key, 3, MINUTE, T0 + i * 1000));
    expect(answers).toEqual([true, true, true, false, false]);
    expect(await counter(key)).toEqual({ limit_key: key, window_started_at: T0, hits: 5 });
  });

  it('opens a new window exactly windowMs after the first hit of the last one', async () => {
    const limiter = createRateLimiter(db);
    const key = freshKey();
    expect(await limiter.hit(key, 1, MINUTE, T0)).toBe(true);
    expect(await limiter.hit(key, 1, MINUTE, T0 + MINUTE - 1)).toBe(false);
    expect(await limiter.hit(key, 1, MINUTE, T0 + MINUTE)).toBe(true);
    expect(await counter(key)).toMatchObject({ window_started_at: T0 + MINUTE, hits: 1 });
    expect(await limiter.hit(key, 1, MINUTE, T0 + MINUTE + 10)).toBe(false);
    // Long after, a fresh window again.
    expect(await limiter.hit(key, 1, MINUTE, T0 + 10 * MINUTE)).toBe(true);
  });

  it('counts keys separately, and limit 0 refuses everything', async () => {
    const limiter = createRateLimiter(db);
    const a = freshKey('a');
    const b = freshKey('b');
    expect(await limiter.hit(a, 1, MINUTE, T0)).toBe(true);
    expect(await limiter.hit(b, 1, MINUTE, T0)).toBe(true);
    expect(await limiter.hit(a, 1, MINUTE, T0)).toBe(false);
    expect(await limiter.hit(freshKey(), 0, MINUTE, T0)).toBe(false);
    await expect(limiter.hit(a, -1, MINUTE, T0)).rejects.toThrow(RangeError);
    await expect(limiter.hit(a, 1, 0, T0)).rejects.toThrow(RangeError);
  });

  it('never loses a count: 20 parallel hits with limit 5 → exactly 5 allowed', async () => {
    const limiter = createRateLimiter(db);
    const key = freshKey('parallel');
    const answers = await Promise.all(Array.from({ length: 20 }, () => limiter.hit(key, 5, MINUTE, T0)));
    expect(answers.filter(Boolean)).toHaveLength(5);
    expect((await counter(key))?.hits).toBe(20);
  });

  it('shares the count between app instances (two connection pools)', async () => {
    const first = createRateLimiter(db);
    const second = createRateLimiter(withRateLimitTables(open()));
    const key = freshKey('shared');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? first : second).hit(key, 5, MINUTE, T0 + i)));
    expect(answers.filter(Boolean)).toHaveLength(5);
    expect((await counter(key))?.hits).toBe(20);
  });

  it('stores over-long keys under a bounded, distinct key', async () => {
    const limiter = createRateLimiter(db);
    const long1 = `mail:${'x'.repeat(300)}:1`;
    const long2 = `mail:${'x'.repeat(300)}:2`;
    expect(storedLimitKey(long1)).toHaveLength(RATE_LIMIT_KEY_MAX_LENGTH);
    expect(storedLimitKey(long1)).not.toBe(storedLimitKey(long2));
    expect(storedLimitKey('short')).toBe('short');
    expect(await limiter.hit(long1, 1, MINUTE, T0)).toBe(true);
    expect(await limiter.hit(long2, 1, MINUTE, T0)).toBe(true);
    expect(await limiter.hit(long1, 1, MINUTE, T0)).toBe(false);
  });

  it('purges counters whose window started before a time', async () => {
    const limiter = createRateLimiter(db);
    const old = freshKey('old');
    const recent = freshKey('recent');
    await limiter.hit(old, 5, MINUTE, T0 - 60 * MINUTE);
    await limiter.hit(recent, 5, MINUTE, T0);
    const purged = await limiter.purgeStartedBefore(T0 - 30 * MINUTE);
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await counter(old)).toBeUndefined();
    expect(await counter(recent)).toBeDefined();
  });
});
