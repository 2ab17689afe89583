// Frozen in time: never import application code here.
// The sandbox payment provider's own ledger. The sandbox plays an external
// payment company (WeChat Pay / Alipay style): what it knows about a trade
// lives here, apart from our payment table, so it survives restarts and is
// shared by every app instance the way a real provider's records would be.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  await db.schema
    .createTable('payment_sandbox_trade')
    // The merchant's number (our payment.out_trade_no).
    .addColumn('out_trade_no', 'varchar(40)', (col) => col.primaryKey())
    .addColumn('channel', 'varchar(10)', (col) => col.notNull())
    // cents
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('description', 'varchar(200)', (col) => col.notNull())
    // NOTPAY, SUCCESS, CLOSED (the provider's trade states)
    .addColumn('state', 'varchar(10)', (col) => col.notNull())
    // The provider's own number, given when the trade is paid.
    .addColumn('provider_trade_no', 'varchar(64)', (col) => col.unique())
    // One id per paid trade: every (re)sent notification carries the same one.
    .addColumn('notify_id', 'varchar(64)')
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('expires_at', time, (col) => col.notNull())
    .addColumn('paid_at', time)
    .addColumn('closed_at', time)
    // none, pending, delivered, failed: how the merchant's notification went.
    .addColumn('notify_status', 'varchar(10)', (col) => col.notNull().defaultTo('none'))
    .addColumn('notify_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('notified_at', time)
    .addCheckConstraint('payment_sandbox_trade_state_check', sql`state in ('NOTPAY', 'SUCCESS', 'CLOSED')`)
    .addCheckConstraint('payment_sandbox_trade_notify_check', sql`notify_status in ('none', 'pending', 'delivered', 'failed')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_sandbox_trade').execute();
}
