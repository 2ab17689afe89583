// Frozen in time: never import application code here.
// Orders (lifecycle design): the order with a snapshot of what was bought,
// its applicants, and the audit log of every state change. `version` is bumped
// by every state change, so a change is one conditional UPDATE … WHERE version = ?.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const serial = (name: string) => (table: any) =>
    table.addColumn(name, pg ? 'serial' : 'integer', (col: any) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()));

  await serial('user_order_id')(db.schema.createTable('user_order'))
    .addColumn('enterprise_id', 'integer', (col: any) => col.notNull().references('enterprise.id'))
    // The account that created it; every account of the enterprise sees it.
    .addColumn('account_id', 'integer', (col: any) => col.notNull().references('account.id'))
    .addColumn('visa_product_id', 'integer', (col: any) => col.notNull().references('visa_product.visa_product_id'))
    .addColumn('consular_district_id', 'integer', (col: any) => col.references('consular_district.consular_district_id'))
    .addColumn('status', 'varchar(20)', (col: any) => col.notNull())
    // The sub-step of 'processing'; null otherwise.
    .addColumn('step', 'varchar(30)')
    // 'YYYY-MM-DD', China time.
    .addColumn('departure_date', 'varchar(10)', (col: any) => col.notNull())
    .addColumn('order_date', 'varchar(10)', (col: any) => col.notNull())
    // Snapshot of what was bought: later catalogue edits never change a placed order.
    .addColumn('product_title', 'varchar(200)', (col: any) => col.notNull())
    .addColumn('country', 'varchar(50)', (col: any) => col.notNull())
    .addColumn('visa_type', 'varchar(30)', (col: any) => col.notNull())
    .addColumn('need_interview', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('reject_refund', 'integer', (col: any) => col.notNull().defaultTo(0))
    // cents
    .addColumn('unit_price', 'integer', (col: any) => col.notNull())
    .addColumn('applicant_count', 'integer', (col: any) => col.notNull())
    .addColumn('total_amount', 'integer', (col: any) => col.notNull())
    .addColumn('created_at', time, (col: any) => col.notNull())
    .addColumn('updated_at', time, (col: any) => col.notNull())
    // When an unpaid order is cancelled automatically; null once paid.
    .addColumn('expires_at', time)
    .addColumn('cancelled_at', time)
    .addColumn('cancel_reason', 'varchar(200)')
    .addColumn('version', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addCheckConstraint('user_order_status_check', sql`status in ('draft', 'pending_payment', 'processing', 'completed', 'cancelled', 'refunded')`)
    .addCheckConstraint('user_order_amount_check', sql`unit_price >= 0 and applicant_count >= 1 and total_amount >= 0`)
    .execute();
  // The order list: one enterprise's orders, newest first.
  await db.schema.createIndex('user_order_enterprise_idx').on('user_order').columns(['enterprise_id', 'created_at']).execute();
  // The expiry sweep: unpaid orders by expiry time.
  await db.schema.createIndex('user_order_expiry_idx').on('user_order').columns(['status', 'expires_at']).execute();

  await serial('applicant_id')(db.schema.createTable('order_applicant'))
    .addColumn('user_order_id', 'integer', (col: any) => col.notNull().references('user_order.user_order_id'))
    .addColumn('name', 'varchar(50)', (col: any) => col.notNull())
    // 0 employed, 1 freelancer, 2 retired, 3 student, 4 preschool child.
    .addColumn('identity_id', 'integer', (col: any) => col.notNull())
    .addColumn('mobile_phone', 'varchar(20)', (col: any) => col.notNull())
    .addColumn('email', 'varchar(100)')
    .addColumn('passport_no', 'varchar(20)')
    .addColumn('status', 'varchar(20)', (col: any) => col.notNull().defaultTo('pending'))
    .addColumn('sort', 'integer', (col: any) => col.notNull())
    .addCheckConstraint('order_applicant_identity_check', sql`identity_id between 0 and 4`)
    .execute();
  await db.schema.createIndex('order_applicant_order_idx').on('order_applicant').columns(['user_order_id', 'sort']).execute();

  await serial('event_id')(db.schema.createTable('order_event'))
    .addColumn('user_order_id', 'integer', (col: any) => col.notNull().references('user_order.user_order_id'))
    .addColumn('actor', 'varchar(10)', (col: any) => col.notNull())
    // account id of a customer, operator id of an operator, null for the system.
    .addColumn('actor_id', 'integer')
    .addColumn('event', 'varchar(40)', (col: any) => col.notNull())
    .addColumn('from_status', 'varchar(20)')
    .addColumn('to_status', 'varchar(20)')
    // JSON
    .addColumn('detail', 'text')
    .addColumn('created_at', time, (col: any) => col.notNull())
    .addCheckConstraint('order_event_actor_check', sql`actor in ('customer', 'operator', 'system')`)
    .execute();
  await db.schema.createIndex('order_event_order_idx').on('order_event').columns(['user_order_id', 'event_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['order_event', 'order_applicant', 'user_order']) {
    await db.schema.dropTable(table).execute();
  }
}
