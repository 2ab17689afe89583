// npm run bench:replay — where the time of a signed call's check goes: the
// header/date/HMAC checks alone, then one replay-store write per request for
// each store (the SQLite file, the PostgreSQL table when BENCH_DATABASE_URL or
// DATABASE_URL is set, Redis when REDIS_URL is set), 10 callers at a time, in
// this process. Prints the event loop's CPU per request. Asserts nothing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { API_VERSION } from '../common/constants.ts';
import { newRequestId, signRequest } from '../common/signing.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { createDatabaseReplayStore, createRedisReplayStore, createSqliteReplayStore, type ReplayStore } from '../server/platform/replay-store.ts';
import { createSignatureCheck } from '../server/platform/signature.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CALLERS = 10;
const clients = new Map([['4', { accessKey: 'bench-key', secret: 'bench-secret-0123456789' }]]);

function signedRequest(): FastifyRequest {
  const date = new Date().toUTCString();
  const requestId = newRequestId();
  const authorization = `Basic ${signRequest({ accessKey: 'bench-key', date, version: API_VERSION, requestId }, 'bench-secret-0123456789')}`;
  return { headers: { authorization, platform: '4', 'x-date': date, 'x-version': API_VERSION, 'x-request-id': requestId } } as unknown as FastifyRequest;
}

/** CPU microseconds of this process per operation, and operations per second, 10 callers in a loop. */
async function measure(operation: () => Promise<unknown>): Promise<{ cpuUs: number; perSecond: number }> {
  const stopAt = Date.now() + SECONDS * 1000;
  let count = 0;
  const started = process.cpuUsage();
  const wall = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (Date.now() < stopAt) {
        await operation();
        count += 1;
      }
    }),
  );
  const used = process.cpuUsage(started);
  return { cpuUs: (used.user + used.system) / count, perSecond: count / ((performance.now() - wall) / 1000) };
}

const row = (label: string, figures: { cpuUs: number; perSecond: number }) =>
  console.log(`${label.padEnd(44)} ${figures.cpuUs.toFixed(1).padStart(7)} µs CPU per request   ${figures.perSecond.toFixed(0).padStart(8)} /s`);

// The checks without a store: requests are prepared outside the timing.
const noStore: ReplayStore = { remember: async () => true, purgeBefore: async () => {}, close: async () => {} };
const check = createSignatureCheck({ clients, maxSkewMs: 900_000, replayStore: noStore });
const prepared = Array.from({ length: 200_000 }, signedRequest);
let next = 0;
row('headers, date, HMAC (no replay store)', await measure(() => check(prepared[next++ % prepared.length]!)));

const stores: Array<[string, () => Promise<{ store: ReplayStore; done: () => Promise<void> }>]> = [
  [
    'SQLite file, one transaction per turn',
    async () => {
      const store = createSqliteReplayStore(join(mkdtempSync(join(tmpdir(), 'visa-bench-')), 'bench.replay.db'));
      return { store, done: () => store.close() };
    },
  ],
  [
    'SQLite app database via Kysely (before)',
    async () => {
      const config = loadConfig({ APP_ENV: 'test', SQLITE_FILE: join(mkdtempSync(join(tmpdir(), 'visa-bench-')), 'bench.db') });
      const database = openDatabase(config.database);
      await migrateToLatest(database);
      return { store: createDatabaseReplayStore(database.db), done: () => database.destroy() };
    },
  ],
];
const postgres = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (postgres) {
  stores.push([
    'PostgreSQL table, one INSERT per turn',
    async () => {
      const config = loadConfig({ APP_ENV: 'test', DATABASE_URL: postgres });
      const database = openDatabase(config.database);
      await migrateToLatest(database);
      return { store: createDatabaseReplayStore(database.db), done: () => database.destroy() };
    },
  ]);
}
if (process.env.REDIS_URL) {
  const url = process.env.REDIS_URL;
  stores.push(['Redis SET NX PX', async () => ({ store: await createRedisReplayStore(url, 1_800_000), done: async () => {} })]);
}
for (const [label, open] of stores) {
  const { store, done } = await open();
  row(label, await measure(() => store.remember(newRequestId(), '4', Date.now())));
  await store.close();
  await done();
}
console.log(`\n${CALLERS} callers, ${SECONDS} s each, in one process (the event loop's own cost; the database server's work is not counted)`);
process.exit(0);
