// Frozen in time: never import application code here.
// Travellers saved for next time (常用出行人, issue 28 part 3):
// - traveller: an enterprise's saved traveller (the applicant's fields and
//   more), with when and by whom the traveller's consent to keeping their
//   documents was recorded.
// - traveller_document: their reusable documents (passport data page, ID card,
//   户口本, photo), stored like every upload (server/modules/stored-file),
//   with the date each was taken and its expiry.
// - order_material_file.reused_document_id: the document a file was reused
//   from. A reused file is the same stored object (the same storage_key), not
//   a copy: storage_key is no longer unique in order_material_file (one
//   passport scan may serve several orders). SQLite cannot drop a column's
//   UNIQUE, so the table is rebuilt from its own stored definition.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const serial = (name: string) => (table: any) =>
    table.addColumn(name, pg ? 'serial' : 'integer', (col: any) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()));

  await serial('traveller_id')(db.schema.createTable('traveller'))
    .addColumn('enterprise_id', 'integer', (col: any) => col.notNull().references('enterprise.id'))
    .addColumn('name', 'varchar(100)', (col: any) => col.notNull())
    .addColumn('pinyin', 'varchar(100)', (col: any) => col.notNull())
    // 'M' or 'F'
    .addColumn('sex', 'varchar(1)', (col: any) => col.notNull())
    .addColumn('birth_date', 'varchar(10)', (col: any) => col.notNull())
    .addColumn('mobile_phone', 'varchar(20)', (col: any) => col.notNull())
    .addColumn('email', 'varchar(200)')
    .addColumn('identity_id', 'integer', (col: any) => col.notNull())
    .addColumn('passport_no', 'varchar(20)')
    .addColumn('passport_expiry', 'varchar(10)')
    // The traveller's consent to keeping their documents: when, and which account recorded it.
    .addColumn('consent_at', time, (col: any) => col.notNull())
    .addColumn('consent_account_id', 'integer', (col: any) => col.notNull().references('account.id'))
    .addColumn('created_at', time, (col: any) => col.notNull())
    .addColumn('updated_at', time, (col: any) => col.notNull())
    .addCheckConstraint('traveller_sex_check', sql`sex in ('M', 'F')`)
    .execute();
  await db.schema.createIndex('traveller_enterprise_idx').on('traveller').columns(['enterprise_id', 'name']).execute();

  await serial('document_id')(db.schema.createTable('traveller_document'))
    .addColumn('traveller_id', 'integer', (col: any) => col.notNull().references('traveller.traveller_id'))
    .addColumn('enterprise_id', 'integer', (col: any) => col.notNull().references('enterprise.id'))
    // passport, id_card, hukou, photo
    .addColumn('doc_type', 'varchar(10)', (col: any) => col.notNull())
    .addColumn('storage_key', 'varchar(200)', (col: any) => col.notNull())
    .addColumn('file_name', 'varchar(200)', (col: any) => col.notNull())
    .addColumn('content_type', 'varchar(50)', (col: any) => col.notNull())
    .addColumn('size_bytes', 'integer', (col: any) => col.notNull())
    .addColumn('sha256', 'varchar(64)', (col: any) => col.notNull())
    // 'YYYY-MM-DD' or null: when the scan or photo was taken, and when the document expires.
    .addColumn('taken_date', 'varchar(10)')
    .addColumn('expiry_date', 'varchar(10)')
    .addColumn('account_id', 'integer', (col: any) => col.notNull().references('account.id'))
    .addColumn('created_at', time, (col: any) => col.notNull())
    .addCheckConstraint('traveller_document_type_check', sql`doc_type in ('passport', 'id_card', 'hukou', 'photo')`)
    .execute();
  await db.schema.createIndex('traveller_document_traveller_idx').on('traveller_document').column('traveller_id').execute();
  await db.schema.createIndex('traveller_document_key_idx').on('traveller_document').column('storage_key').execute();

  await db.schema.alterTable('order_material_file').addColumn('reused_document_id', 'integer').execute();
  if (pg) {
    await sql`alter table order_material_file drop constraint if exists order_material_file_storage_key_key`.execute(db);
  } else {
    const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'order_material_file'`.execute(db);
    const indexes = await sql<{
      sql: string;
    }>`select sql from sqlite_master where type = 'index' and tbl_name = 'order_material_file' and sql is not null`.execute(db);
    const ddl = table.rows[0]!.sql;
    const unique = /"storage_key" varchar\(200\) not null unique/i;
    if (!unique.test(ddl)) throw new Error('order_material_file: storage_key definition not as expected');
    const rebuilt = ddl
      .replace(unique, '"storage_key" varchar(200) not null')
      .replace(/^CREATE TABLE "order_material_file"/i, 'CREATE TABLE "order_material_file_rebuilt"');
    const sequence = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'order_material_file'`.execute(db);
    await sql.raw(rebuilt).execute(db);
    await sql`insert into order_material_file_rebuilt select * from order_material_file`.execute(db);
    await sql`drop table order_material_file`.execute(db);
    await sql`alter table order_material_file_rebuilt rename to order_material_file`.execute(db);
    for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
    if (sequence.rows[0]) await sql`update sqlite_sequence set seq = ${sequence.rows[0].seq} where name = 'order_material_file'`.execute(db);
  }
  await db.schema.createIndex('order_material_file_key_idx').on('order_material_file').column('storage_key').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('order_material_file_key_idx').execute();
  await db.schema.alterTable('order_material_file').dropColumn('reused_document_id').execute();
  await db.schema.dropTable('traveller_document').execute();
  await db.schema.dropTable('traveller').execute();
}
