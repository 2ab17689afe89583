// Frozen in time: never import application code here.
// Notices (server/modules/notification): what the lifecycle tells a customer
// or an operator when an order event concerns them — one in-app notice per
// recipient and event (read or unread), written in the event's transaction —
// and the e-mail outbox: one row per message to send, drained after commit by
// a worker that claims rows with a lease (decision 0018).
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const serial = (name: string) => (table: any) =>
    table.addColumn(name, pg ? 'serial' : 'integer', (col: any) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()));

  await serial('notice_id')(db.schema.createTable('notice'))
    // customer: an account id; operator: an operator id (no foreign key: the operator table is the back office's).
    .addColumn('recipient_kind', 'varchar(10)', (col: any) => col.notNull())
    .addColumn('recipient_id', 'integer', (col: any) => col.notNull())
    // The template (server/modules/notification/notice-kinds.ts).
    .addColumn('kind', 'varchar(40)', (col: any) => col.notNull())
    .addColumn('user_order_id', 'integer', (col: any) => col.references('user_order.user_order_id'))
    .addColumn('title', 'varchar(100)', (col: any) => col.notNull())
    .addColumn('body', 'text', (col: any) => col.notNull())
    // An app path (/order/order-reupload/12), never an absolute URL.
    .addColumn('link', 'varchar(200)', (col: any) => col.notNull())
    // The lifecycle event that caused it; null for a notice of no event.
    .addColumn('order_event_id', 'integer', (col: any) => col.references('order_event.event_id'))
    .addColumn('read_at', time)
    .addColumn('created_at', time, (col: any) => col.notNull())
    .addCheckConstraint('notice_recipient_kind_check', sql`recipient_kind in ('customer', 'operator')`)
    .execute();
  // Never twice for one event and one recipient (a null event id never collides).
  await db.schema.createIndex('notice_event_recipient_unique').on('notice').columns(['order_event_id', 'recipient_kind', 'recipient_id']).unique().execute();
  // A recipient's list, newest first, and the unread count.
  await db.schema.createIndex('notice_recipient_idx').on('notice').columns(['recipient_kind', 'recipient_id', 'notice_id']).execute();
  await db.schema.createIndex('notice_unread_idx').on('notice').columns(['recipient_kind', 'recipient_id', 'read_at']).execute();

  await serial('notice_email_id')(db.schema.createTable('notice_email'))
    .addColumn('notice_id', 'integer', (col: any) => col.notNull().references('notice.notice_id'))
    .addColumn('to_address', 'varchar(254)', (col: any) => col.notNull())
    .addColumn('subject', 'varchar(200)', (col: any) => col.notNull())
    .addColumn('text', 'text', (col: any) => col.notNull())
    .addColumn('html', 'text', (col: any) => col.notNull())
    // pending → sent, or failed after the last attempt.
    .addColumn('status', 'varchar(10)', (col: any) => col.notNull())
    .addColumn('attempts', 'integer', (col: any) => col.notNull().defaultTo(0))
    // Not before this time (the backoff after a failed attempt).
    .addColumn('next_attempt_at', time, (col: any) => col.notNull())
    // The lease of the worker sending it now, and which claim holds it.
    .addColumn('claimed_until', time)
    .addColumn('claim_token', 'varchar(40)')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('sent_at', time)
    .addColumn('created_at', time, (col: any) => col.notNull())
    .addCheckConstraint('notice_email_status_check', sql`status in ('pending', 'sent', 'failed')`)
    .execute();
  await db.schema.createIndex('notice_email_notice_unique').on('notice_email').column('notice_id').unique().execute();
  // The worker's scan: pending rows due now.
  await db.schema.createIndex('notice_email_due_idx').on('notice_email').columns(['status', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notice_email').execute();
  await db.schema.dropTable('notice').execute();
}
