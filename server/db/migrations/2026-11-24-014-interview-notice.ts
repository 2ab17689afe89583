// Frozen in time: never import application code here.
// The interview / fingerprint notice (issue 10, server/modules/interview):
// one published notice per applicant (date and time, consulate and address,
// the process, attention notes, telephone attention, the materials to bring),
// the customer's requests for another time (one open request per applicant),
// and the interview-guide video of each consulate (null: the default video).
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const id = pg ? 'serial' : 'integer';

  await db.schema.alterTable('consular_district').addColumn('interview_video_url', 'varchar(200)').execute();

  await db.schema
    .createTable('interview_notice')
    .addColumn('interview_notice_id', id, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    .addColumn('applicant_id', 'integer', (col) => col.notNull().unique().references('order_applicant.applicant_id'))
    // 'YYYY-MM-DD' and 'HH:MM', China time: the consulate's appointment.
    .addColumn('interview_date', 'varchar(10)', (col) => col.notNull())
    .addColumn('start_time', 'varchar(5)', (col) => col.notNull())
    .addColumn('end_time', 'varchar(5)', (col) => col.notNull())
    .addColumn('consulate_name', 'varchar(100)', (col) => col.notNull())
    .addColumn('consulate_address', 'varchar(300)', (col) => col.notNull())
    .addColumn('process', 'text', (col) => col.notNull())
    .addColumn('attention', 'text', (col) => col.notNull())
    .addColumn('telephone', 'text', (col) => col.notNull())
    // JSON array of the materials to bring (names).
    .addColumn('materials', 'text', (col) => col.notNull())
    .addColumn('published_by', 'integer', (col) => col.notNull())
    .addColumn('published_at', time, (col) => col.notNull())
    .addColumn('updated_at', time, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('interview_notice_order_idx').on('interview_notice').column('user_order_id').execute();

  await db.schema
    .createTable('interview_change_request')
    .addColumn('change_request_id', id, (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    .addColumn('applicant_id', 'integer', (col) => col.notNull().references('order_applicant.applicant_id'))
    .addColumn('from_slot_id', 'integer')
    .addColumn('to_slot_id', 'integer', (col) => col.notNull().references('interview_slot.interview_slot_id'))
    .addColumn('reason', 'varchar(200)')
    // 'open' | 'accepted' | 'declined'
    .addColumn('status', 'varchar(10)', (col) => col.notNull())
    .addColumn('decline_reason', 'varchar(200)')
    .addColumn('decided_by', 'integer')
    .addColumn('decided_at', time)
    .addColumn('created_at', time, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('interview_change_order_idx').on('interview_change_request').columns(['user_order_id', 'change_request_id']).execute();
  // At most one open request per applicant: the database says so too.
  await db.schema
    .createIndex('interview_change_open_idx')
    .on('interview_change_request')
    .column('applicant_id')
    .unique()
    .where(sql.ref('status'), '=', 'open')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('interview_change_request').execute();
  await db.schema.dropTable('interview_notice').execute();
  await db.schema.alterTable('consular_district').dropColumn('interview_video_url').execute();
}
