// Frozen in time: never import application code here.
// The visa photo check at upload (issue 28): one row per photo file (the
// applicant's order_material_file of kind photo), written after the upload
// is recorded and replaced with its content.
// - verdict: pass | fixed | fail | error; problems and fixes: JSON arrays of
//   Chinese lines (what is wrong, what the processing did); measures: JSON of
//   what was measured.
// - processed_*: the processed photo (a stored object of the same storage,
//   encrypted like every stored file) while the customer has not chosen.
// - choice: null (not chosen; the original stays in the file row), original,
//   or processed (the file row then holds the processed photo; the object not
//   chosen is deleted).
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('photo_check')
    .addColumn('file_id', 'integer', (col) => col.primaryKey().references('order_material_file.file_id'))
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    // The content checked (order_material_file.sha256 when it was checked).
    .addColumn('sha256', 'varchar(64)', (col) => col.notNull())
    .addColumn('verdict', 'varchar(8)', (col) => col.notNull())
    .addColumn('problems', 'text', (col) => col.notNull())
    .addColumn('fixes', 'text', (col) => col.notNull())
    .addColumn('measures', 'text', (col) => col.notNull())
    .addColumn('rule_color', 'integer', (col) => col.notNull())
    .addColumn('rule_width', 'integer', (col) => col.notNull())
    .addColumn('rule_height', 'integer', (col) => col.notNull())
    .addColumn('processed_key', 'text')
    .addColumn('processed_sha256', 'varchar(64)')
    .addColumn('processed_size', 'integer')
    .addColumn('choice', 'varchar(10)')
    .addColumn('checked_at', pg ? 'bigint' : 'integer', (col) => col.notNull())
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('photo_check_order_idx').on('photo_check').column('user_order_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('photo_check').execute();
}
