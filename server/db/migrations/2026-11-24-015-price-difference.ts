// Frozen in time: never import application code here.
// The price difference (补差价, issue 10, server/modules/price-difference): an
// amount an operator asks of a processing order's customer, with a reason;
// at most one open per order (a partial unique index, on SQLite and
// PostgreSQL alike). It is paid through the payment module: a payment row
// pointing at it (payment.price_difference_id). The order row keeps the open
// amount (the 需要处理 tab and the card's 补差价 action read it) and the sum
// paid (the totals), both written only by the lifecycle's price_difference_* changes.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';

  await db.schema
    .createTable('price_difference')
    .addColumn('price_difference_id', pg ? 'serial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    // cents, > 0
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('reason', 'varchar(200)', (col) => col.notNull())
    // open → paid | cancelled
    .addColumn('status', 'varchar(20)', (col) => col.notNull())
    .addColumn('requested_by', 'integer', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('updated_at', time, (col) => col.notNull())
    .addColumn('paid_at', time)
    // The payment that settled it.
    .addColumn('out_trade_no', 'varchar(40)')
    .addColumn('cancelled_at', time)
    .addColumn('cancelled_by', 'integer')
    .execute();
  await db.schema.createIndex('price_difference_order_idx').on('price_difference').columns(['user_order_id', 'price_difference_id']).execute();
  // At most one open price difference per order.
  await db.schema
    .createIndex('price_difference_one_open_idx')
    .on('price_difference')
    .column('user_order_id')
    .unique()
    .where(sql<boolean>`status = 'open'`)
    .execute();

  // The payment of a price difference (null: the order's own payment).
  await db.schema.alterTable('payment').addColumn('price_difference_id', 'integer').execute();
  // "At most one paid payment per order" (migration 005) becomes: one paid payment of the order
  // itself, and one paid payment per price difference.
  await db.schema.dropIndex('payment_one_paid_per_order').execute();
  await db.schema
    .createIndex('payment_one_paid_per_order')
    .on('payment')
    .column('user_order_id')
    .unique()
    .where(sql<boolean>`status = 'paid' and price_difference_id is null`)
    .execute();
  await db.schema
    .createIndex('payment_one_paid_per_difference')
    .on('payment')
    .column('price_difference_id')
    .unique()
    .where(sql<boolean>`status = 'paid' and price_difference_id is not null`)
    .execute();

  // cents: the open price difference (0 when none) and the sum of the paid ones.
  await db.schema
    .alterTable('user_order')
    .addColumn('price_difference_due', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('user_order')
    .addColumn('price_difference_paid', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['price_difference_paid', 'price_difference_due']) await db.schema.alterTable('user_order').dropColumn(column).execute();
  await db.schema.dropIndex('payment_one_paid_per_difference').execute();
  await db.schema.dropIndex('payment_one_paid_per_order').execute();
  await db.schema.alterTable('payment').dropColumn('price_difference_id').execute();
  await db.schema
    .createIndex('payment_one_paid_per_order')
    .on('payment')
    .column('user_order_id')
    .unique()
    .where(sql<boolean>`status = 'paid'`)
    .execute();
  await db.schema.dropTable('price_difference').execute();
}
