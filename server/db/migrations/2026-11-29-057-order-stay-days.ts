// Frozen in time: never import application code here.
// The visa's stay goes with the order (issue 28): the passport validity
// warning counts the trip to departure + the product's stay_days, and an
// order keeps the product it was placed with (issue 26, migration 047) — a
// product edited later must not change an existing order's warning.
// user_order.stay_days: the product's stay_days when the order was placed
// (0 = open-ended). Existing orders get their product's as it is now.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('user_order')
    .addColumn('stay_days', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`update user_order set
    stay_days = coalesce((select v.stay_days from visa_product v where v.visa_product_id = user_order.visa_product_id), 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_order').dropColumn('stay_days').execute();
}
