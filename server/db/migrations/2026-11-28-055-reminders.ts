// Frozen in time: never import application code here.
// Reminders (issue 29, part 5; decision 0047): reminder_sent records each
// reminder the scheduled jobs sent, keyed by what it was about — the kind,
// the order, the applicant (0: the order as a whole) and the occasion (the
// expiry instant, the appointment, the departure date). The unique index is
// the "once": a job inserts this row and the notices in one transaction, and
// an instance that loses the race inserts nothing. A new occasion (a moved
// departure date, a rescheduled appointment) is a new row: told again.
// interview_notice gets an index on its date, which the interview reminder
// looks up every few minutes.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  await db.schema
    .createTable('reminder_sent')
    .addColumn('reminder_sent_id', pg ? 'serial' : 'integer', (col: any) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    .addColumn('applicant_id', 'integer', (col) => col.notNull())
    .addColumn('occasion', 'text', (col) => col.notNull())
    .addColumn('sent_at', time, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('reminder_sent_unique').on('reminder_sent').columns(['kind', 'user_order_id', 'applicant_id', 'occasion']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('interview_notice_date_idx').execute();
  await db.schema.dropTable('reminder_sent').execute();
}
