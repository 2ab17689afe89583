// Frozen in time: never import application code here.
// The back office's first stage (issue 9, server/modules/review): who works
// on a paid order and until when its current step is due, each uploaded
// file's review (round, reasons, who and when), and the log of every time an
// operator opened a customer's file. Plus the indexes of the work queue
// (processing orders by step and due time, overdue first) and of its search
// by applicant phone or name.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';

  // ── The order: assignee, due time of the current step, review round ─────
  // No foreign key to operator: the operator table is another migration's;
  // the review service checks the operator exists when assigning.
  await db.schema.alterTable('user_order').addColumn('assignee_operator_id', 'integer').execute();
  // The SLA due time of the current step (China's working days); null for steps without one.
  await db.schema.alterTable('user_order').addColumn('step_due_at', time).execute();
  // The material review round: 1 after payment, +1 on every re-upload submission.
  await db.schema
    .alterTable('user_order')
    .addColumn('review_round', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();

  // ── Each file's review ─────────────────────────────────────────────────
  // review_status and no_pass_memo exist since migration 005.
  // JSON array of the common reasons picked (模糊不清, 未拍全/有裁切, 已过期, 证件不符).
  await db.schema.alterTable('order_material_file').addColumn('review_reasons', 'text').execute();
  await db.schema.alterTable('order_material_file').addColumn('reviewed_by', 'integer').execute();
  await db.schema.alterTable('order_material_file').addColumn('reviewed_at', time).execute();
  // The round the current review belongs to (null while never reviewed).
  await db.schema.alterTable('order_material_file').addColumn('review_round', 'integer').execute();

  // ── Who opened which file ──────────────────────────────────────────────
  await db.schema
    .createTable('file_access_log')
    .addColumn('file_access_log_id', pg ? 'serial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('operator_id', 'integer', (col) => col.notNull())
    // 'material' (order_material_file); later kinds (application pages …) share the table.
    .addColumn('file_kind', 'varchar(20)', (col) => col.notNull())
    .addColumn('file_id', 'integer', (col) => col.notNull())
    .addColumn('user_order_id', 'integer', (col) => col.notNull())
    .addColumn('ip', 'varchar(45)')
    .addColumn('accessed_at', time, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('file_access_log_at_idx').on('file_access_log').column('accessed_at').execute();
  await db.schema.createIndex('file_access_log_operator_idx').on('file_access_log').columns(['operator_id', 'accessed_at']).execute();
  await db.schema.createIndex('file_access_log_order_idx').on('file_access_log').columns(['user_order_id', 'accessed_at']).execute();

  // ── The work queue ─────────────────────────────────────────────────────
  // First page of a step, overdue first (= earliest due first), then the order id.
  await db.schema.createIndex('user_order_queue_step_idx').on('user_order').columns(['status', 'step', 'step_due_at', 'user_order_id']).execute();
  // Every step at once, the same order.
  await db.schema.createIndex('user_order_queue_due_idx').on('user_order').columns(['status', 'step_due_at', 'user_order_id']).execute();
  await db.schema.createIndex('user_order_assignee_idx').on('user_order').columns(['assignee_operator_id', 'status']).execute();
  // Search by an applicant's phone or name.
  await db.schema.createIndex('order_applicant_mobile_idx').on('order_applicant').column('mobile_phone').execute();
  await db.schema.createIndex('order_applicant_name_idx').on('order_applicant').column('name').execute();
  // Pending files of an order (the round's end is decided on them).
  await db.schema.createIndex('order_material_file_review_idx').on('order_material_file').columns(['user_order_id', 'review_status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'order_material_file_review_idx',
    'order_applicant_name_idx',
    'order_applicant_mobile_idx',
    'user_order_assignee_idx',
    'user_order_queue_due_idx',
    'user_order_queue_step_idx',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.dropTable('file_access_log').execute();
  for (const column of ['review_round', 'reviewed_at', 'reviewed_by', 'review_reasons']) {
    await db.schema.alterTable('order_material_file').dropColumn(column).execute();
  }
  for (const column of ['review_round', 'step_due_at', 'assignee_operator_id']) {
    await db.schema.alterTable('user_order').dropColumn(column).execute();
  }
}
