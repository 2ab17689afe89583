// Frozen in time: never import application code here.
// Teams (issue 29): an enterprise has several accounts (管理员 admin, 经办人
// agent, 财务 finance; account.role), an invited colleague is an account with
// status 2 (invited: no password yet, cannot log in) until they accept, and
// the links that let a colleague set their own password — an invitation, or
// an administrator's reset — are rows here, only their token's SHA-256 kept.
// The order list's 我的订单 reads orders by the account that placed them.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  await db.schema
    .createTable('account_invitation')
    .addColumn('invitation_id', pg ? 'serial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('account_id', 'integer', (col) => col.notNull().references('account.id'))
    .addColumn('enterprise_id', 'integer', (col) => col.notNull().references('enterprise.id'))
    // 'invite' (a new colleague) or 'reset' (an administrator reset the password).
    .addColumn('purpose', 'varchar(10)', (col) => col.notNull())
    .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('created_by', 'integer', (col) => col.notNull().references('account.id'))
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('expires_at', time, (col) => col.notNull())
    .addColumn('used_at', time)
    .addColumn('revoked_at', time)
    .execute();
  await db.schema.createIndex('account_invitation_account_idx').on('account_invitation').column('account_id').execute();
  await db.schema.createIndex('account_enterprise_idx').on('account').column('enterprise_id').execute();
  await db.schema.createIndex('user_order_enterprise_account_idx').on('user_order').columns(['enterprise_id', 'account_id', 'user_order_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('user_order_enterprise_account_idx').execute();
  await db.schema.dropIndex('account_enterprise_idx').execute();
  await db.schema.dropTable('account_invitation').execute();
}
