// Frozen in time: never import application code here.
// Reports and invoices (issue 29, parts 2 and 3):
// - user_order.group_name: the 出行团组 a customer puts several orders in
//   (null: none); the export selects by it, so it is indexed per enterprise.
// - invoice_profile: the enterprise's invoice details, kept for next time.
// - invoice: one request (发票) of an enterprise for one or more of its paid
//   orders; invoice_order: what it invoices of each order (the sum of an
//   order's requested and issued invoices never exceeds paid − refunded).
// - invoice_file: the issued e-invoice PDF, a kind of stored file (its
//   user_order_id is the invoice's first order, which gives the owner check
//   its enterprise; applicant_id is 0: an invoice is no applicant's).
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const id = (name: string) => (t: any) =>
    t.addColumn(name, pg ? 'serial' : 'integer', (col: any) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()));

  await db.schema.alterTable('user_order').addColumn('group_name', 'text').execute();
  await db.schema.createIndex('user_order_group_idx').on('user_order').columns(['enterprise_id', 'group_name']).execute();
  // The export's date range: the enterprise's orders by creation time.
  await db.schema.createIndex('user_order_enterprise_created_idx').on('user_order').columns(['enterprise_id', 'created_at']).execute();

  await db.schema
    .createTable('invoice_profile')
    .addColumn('enterprise_id', 'integer', (col) => col.primaryKey().references('enterprise.id'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('tax_id', 'text', (col) => col.notNull())
    .addColumn('address_phone', 'text', (col) => col.notNull())
    .addColumn('bank_account', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('updated_at', time, (col) => col.notNull())
    .execute();

  await id('invoice_id')(db.schema.createTable('invoice'))
    .addColumn('enterprise_id', 'integer', (col: any) => col.notNull().references('enterprise.id'))
    .addColumn('account_id', 'integer', (col: any) => col.notNull().references('account.id'))
    // requested → issued | rejected
    .addColumn('status', 'text', (col: any) => col.notNull())
    .addColumn('title', 'text', (col: any) => col.notNull())
    .addColumn('tax_id', 'text', (col: any) => col.notNull())
    .addColumn('address_phone', 'text', (col: any) => col.notNull())
    .addColumn('bank_account', 'text', (col: any) => col.notNull())
    .addColumn('email', 'text', (col: any) => col.notNull())
    .addColumn('amount', 'integer', (col: any) => col.notNull())
    .addColumn('created_at', time, (col: any) => col.notNull())
    .addColumn('issued_at', time)
    .addColumn('issued_by', 'integer', (col: any) => col.references('operator.id'))
    .addColumn('rejected_at', time)
    .addColumn('reject_reason', 'text')
    // An operator recorded the red-letter reversal (红冲) of an issued invoice after a refund.
    .addColumn('reversed_at', time)
    .addColumn('reversed_by', 'integer', (col: any) => col.references('operator.id'))
    .execute();
  await db.schema.createIndex('invoice_enterprise_idx').on('invoice').columns(['enterprise_id', 'invoice_id']).execute();
  await db.schema.createIndex('invoice_status_idx').on('invoice').columns(['status', 'invoice_id']).execute();

  await db.schema
    .createTable('invoice_order')
    .addColumn('invoice_id', 'integer', (col) => col.notNull().references('invoice.invoice_id'))
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('invoice_order_pk', ['invoice_id', 'user_order_id'])
    .execute();
  await db.schema.createIndex('invoice_order_order_idx').on('invoice_order').column('user_order_id').execute();

  await id('file_id')(db.schema.createTable('invoice_file'))
    .addColumn('invoice_id', 'integer', (col: any) => col.references('invoice.invoice_id'))
    .addColumn('user_order_id', 'integer', (col: any) => col.notNull().references('user_order.user_order_id'))
    .addColumn('applicant_id', 'integer', (col: any) => col.notNull())
    .addColumn('storage_key', 'text', (col: any) => col.notNull())
    .addColumn('file_name', 'text', (col: any) => col.notNull())
    .addColumn('content_type', 'text', (col: any) => col.notNull())
    .addColumn('size_bytes', 'integer', (col: any) => col.notNull())
    .addColumn('sha256', 'varchar(64)', (col: any) => col.notNull())
    .addColumn('operator_id', 'integer', (col: any) => col.notNull().references('operator.id'))
    .addColumn('created_at', time, (col: any) => col.notNull())
    .execute();
  await db.schema.createIndex('invoice_file_invoice_idx').on('invoice_file').column('invoice_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invoice_file').execute();
  await db.schema.dropTable('invoice_order').execute();
  await db.schema.dropTable('invoice').execute();
  await db.schema.dropTable('invoice_profile').execute();
  await db.schema.dropIndex('user_order_enterprise_created_idx').execute();
  await db.schema.dropIndex('user_order_group_idx').execute();
  await db.schema.alterTable('user_order').dropColumn('group_name').execute();
}
