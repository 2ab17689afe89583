// Frozen in time: never import application code here.
// Orders keep the product they were placed with (issue 26): publishing a
// product change (server/modules/catalogue-admin) or importing a workbook
// (server/modules/catalogue-io) must never change an existing order. The price
// and titles were already copied onto user_order; the checklist and the photo
// rule were read from the live product. Now:
// - order_checklist_item: the product's whole checklist (every identity) as it
//   was when the order was placed. material_id stays the key the order's files
//   (order_material_file.material_id) use.
// - user_order.visa_photo_id and photo_*: the photo rule's values (0 = none).
// - visa_product_material.retired: a material taken off a product while an
//   order's checklist still lists it is retired, not deleted — the order's
//   files may still point at it (foreign key), and the live product no longer
//   shows it.
// Existing orders get the snapshot of their product as it is now.
// - catalogue_import: every workbook a supervisor imported in the back office
//   (who, when, which file, what it changed), like product_publication.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('catalogue_import')
    .addColumn('import_id', pg ? 'serial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('operator_id', 'integer', (col) => col.notNull().references('operator.id'))
    .addColumn('imported_at', pg ? 'bigint' : 'integer', (col) => col.notNull())
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('sha256', 'varchar(64)', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    // [{sheet, added, changed, removed, rows}] (JSON): what the import changed.
    .addColumn('changes', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('catalogue_import_at_idx').on('catalogue_import').column('imported_at').execute();

  await db.schema
    .createTable('order_checklist_item')
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    .addColumn('material_id', 'integer', (col) => col.notNull())
    .addColumn('identity_id', 'integer', (col) => col.notNull())
    .addColumn('required', 'integer', (col) => col.notNull())
    .addColumn('attr', 'integer', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('attention', 'text', (col) => col.notNull())
    .addColumn('sample', 'text')
    .addColumn('sort', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('order_checklist_item_pk', ['user_order_id', 'material_id'])
    .execute();
  await db.schema.createIndex('order_checklist_item_material_idx').on('order_checklist_item').column('material_id').execute();

  await db.schema
    .alterTable('user_order')
    .addColumn('visa_photo_id', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('user_order').addColumn('photo_color', 'integer').execute();
  await db.schema.alterTable('user_order').addColumn('photo_width', 'integer').execute();
  await db.schema.alterTable('user_order').addColumn('photo_height', 'integer').execute();
  await db.schema.alterTable('user_order').addColumn('photo_name', 'text').execute();
  await db.schema
    .alterTable('visa_product_material')
    .addColumn('retired', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  // Backfill: every existing order from its product as it is today.
  await sql`insert into order_checklist_item (user_order_id, material_id, identity_id, required, attr, name, attention, sample, sort)
    select o.user_order_id, m.material_id, m.identity_id, m.required, m.attr, m.name, m.attention, m.sample, m.sort
    from user_order o join visa_product_material m on m.visa_product_id = o.visa_product_id`.execute(db);
  await sql`update user_order set
    visa_photo_id = coalesce((select p.visa_photo_id from visa_product v join photo_param p on p.visa_photo_id = v.visa_photo_id
      where v.visa_product_id = user_order.visa_product_id), 0),
    photo_color = (select p.color from visa_product v join photo_param p on p.visa_photo_id = v.visa_photo_id where v.visa_product_id = user_order.visa_product_id),
    photo_width = (select p.width from visa_product v join photo_param p on p.visa_photo_id = v.visa_photo_id where v.visa_product_id = user_order.visa_product_id),
    photo_height = (select p.height from visa_product v join photo_param p on p.visa_photo_id = v.visa_photo_id where v.visa_product_id = user_order.visa_product_id),
    photo_name = (select p.name from visa_product v join photo_param p on p.visa_photo_id = v.visa_photo_id where v.visa_product_id = user_order.visa_product_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('visa_product_material').dropColumn('retired').execute();
  for (const column of ['photo_name', 'photo_height', 'photo_width', 'photo_color', 'visa_photo_id']) {
    await db.schema.alterTable('user_order').dropColumn(column).execute();
  }
  await db.schema.dropTable('order_checklist_item').execute();
  await db.schema.dropTable('catalogue_import').execute();
}
