// Frozen in time: never import application code here.
// A readable order number (issue 27): people saw the raw id ("1") in the
// list, the detail, the pay dialog and the notices while payments carry
// YQ2026…. order_no is YD + the China date the order was placed (yyyymmdd)
// + the order id, zero-padded to at least 6 digits: YD20261128000042. The id
// makes it unique; the date makes it read like an order number. Calls keep
// taking user_order_id. Existing orders get theirs here.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('user_order').addColumn('order_no', 'varchar(32)').execute();
  // created_at is epoch ms; China time is UTC+8 all year.
  if (pg) {
    await sql`update user_order set order_no = 'YD'
      || to_char(to_timestamp((created_at + 28800000) / 1000.0) at time zone 'UTC', 'YYYYMMDD')
      || lpad(user_order_id::text, greatest(6, length(user_order_id::text)), '0')`.execute(db);
  } else {
    await sql`update user_order set order_no = 'YD'
      || strftime('%Y%m%d', (created_at + 28800000) / 1000, 'unixepoch')
      || printf('%06d', user_order_id)`.execute(db);
  }
  await db.schema.createIndex('user_order_order_no_unique').on('user_order').column('order_no').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('user_order_order_no_unique').execute();
  await db.schema.alterTable('user_order').dropColumn('order_no').execute();
}
