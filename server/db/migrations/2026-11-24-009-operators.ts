// Back-office staff (issue 9): operators in their own table — never a customer
// account — and their sessions. Frozen in time: never import application code here.
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

  await withId(db.schema.createTable('operator'))
    .addColumn('account', 'varchar(50)', (col) => col.notNull().unique())
    .addColumn('name', 'varchar(50)', (col) => col.notNull())
    // 'operator' | 'supervisor'
    .addColumn('role', 'varchar(20)', (col) => col.notNull())
    .addColumn('password_hash', 'varchar(255)', (col) => col.notNull())
    // Base32 TOTP secret; null until the operator has enrolled (after creation by the CLI, or a supervisor's reset).
    .addColumn('totp_secret', 'varchar(64)')
    // The secret shown during enrolment, until a code from it is confirmed.
    .addColumn('totp_pending_secret', 'varchar(64)')
    // The last 30-second step whose code was accepted: a code is never accepted twice.
    .addColumn('totp_last_step', time)
    // 'active' | 'disabled'
    .addColumn('status', 'varchar(20)', (col) => col.notNull().defaultTo('active'))
    .addColumn('last_login_at', time)
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('updated_at', time, (col) => col.notNull())
    .execute();

  await withId(db.schema.createTable('operator_session'))
    // SHA-256 hex of the token; the token itself is never stored.
    .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('operator_id', 'integer', (col) => col.notNull().references('operator.id'))
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('last_seen_at', time, (col) => col.notNull())
    .addColumn('absolute_expires_at', time, (col) => col.notNull())
    .addColumn('revoked_at', time)
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(255)')
    .execute();
  await db.schema.createIndex('operator_session_operator_idx').on('operator_session').column('operator_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('operator_session').execute();
  await db.schema.dropTable('operator').execute();
}
