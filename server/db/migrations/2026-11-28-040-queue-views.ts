// Frozen in time: never import application code here.
// The queue's saved view per operator (issue 27): which of 我的待办, 即将超时,
// 全部 the operator chose last, restored when the queue opens without a filter
// in its URL. One row per operator, written on each choice.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('operator_queue_view')
    .addColumn('operator_id', 'integer', (col) => col.primaryKey().references('operator.id').onDelete('cascade'))
    // mine | due_soon | all (common/review.ts QUEUE_VIEWS)
    .addColumn('view', 'varchar(20)', (col) => col.notNull())
    .addColumn('updated_at', pg ? 'bigint' : 'integer', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('operator_queue_view').execute();
}
