// Frozen in time: never import application code here.
// Visa results per applicant (issue 11, server/modules/result): one row per
// applicant (a unique index: the database refuses a second result, whatever
// races), issued (visa number, validity, entries, stay) or rejected (common
// reasons as a JSON array of codes, free text). The files an operator attaches
// — the e-visa of an issued applicant, the embassy's letter of a refused one —
// are stored like every upload (material storage) in visa_result_file: uploaded
// first (result_id null), attached by the result's change. purged_at is set by
// the retention job when the stored object is deleted (the row stays).
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';

  await db.schema
    .createTable('visa_result_file')
    .addColumn('file_id', pg ? 'serial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    .addColumn('applicant_id', 'integer', (col) => col.notNull().references('order_applicant.applicant_id'))
    // 'evisa' | 'letter'
    .addColumn('kind', 'varchar(10)', (col) => col.notNull())
    .addColumn('storage_key', 'varchar(100)', (col) => col.notNull())
    .addColumn('file_name', 'varchar(255)', (col) => col.notNull())
    .addColumn('content_type', 'varchar(50)', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'varchar(64)', (col) => col.notNull())
    .addColumn('operator_id', 'integer', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    // The result it belongs to; null while only uploaded.
    .addColumn('result_id', 'integer')
    .addColumn('purged_at', time)
    .execute();
  await db.schema.createIndex('visa_result_file_order_idx').on('visa_result_file').columns(['user_order_id', 'applicant_id']).execute();

  await db.schema
    .createTable('visa_result')
    .addColumn('result_id', pg ? 'serial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    .addColumn('applicant_id', 'integer', (col) => col.notNull().references('order_applicant.applicant_id'))
    // 'issued' | 'rejected'
    .addColumn('result', 'varchar(10)', (col) => col.notNull())
    .addColumn('visa_no', 'varchar(30)')
    .addColumn('valid_from', 'varchar(10)')
    .addColumn('valid_to', 'varchar(10)')
    .addColumn('entries', 'varchar(10)')
    .addColumn('stay_days', 'integer')
    // JSON array of reason codes (common/visa-result.ts).
    .addColumn('reject_reasons', 'text')
    .addColumn('reject_note', 'varchar(500)')
    // The e-visa (issued) or the embassy's letter (rejected).
    .addColumn('file_id', 'integer', (col) => col.references('visa_result_file.file_id'))
    .addColumn('operator_id', 'integer', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    .execute();
  // One result per applicant, decided by the database.
  await db.schema.createIndex('visa_result_one_per_applicant').on('visa_result').column('applicant_id').unique().execute();
  await db.schema.createIndex('visa_result_order_idx').on('visa_result').column('user_order_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('visa_result').execute();
  await db.schema.dropTable('visa_result_file').execute();
}
