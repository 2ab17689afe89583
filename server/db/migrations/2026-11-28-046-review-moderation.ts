// Frozen in time: never import application code here.
// Review moderation in the back office (issue 26): a supervisor hides or shows
// a product's review with a reason; its text is never edited. A hidden review
// leaves the guest page, its score and its count. Every hide and show is kept
// (who, when, why); the product's last moderation id is part of the guest page
// cache's version (decision 0004), so no product row is touched and a draft
// being edited is not put in conflict by a moderation.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const serial = pg ? 'serial' : 'integer';

  // 1: hidden from guests (and from the product's score and count).
  await db.schema
    .alterTable('visa_product_review')
    .addColumn('hidden', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('review_moderation')
    .addColumn('moderation_id', serial, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('review_id', 'integer', (col) => col.notNull().references('visa_product_review.review_id'))
    .addColumn('visa_product_id', 'integer', (col) => col.notNull().references('visa_product.visa_product_id'))
    // 'hide' or 'show'.
    .addColumn('action', 'varchar(8)', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('operator_id', 'integer', (col) => col.notNull().references('operator.id'))
    .addColumn('created_at', time, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('review_moderation_product_idx').on('review_moderation').columns(['visa_product_id', 'moderation_id']).execute();
  await db.schema.createIndex('review_moderation_review_idx').on('review_moderation').columns(['review_id', 'moderation_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('review_moderation').execute();
  await db.schema.alterTable('visa_product_review').dropColumn('hidden').execute();
}
