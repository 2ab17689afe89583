// Frozen in time: never import application code here.
// Fixed-window request counters shared by every app instance: one row per
// limited key (an action and who does it), restarted when its window is over.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';

  await db.schema
    .createTable('rate_limit_counter')
    .addColumn('limit_key', 'varchar(200)', (col) => col.primaryKey())
    .addColumn('window_started_at', time, (col) => col.notNull())
    .addColumn('hits', 'integer', (col) => col.notNull())
    .execute();
  // Purging finished windows scans by start time.
  await db.schema.createIndex('rate_limit_counter_window_idx').on('rate_limit_counter').column('window_started_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_counter').execute();
}
