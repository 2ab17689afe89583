// Frozen in time: never import application code here.
// Refunds (issue 11, server/modules/refund, decision 0026): money going back
// to the customer through the payment provider. One row per refund asked of
// the provider: a rejected applicant's share (kind rejection, at most one per
// applicant: a unique index, so two transactions recording the same refusal
// cannot both create it), a supervisor's refund by hand (manual) or the
// refund of everything paid when an order is closed before submission
// (close). Each refund names the payment it gives back (the order's own or a
// price difference's); what is refunded of a payment never exceeds what it
// paid (checked in the creating transaction, under the order's row lock).
// The row is also the worker's queue: it is sent to the provider after the
// commit by a worker holding a lease (claimed_until / claim_token), retried
// with backoff, and settled by the provider's signed notification or a query.
//
// The sandbox provider's own refund ledger (payment_sandbox_refund) is created
// here too: what the "payment company" knows about each refund.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';

  await db.schema
    .createTable('refund')
    .addColumn('refund_id', pg ? 'serial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    // The refused applicant (kind rejection); null for an order-level refund.
    .addColumn('applicant_id', 'integer', (col) => col.references('order_applicant.applicant_id'))
    // rejection, manual, close
    .addColumn('kind', 'varchar(20)', (col) => col.notNull())
    // cents, > 0
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('reason', 'varchar(200)', (col) => col.notNull())
    // The payment given back (the order's own payment or a price difference's).
    .addColumn('payment_id', 'integer', (col) => col.notNull().references('payment.payment_id'))
    .addColumn('out_trade_no', 'varchar(40)', (col) => col.notNull())
    // Our number for the refund at the provider (WeChat Pay's out_refund_no): the same number asks the same refund.
    .addColumn('out_refund_no', 'varchar(64)', (col) => col.notNull().unique())
    // pending (not yet accepted by the provider) → processing → succeeded | failed
    .addColumn('status', 'varchar(20)', (col) => col.notNull())
    .addColumn('provider_refund_no', 'varchar(64)')
    // operator id of the supervisor; null for the system (rejection)
    .addColumn('created_by', 'integer')
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('updated_at', time, (col) => col.notNull())
    .addColumn('refunded_at', time)
    // The worker's bookkeeping: sends (pending) and queries (processing) that are due.
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (col) => col.notNull())
    .addColumn('claimed_until', time)
    .addColumn('claim_token', 'varchar(64)')
    .addColumn('last_error', 'varchar(500)')
    .addCheckConstraint('refund_kind_check', sql`kind in ('rejection', 'manual', 'close')`)
    .addCheckConstraint('refund_status_check', sql`status in ('pending', 'processing', 'succeeded', 'failed')`)
    .addCheckConstraint('refund_amount_check', sql`amount > 0`)
    .execute();
  await db.schema.createIndex('refund_order_idx').on('refund').columns(['user_order_id', 'refund_id']).execute();
  await db.schema.createIndex('refund_payment_idx').on('refund').columns(['payment_id', 'status']).execute();
  await db.schema.createIndex('refund_due_idx').on('refund').columns(['status', 'next_attempt_at']).execute();
  // A refused applicant's refund exists once.
  await db.schema
    .createIndex('refund_one_per_rejection')
    .on('refund')
    .column('applicant_id')
    .unique()
    .where(sql<boolean>`kind = 'rejection'`)
    .execute();

  await db.schema
    .createTable('payment_sandbox_refund')
    .addColumn('out_refund_no', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('out_trade_no', 'varchar(40)', (col) => col.notNull().references('payment_sandbox_trade.out_trade_no'))
    .addColumn('provider_refund_no', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('reason', 'varchar(200)', (col) => col.notNull())
    // PROCESSING → SUCCESS (the sandbox's bank takes succeeds_at − created_at)
    .addColumn('state', 'varchar(12)', (col) => col.notNull())
    .addColumn('notify_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('succeeds_at', time, (col) => col.notNull())
    .addColumn('success_at', time)
    .addColumn('notify_status', 'varchar(10)', (col) => col.notNull().defaultTo('none'))
    .addColumn('notify_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('notified_at', time)
    .addCheckConstraint('payment_sandbox_refund_state_check', sql`state in ('PROCESSING', 'SUCCESS', 'ABNORMAL', 'CLOSED')`)
    .execute();
  await db.schema.createIndex('payment_sandbox_refund_trade_idx').on('payment_sandbox_refund').column('out_trade_no').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_sandbox_refund').execute();
  await db.schema.dropTable('refund').execute();
}
