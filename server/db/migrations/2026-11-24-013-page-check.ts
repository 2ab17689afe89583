// Frozen in time: never import application code here.
// The page check (核页, issue 10, server/modules/page-check): per applicant,
// the application pages the operator filled in outside the product and
// uploaded (PDF or images, stored like customers' files), the state of the
// applicant's check (draft → published → confirmed, or correction → published
// again), the customer's comments on a page, and the order's embassy
// submission date (the operator's `submit`).
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const id = (col: any) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());

  // The embassy submission date (yyyy-mm-dd), written by `submit`.
  await db.schema.alterTable('user_order').addColumn('submitted_date', 'varchar(10)').execute();

  // One row per applicant once the operator starts: where its check stands and its round.
  await db.schema
    .createTable('page_check_applicant')
    .addColumn('applicant_id', 'integer', (col) => col.primaryKey().references('order_applicant.applicant_id').onDelete('cascade'))
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id').onDelete('cascade'))
    // draft: being prepared; published: waiting for the customer; correction: customer asked for changes; confirmed.
    .addColumn('status', 'varchar(12)', (col) => col.notNull())
    // 1 at the first publication, +1 on every republication.
    .addColumn('round', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('published_at', time)
    .addColumn('confirmed_at', time)
    .addColumn('updated_at', time, (col) => col.notNull())
    .addCheckConstraint('page_check_applicant_status_check', sql`status in ('draft', 'published', 'correction', 'confirmed')`)
    .execute();
  await db.schema.createIndex('page_check_applicant_order_idx').on('page_check_applicant').column('user_order_id').execute();

  // The pages themselves: one stored file each (a PDF may hold several pages).
  await db.schema
    .createTable('page_check_page')
    .addColumn('page_id', pg ? 'serial' : 'integer', id)
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id').onDelete('cascade'))
    .addColumn('applicant_id', 'integer', (col) => col.notNull().references('order_applicant.applicant_id').onDelete('cascade'))
    .addColumn('storage_key', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('file_name', 'varchar(255)', (col) => col.notNull())
    .addColumn('content_type', 'varchar(40)', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'varchar(64)', (col) => col.notNull())
    .addColumn('operator_id', 'integer', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('page_check_page_applicant_idx').on('page_check_page').columns(['applicant_id', 'page_id']).execute();

  // The customer's correction requests: a comment on one page (and, in a PDF, its page number).
  await db.schema
    .createTable('page_check_comment')
    .addColumn('comment_id', pg ? 'serial' : 'integer', id)
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id').onDelete('cascade'))
    .addColumn('applicant_id', 'integer', (col) => col.notNull().references('order_applicant.applicant_id').onDelete('cascade'))
    // No foreign key: the page may be replaced after the comment; the comment keeps its name.
    .addColumn('page_id', 'integer', (col) => col.notNull())
    .addColumn('page_label', 'varchar(300)', (col) => col.notNull())
    .addColumn('page_no', 'integer')
    .addColumn('round', 'integer', (col) => col.notNull())
    .addColumn('comment', 'varchar(500)', (col) => col.notNull())
    .addColumn('account_id', 'integer', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('page_check_comment_applicant_idx').on('page_check_comment').columns(['applicant_id', 'comment_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('page_check_comment').execute();
  await db.schema.dropTable('page_check_page').execute();
  await db.schema.dropTable('page_check_applicant').execute();
  await db.schema.alterTable('user_order').dropColumn('submitted_date').execute();
}
