// Frozen in time: never import application code here.
import { type Kysely, PostgresAdapter } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = pg ? 'serial' : 'integer';
  const time = pg ? 'bigint' : 'integer';
  const withId = <T extends { addColumn: any }>(builder: T): T =>
    builder.addColumn('id', id, (col: any) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()));

  await withId(db.schema.createTable('enterprise'))
    .addColumn('name', 'varchar(100)', (col) => col.notNull())
    .addColumn('kind', 'varchar(20)', (col) => col.notNull())
    .addColumn('contact_name', 'varchar(50)')
    .addColumn('contact_phone', 'varchar(30)')
    .addColumn('consultant_name', 'varchar(50)')
    .addColumn('consultant_phone', 'varchar(30)')
    .addColumn('status', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', time, (col) => col.notNull())
    .execute();

  await withId(db.schema.createTable('account'))
    .addColumn('enterprise_id', 'integer', (col) => col.notNull().references('enterprise.id'))
    .addColumn('account', 'varchar(50)', (col) => col.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (col) => col.notNull())
    .addColumn('name', 'varchar(50)', (col) => col.notNull())
    .addColumn('mobile_phone', 'varchar(30)')
    .addColumn('email', 'varchar(100)')
    .addColumn('role', 'varchar(20)', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('last_login_at', time)
    .execute();

  await withId(db.schema.createTable('account_session'))
    .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('account_id', 'integer', (col) => col.notNull().references('account.id'))
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('last_seen_at', time, (col) => col.notNull())
    .addColumn('absolute_expires_at', time, (col) => col.notNull())
    .addColumn('revoked_at', time)
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(255)')
    .execute();
  await db.schema.createIndex('account_session_account_idx').on('account_session').column('account_id').execute();

  await db.schema
    .createTable('api_request_nonce')
    .addColumn('request_id', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('platform', 'varchar(10)', (col) => col.notNull())
    .addColumn('seen_at', time, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('api_request_nonce_seen_idx').on('api_request_nonce').column('seen_at').execute();

  await db.schema
    .createTable('login_throttle')
    .addColumn('throttle_key', 'varchar(200)', (col) => col.primaryKey())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('window_started_at', time, (col) => col.notNull())
    .addColumn('locked_until', time)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['login_throttle', 'api_request_nonce', 'account_session', 'account', 'enterprise']) {
    await db.schema.dropTable(table).execute();
  }
}
