// Frozen in time: never import application code here.
// Travellers are told themselves (issue 29, part 4):
// - traveller_message: one SMS or e-mail to one applicant's own mobile or
//   address, written in the order event's transaction and sent after the
//   commit by the traveller outbox (modules/notification). (applicant_id,
//   channel, dedupe_key) is unique: the same news about the same applicant
//   is written once, however often its event is recorded. status: pending →
//   sending (claimed) → sent | failed; skipped when the number opted out.
// - sms_opt_out: mobile numbers that replied TD (退订) or were opted out by an
//   operator; no SMS goes to them.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  await db.schema
    .createTable('traveller_message')
    .addColumn('message_id', pg ? 'serial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_order_id', 'integer', (col) => col.notNull().references('user_order.user_order_id'))
    .addColumn('applicant_id', 'integer', (col) => col.notNull().references('order_applicant.applicant_id'))
    .addColumn('order_event_id', 'integer', (col) => col.notNull().references('order_event.event_id'))
    .addColumn('channel', 'varchar(8)', (col) => col.notNull())
    .addColumn('to_address', 'text', (col) => col.notNull())
    .addColumn('template', 'varchar(40)', (col) => col.notNull())
    // The approved template's variables (JSON object of strings): the only words an SMS carries.
    .addColumn('params', 'text', (col) => col.notNull())
    .addColumn('dedupe_key', 'varchar(80)', (col) => col.notNull())
    // 1: a same-day change of an appointment, sent even in the quiet hours.
    .addColumn('urgent', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('status', 'varchar(10)', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (col) => col.notNull())
    .addColumn('claimed_until', time)
    .addColumn('claim_token', 'varchar(40)')
    .addColumn('last_error', 'text')
    .addColumn('provider_id', 'text')
    .addColumn('sent_at', time)
    .addColumn('created_at', time, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('traveller_message_dedupe_idx').on('traveller_message').columns(['applicant_id', 'channel', 'dedupe_key']).unique().execute();
  await db.schema.createIndex('traveller_message_due_idx').on('traveller_message').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('traveller_message_order_idx').on('traveller_message').columns(['user_order_id', 'message_id']).execute();
  // The per-number rate limit counts what went to a number lately.
  await db.schema.createIndex('traveller_message_to_idx').on('traveller_message').columns(['to_address', 'sent_at']).execute();

  await db.schema
    .createTable('sms_opt_out')
    .addColumn('mobile', 'varchar(20)', (col) => col.primaryKey())
    // 'reply' (the traveller replied TD) or 'operator'.
    .addColumn('source', 'varchar(10)', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sms_opt_out').execute();
  await db.schema.dropTable('traveller_message').execute();
}
