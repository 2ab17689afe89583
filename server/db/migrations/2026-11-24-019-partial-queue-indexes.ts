// Frozen in time: never import application code here.
// The work queue's three indexes on user_order (migration 011) cover only
// the rows the queue reads: the queue always asks for status 'processing',
// and the assignee filter names an operator. Draft, cancelled and finished
// orders no longer get an entry in them, so creating an order (a draft)
// writes three index entries fewer. Decision 0028 has the figures: the five
// indexes of migration 011 cost order_create about a fifth of its throughput.
//
// Both databases use a partial index for `status = ?` bound to 'processing'
// (SQLite compares the bound value and re-plans when it changes; PostgreSQL
// plans the driver's unnamed statements with their values).
import { type Kysely, sql } from 'kysely';

const FULL = {
  user_order_queue_step_idx: ['status', 'step', 'step_due_at', 'user_order_id'],
  user_order_queue_due_idx: ['status', 'step_due_at', 'user_order_id'],
  user_order_assignee_idx: ['assignee_operator_id', 'status'],
} as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const name of Object.keys(FULL)) await db.schema.dropIndex(name).execute();
  await db.schema
    .createIndex('user_order_queue_step_idx')
    .on('user_order')
    .columns([...FULL.user_order_queue_step_idx])
    .where(sql<boolean>`status = 'processing'`)
    .execute();
  await db.schema
    .createIndex('user_order_queue_due_idx')
    .on('user_order')
    .columns([...FULL.user_order_queue_due_idx])
    .where(sql<boolean>`status = 'processing'`)
    .execute();
  await db.schema
    .createIndex('user_order_assignee_idx')
    .on('user_order')
    .columns([...FULL.user_order_assignee_idx])
    .where(sql<boolean>`assignee_operator_id is not null`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of Object.entries(FULL)) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on('user_order')
      .columns([...columns])
      .execute();
  }
}
