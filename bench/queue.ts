// npm run bench:queue — the back office's work queue on PostgreSQL with
// BENCH_ORDERS (100,000) orders in processing (two applicants each), spread
// over the processing steps, a third of them overdue: p50/p99 of the queue call's
// service (what /admin-api/order/queue runs: the page, the count and the
// page's names) for the first page filtered by step (overdue first), the
// first page of every step, and a search by an applicant's phone. The data
// is inserted with generate_series in a schema of its own, dropped at the
// end. BENCH_DATABASE_URL (default the local test database). Goal: p99 under
// 50 ms. Prints figures and the plans of the two queries; asserts nothing.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { seedCatalogue } from '../server/db/seed/catalogue/index.ts';
import { insertQueueOrders } from './queue-data.ts';
import { ORDER_STEP_VALUES } from '../common/order.ts';
import { NUMBERED_OPERATORS } from '../server/modules/operator/directory.ts';
import { createReviewQueue } from '../server/modules/review/queue.ts';
import type { Operator } from '../server/platform/principal.ts';

const URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(label: string, run: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 20; i += 1) await run(i);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(44)} p50 ${percentile(times, 50).toFixed(2).padStart(7)} ms   p99 ${percentile(times, 99).toFixed(2).padStart(7)} ms   (${RUNS} calls)`,
  );
  return percentile(times, 99);
}

async function main() {
  const schema = `bench_queue_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: URL });
  try {
    await admin.connect();
  } catch (error) {
    console.error(`bench:queue needs PostgreSQL at ${URL} (BENCH_DATABASE_URL): ${(error as Error).message}`);
    process.exitCode = 1;
    return;
  }
  await admin.query(`create schema ${schema}`);
  const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: URL });
  const handle = openDatabase(config.database, { pgSchema: schema, poolSize: 4 });
  const db = handle.db;
  try {
    const now = Date.now();
    await migrateToLatest({ db, schema });
    await seedCatalogue(db, now);
    let started = performance.now();
    await insertQueueOrders(db, { orders: ORDERS, now });
    const counts = await sql<{ n: string }>`select count(*) as n from user_order where status = 'processing'`.execute(db);
    console.log(
      `bench:queue — PostgreSQL, ${counts.rows[0]!.n} orders in processing, ${2 * ORDERS} applicants (inserted in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );

    const queue = createReviewQueue(db, { now: () => now, operators: NUMBERED_OPERATORS });
    const operator: Operator = { kind: 'operator', operatorId: 1, role: 'supervisor' };
    const ids = (await db.selectFrom('user_order').select('user_order_id').orderBy('user_order_id').execute()).map((r) => r.user_order_id);
    const steps = ORDER_STEP_VALUES;

    started = performance.now();
    const first = await queue.queue(operator, { step: 'material_review', assignee: 'all', page: 1 });
    console.log(
      `first page of material_review: ${first.list.length} rows of ${first.total}, ${first.list.filter((r) => r.overdue).length} overdue on it (${(performance.now() - started).toFixed(1)} ms cold)`,
    );
    const p99s = [
      await measure('queue, step material_review, first page', () => queue.queue(operator, { step: 'material_review', assignee: 'all', page: 1 })),
      await measure('queue, each step in turn, first page', (i) => queue.queue(operator, { step: steps[i % steps.length], assignee: 'all', page: 1 })),
      await measure('queue, all steps, first page', () => queue.queue(operator, { assignee: 'all', page: 1 })),
      // Issue 27: the saved views (我的待办, 即将超时) and the due time sorted latest first.
      await measure('queue, 我的待办 (assignee me), first page', () => queue.queue(operator, { assignee: 'me', page: 1 })),
      await measure('queue, 即将超时, first page', () => queue.queue(operator, { assignee: 'all', due_soon: true, page: 1 })),
      await measure('queue, all steps, due latest first', () => queue.queue(operator, { assignee: 'all', sort: 'due_desc', page: 1 })),
      await measure('queue, search by applicant phone', (i) => {
        const id = ids[(i * 7919) % ids.length]!;
        return queue.queue(operator, { q: `${i % 2 === 0 ? '139' : '137'}${String(id).padStart(8, '0')}`, assignee: 'all', page: 1 });
      }),
    ];
    console.log(`goal p99 < 50 ms: ${p99s.every((p) => p < 50) ? 'met' : 'NOT met'} (worst p99 ${Math.max(...p99s).toFixed(2)} ms)`);

    const plan = async (label: string, query: string) => {
      const result = await admin.query(`set search_path = ${schema}; explain ${query}`);
      const rows = (Array.isArray(result) ? result[1] : result).rows as Array<{ 'QUERY PLAN': string }>;
      console.log(`\n${label}:\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
    };
    await plan(
      'plan of the step page',
      `select user_order_id from user_order where status = 'processing' and step = 'material_review' order by step_due_at asc nulls last, user_order_id limit 20`,
    );
    await plan(
      'plan of the page sorted by due time latest first',
      `select user_order_id from user_order where status = 'processing' order by step_due_at desc nulls last, user_order_id limit 20`,
    );
    await plan('plan of the phone search (1)', `select distinct user_order_id from order_applicant where mobile_phone = '13900001234' limit 500`);
    await plan(
      'plan of the phone search (2)',
      `select user_order_id from user_order where status = 'processing' and user_order_id in (1234) order by step_due_at asc nulls last, user_order_id limit 20`,
    );
    await plan(
      'plan of the capped count of a step',
      `select count(*) from (select user_order_id from user_order where status = 'processing' and step = 'material_review' limit 1001) matched`,
    );
  } finally {
    await handle.destroy();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

await main();
