// Frozen in time: never import application code here.
// The queue sorted by due time latest first (issue 27, 截止时间 ↓): ORDER BY
// step_due_at DESC NULLS LAST, user_order_id. The ascending index of
// migration 019 read backwards gives DESC NULLS FIRST and the ids descending,
// so PostgreSQL sorted every processing order for the first page (269 ms at
// 100k orders against 10–20 ms for the other views). This index holds that
// exact order. Partial like the others: only processing orders pay for it.
// SQLite has no NULLS LAST in an index, but its NULLs sort lowest, so a
// descending column already puts them last.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const due = pg ? sql`step_due_at desc nulls last` : sql`step_due_at desc`;
  await sql`create index user_order_queue_due_desc_idx on user_order (status, ${due}, user_order_id) where status = 'processing'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('user_order_queue_due_desc_idx').execute();
}
