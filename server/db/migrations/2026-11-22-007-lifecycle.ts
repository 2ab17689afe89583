// Frozen in time: never import application code here.
// The order lifecycle (server/modules/order/lifecycle.ts) records steps, not
// only statuses: each audit row says which processing step the order left and
// reached, and the order keeps when it entered its current step (the back
// office's time-in-step and due time count from it).
import type { Kysely } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  await db.schema.alterTable('order_event').addColumn('from_step', 'varchar(30)').execute();
  await db.schema.alterTable('order_event').addColumn('to_step', 'varchar(30)').execute();
  await db.schema.alterTable('user_order').addColumn('step_entered_at', time).execute();
  // Orders placed before this migration: their last change is the best estimate.
  await db
    .updateTable('user_order')
    .set({ step_entered_at: sql`updated_at` })
    .execute();
  // Processing orders as they were paid: the step they entered then.
  await db.updateTable('order_event').set({ to_step: 'material_review' }).where('event', '=', 'pay').where('to_status', '=', 'processing').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_order').dropColumn('step_entered_at').execute();
  await db.schema.alterTable('order_event').dropColumn('to_step').execute();
  await db.schema.alterTable('order_event').dropColumn('from_step').execute();
}
