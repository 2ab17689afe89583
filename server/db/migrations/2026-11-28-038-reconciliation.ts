// Frozen in time: never import application code here.
// The daily reconciliation (issue 25, server/modules/reconciliation, decision
// 0038): each payment provider's bill of one China day compared with our
// payments and refunds. One run per provider and day (a unique index: two
// instances cannot both run it), and one row per difference found — missing
// on our side, missing on theirs, amounts that differ — which a supervisor
// marks explained with a note (who and when kept).
//
// Also: payment.code_url grows from 500 to 4000 characters. A phone payment
// keeps there the wallet page the browser was sent to, and Alipay's WAP URL
// is the whole signed request (biz_content, a 2048-bit RSA signature, the
// return and notification URLs, all URL-encoded): 1 500 – 2 500 characters.
// (SQLite does not enforce varchar lengths; PostgreSQL refused the row.)
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const serial = pg ? 'serial' : 'integer';

  if (pg) await sql`alter table payment alter column code_url type varchar(4000)`.execute(db);

  await db.schema
    .createTable('reconciliation_run')
    .addColumn('run_id', serial, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    // payment.provider's name (sandbox, wechatpay, alipay)
    .addColumn('provider', 'varchar(30)', (col) => col.notNull())
    // The China day of the bill, yyyy-MM-dd
    .addColumn('bill_date', 'varchar(10)', (col) => col.notNull())
    // running → done | failed (a failed run is tried again later)
    .addColumn('status', 'varchar(10)', (col) => col.notNull())
    .addColumn('bill_lines', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('differences', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_error', 'varchar(500)')
    .addColumn('started_at', time, (col) => col.notNull())
    .addColumn('finished_at', time)
    .addCheckConstraint('reconciliation_run_status_check', sql`status in ('running', 'done', 'failed')`)
    .execute();
  await db.schema.createIndex('reconciliation_run_day_unique').on('reconciliation_run').columns(['provider', 'bill_date']).unique().execute();

  await db.schema
    .createTable('reconciliation_difference')
    .addColumn('difference_id', serial, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('run_id', 'integer', (col) => col.notNull().references('reconciliation_run.run_id'))
    .addColumn('provider', 'varchar(30)', (col) => col.notNull())
    .addColumn('bill_date', 'varchar(10)', (col) => col.notNull())
    // missing_ours: in the bill, not in our books; missing_theirs: in our books, not in the bill; amount: both, other amounts
    .addColumn('kind', 'varchar(20)', (col) => col.notNull())
    // payment or refund
    .addColumn('line_kind', 'varchar(10)', (col) => col.notNull())
    .addColumn('out_trade_no', 'varchar(64)', (col) => col.notNull())
    .addColumn('out_refund_no', 'varchar(64)')
    .addColumn('provider_trade_no', 'varchar(64)')
    .addColumn('user_order_id', 'integer')
    // cents; null on the side that does not have it
    .addColumn('our_amount', 'integer')
    .addColumn('their_amount', 'integer')
    // When the money moved (either side's time)
    .addColumn('happened_at', time)
    .addColumn('created_at', time, (col) => col.notNull())
    // A supervisor's explanation: operator id, when, and the note
    .addColumn('explained_by', 'integer')
    .addColumn('explained_at', time)
    .addColumn('explanation', 'varchar(500)')
    .addCheckConstraint('reconciliation_difference_kind_check', sql`kind in ('missing_ours', 'missing_theirs', 'amount')`)
    .addCheckConstraint('reconciliation_difference_line_check', sql`line_kind in ('payment', 'refund')`)
    .execute();
  // The page: unexplained first, newest day first.
  await db.schema.createIndex('reconciliation_difference_open_idx').on('reconciliation_difference').columns(['explained_at', 'bill_date']).execute();
  await db.schema.createIndex('reconciliation_difference_run_idx').on('reconciliation_difference').column('run_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // code_url stays 4000 long: shortening it could fail on the phone payments' rows.
  await db.schema.dropTable('reconciliation_difference').execute();
  await db.schema.dropTable('reconciliation_run').execute();
}
