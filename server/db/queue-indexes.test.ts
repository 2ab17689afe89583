// The work queue's indexes are partial (migration 019: processing orders
// only, assigned orders only) so that creating an order does not write them.
// These tests take the queue's real queries (review.repository.ts, captured
// as compiled with their bound values) and ask each database for its plan:
// the partial indexes must still serve them, on SQLite (which compares a
// bound value with the index's WHERE) and on PostgreSQL.
import { CompiledQuery, type KyselyPlugin, type QueryResult, type RootOperationNode, type UnknownRow, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueSort } from '../../common/review.ts';
import { createReviewRepository, type QueueFilter } from '../modules/review/review.repository.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/test-app.ts';
import type { DatabaseHandle } from './database.ts';

let testDatabase: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  handle = testDatabase.open();
});

afterAll(async () => {
  await handle.destroy();
  await testDatabase.drop();
});

/** The queries a call runs, compiled (SQL and bound values), instead of running them. */
async function queriesOf(call: (repo: ReturnType<typeof createReviewRepository>) => Promise<unknown>): Promise<CompiledQuery[]> {
  const captured: CompiledQuery[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      captured.push(handle.db.getExecutor().compileQuery(args.node as RootOperationNode, args.queryId));
      return args.node;
    },
    transformResult: async (args): Promise<QueryResult<UnknownRow>> => args.result,
  };
  await call(createReviewRepository(handle.db.withPlugin(plugin)));
  return captured;
}

/** The plan of a compiled query, as one string of index names and steps. */
async function planOf(query: CompiledQuery): Promise<string> {
  if (testDatabase.kind === 'sqlite') {
    const { rows } = await handle.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
    return rows.map((row) => row.detail).join('\n');
  }
  // An empty table would be scanned whatever its indexes: ask whether an index can serve at all.
  return handle.db.connection().execute(async (connection) => {
    await sql`set enable_seqscan = off`.execute(connection);
    const { rows } = await connection.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
    await sql`reset enable_seqscan`.execute(connection);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

async function pagePlan(filter: QueueFilter, sort: QueueSort = 'due_asc'): Promise<string> {
  const [page] = await queriesOf((repo) => repo.queuePage(filter, 20, 0, sort));
  return planOf(page!);
}

/**
 * SQLite picks by its rules, so its index is named; PostgreSQL picks by cost on
 * an empty table, so there any of the queue's partial indexes shows it can serve.
 */
const QUEUE_INDEX = /user_order_(queue_step|queue_due|queue_due_desc|assignee)_idx/;
const expected = (sqliteIndex: RegExp) => (testDatabase.kind === 'sqlite' ? sqliteIndex : QUEUE_INDEX);

describe('the work queue on its partial indexes (migration 019)', () => {
  it('the first page of one step reads the processing orders of that step from user_order_queue_step_idx', async () => {
    expect(await pagePlan({ step: 'material_review' })).toMatch(expected(/user_order_queue_step_idx \(status=\? AND step=\?\)/));
  });

  it('the first page of every step reads user_order_queue_due_idx', async () => {
    expect(await pagePlan({})).toMatch(expected(/user_order_queue_due_idx/));
  });

  it('the first page sorted by due time latest first reads user_order_queue_due_desc_idx in its order, without sorting (migration 048)', async () => {
    const plan = await pagePlan({}, 'due_desc');
    expect(plan).toMatch(/user_order_queue_due_desc_idx/);
    expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY|Sort/);
  });

  it("an operator's own orders are found through an index, not by reading every order", async () => {
    const plan = await pagePlan({ assignee: 7 });
    expect(plan).toMatch(QUEUE_INDEX);
    expect(plan).not.toMatch(/^SCAN user_order$|Seq Scan on user_order/m);
  });

  it('the count stops at the cap on the same index', async () => {
    const [count] = await queriesOf((repo) => repo.queueCount({ step: 'page_check' }, 1000));
    expect(await planOf(count!)).toMatch(expected(/user_order_queue_step_idx/));
  });
});
