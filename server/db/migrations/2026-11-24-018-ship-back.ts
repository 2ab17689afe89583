// Frozen in time: never import application code here.
// Retention of travellers' scans (issue 11, server/modules/retention): one row
// per finished order the retention job has looked at. The job claims an order
// with a lease (lease_until/lease_owner, taken by one conditional upsert, so
// several instances never purge the same order at once), deletes the stored
// files whose time has come, and writes when it did (purged_at), how many
// files it deleted in all, and when the order has files due again
// (next_due_at: an e-visa kept until its validity ends; null = nothing left).
// Ship back itself needs no table: the return parcel is a shipment with
// direction 'to_customer' (migration 008).
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';

  await db.schema
    .createTable('order_retention')
    .addColumn('user_order_id', 'integer', (col) => col.primaryKey().references('user_order.user_order_id'))
    .addColumn('lease_until', time, (col) => col.notNull())
    .addColumn('lease_owner', 'varchar(40)', (col) => col.notNull())
    .addColumn('purged_at', time)
    .addColumn('files_deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_due_at', time)
    .addColumn('updated_at', time, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('order_retention_next_due_idx').on('order_retention').column('next_due_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_retention').execute();
}
