// Frozen in time: never import application code here.
// The back office's product editing (issue 26, server/modules/catalogue-admin):
// a product change is a draft until a supervisor publishes it. One draft per
// product (a unique index: a second editor's save meets the first one's draft
// and its version, never overwrites it); a draft of a new product has no
// product yet. Every publication is kept: who, when, and the fields it changed
// (before and after, JSON).
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const serial = pg ? 'serial' : 'integer';

  await db.schema
    .createTable('product_draft')
    .addColumn('draft_id', serial, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    // null: a product not yet published.
    .addColumn('visa_product_id', 'integer', (col) => col.references('visa_product.visa_product_id'))
    // The whole editable product (JSON): every field of spec §3 and the checklists.
    .addColumn('content', 'text', (col) => col.notNull())
    // Bumped by every save: a save or publish carries the version it read.
    .addColumn('version', 'integer', (col) => col.notNull())
    // The product's updated_at when the draft was started (0 for a new product).
    .addColumn('base_updated_at', time, (col) => col.notNull())
    .addColumn('created_by', 'integer', (col) => col.notNull().references('operator.id'))
    .addColumn('updated_by', 'integer', (col) => col.notNull().references('operator.id'))
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('updated_at', time, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('product_draft_product_unique').on('product_draft').column('visa_product_id').unique().execute();

  await db.schema
    .createTable('product_publication')
    .addColumn('publication_id', serial, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('visa_product_id', 'integer', (col) => col.notNull().references('visa_product.visa_product_id'))
    .addColumn('operator_id', 'integer', (col) => col.notNull().references('operator.id'))
    .addColumn('published_at', time, (col) => col.notNull())
    // [{field, before, after}] (JSON); before is null for a new product's fields.
    .addColumn('diff', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('product_publication_product_idx').on('product_publication').columns(['visa_product_id', 'published_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('product_publication').execute();
  await db.schema.dropTable('product_draft').execute();
}
