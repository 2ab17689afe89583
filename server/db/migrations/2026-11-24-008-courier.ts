// Frozen in time: never import application code here.
// Couriers (server/modules/courier): the parcels of an order — paper
// materials to the service, passports back to the customer — with their
// tracking events, every route push the provider sent, and the service's
// receiving addresses per consular district. Plus the sandbox courier's own
// ledger, which plays SF Express's side (kept apart from our tables' meaning,
// like payment_sandbox_trade).
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'bigint' : 'integer';
  const serial = (name: string) => (table: any) =>
    table.addColumn(name, pg ? 'serial' : 'integer', (col: any) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()));

  // ── Shipments ───────────────────────────────────────────────────────────
  await serial('shipment_id')(db.schema.createTable('shipment'))
    // Our number for the parcel; the provider's order id (a repeat with it books nothing new).
    .addColumn('shipment_no', 'varchar(32)', (col: any) => col.notNull().unique())
    .addColumn('user_order_id', 'integer', (col: any) => col.notNull().references('user_order.user_order_id'))
    // to_service (paper materials) or to_customer (passports going home)
    .addColumn('direction', 'varchar(12)', (col: any) => col.notNull())
    // pickup (booked with the provider) or self (company and waybill typed by the sender)
    .addColumn('arrangement', 'varchar(8)', (col: any) => col.notNull())
    // The provider that tracks it ('sandbox'); null for self-arranged parcels.
    .addColumn('provider', 'varchar(20)')
    // SF, EMS, JD … OTHER (common/courier.ts) and the name shown (typed under OTHER).
    .addColumn('courier_company', 'varchar(10)', (col: any) => col.notNull())
    .addColumn('courier_company_name', 'varchar(30)', (col: any) => col.notNull())
    .addColumn('waybill_no', 'varchar(40)', (col: any) => col.notNull())
    // JSON snapshots of the contacts (a later address-book edit changes nothing); no sender for some self parcels.
    .addColumn('sender', 'text')
    .addColumn('receiver', 'text', (col: any) => col.notNull())
    .addColumn('parcel', 'varchar(100)', (col: any) => col.notNull())
    .addColumn('pickup_start', time)
    .addColumn('pickup_end', time)
    // booked, picked_up, in_transit, out_for_delivery, delivered (ranked), cancelled
    .addColumn('status', 'varchar(20)', (col: any) => col.notNull())
    // When the current status was reached, by the courier's clock.
    .addColumn('status_at', time, (col: any) => col.notNull())
    // The last status the order side's hooks were told about, and the lease of whoever is telling them now.
    .addColumn('announced_status', 'varchar(20)', (col: any) => col.notNull())
    .addColumn('announce_until', time)
    // When a tracking event last arrived (our clock), and when to ask the provider if none comes.
    .addColumn('last_route_at', time)
    .addColumn('next_query_at', time)
    // customer / operator / system and its id (actorOf in platform/principal.ts)
    .addColumn('created_by', 'varchar(10)', (col: any) => col.notNull())
    .addColumn('created_by_id', 'integer')
    .addColumn('created_at', time, (col: any) => col.notNull())
    .addColumn('updated_at', time, (col: any) => col.notNull())
    .addColumn('cancelled_at', time)
    .addCheckConstraint('shipment_direction_check', sql`direction in ('to_service', 'to_customer')`)
    .addCheckConstraint('shipment_arrangement_check', sql`arrangement in ('pickup', 'self')`)
    .addCheckConstraint('shipment_status_check', sql`status in ('booked', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'cancelled')`)
    .addCheckConstraint(
      'shipment_announced_check',
      sql`announced_status in ('booked', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'cancelled')`,
    )
    .addCheckConstraint('shipment_pickup_check', sql`(arrangement = 'pickup') = (provider is not null and pickup_start is not null and pickup_end is not null)`)
    .execute();
  await db.schema.createIndex('shipment_order_idx').on('shipment').column('user_order_id').execute();
  // A provider's waybill belongs to one shipment (self parcels have no provider: one parcel may carry two orders).
  await db.schema.createIndex('shipment_provider_waybill').on('shipment').columns(['provider', 'waybill_no']).unique().execute();
  // The reconciliation sweep and the announcement sweep look for these.
  await db.schema.createIndex('shipment_next_query_idx').on('shipment').column('next_query_at').execute();

  // Which applicants' materials or passports a parcel carries.
  await db.schema
    .createTable('shipment_applicant')
    .addColumn('shipment_id', 'integer', (col: any) => col.notNull().references('shipment.shipment_id'))
    .addColumn('applicant_id', 'integer', (col: any) => col.notNull().references('order_applicant.applicant_id'))
    .addPrimaryKeyConstraint('shipment_applicant_pk', ['shipment_id', 'applicant_id'])
    .execute();
  await db.schema.createIndex('shipment_applicant_applicant_idx').on('shipment_applicant').column('applicant_id').execute();

  // Each tracking event once: a repeated push inserts nothing.
  await serial('shipment_route_id')(db.schema.createTable('shipment_route'))
    .addColumn('shipment_id', 'integer', (col: any) => col.notNull().references('shipment.shipment_id'))
    // The provider's event code (SF opCode) or ours ('sent', 'received').
    .addColumn('op_code', 'varchar(20)', (col: any) => col.notNull())
    // The courier's time of the event (epoch ms, whole seconds for SF).
    .addColumn('event_time', time, (col: any) => col.notNull())
    // The status it means, or null (an event that moves nothing).
    .addColumn('status', 'varchar(20)')
    .addColumn('remark', 'varchar(500)', (col: any) => col.notNull())
    .addColumn('location', 'varchar(100)', (col: any) => col.notNull())
    .addColumn('provider_route_id', 'varchar(64)')
    // push, query, customer, operator
    .addColumn('source', 'varchar(10)', (col: any) => col.notNull())
    .addColumn('received_at', time, (col: any) => col.notNull())
    .addUniqueConstraint('shipment_route_event_unique', ['shipment_id', 'op_code', 'event_time'])
    .addCheckConstraint('shipment_route_source_check', sql`source in ('push', 'query', 'customer', 'operator')`)
    .execute();

  // Every route push the provider sent, verified or not (audit, like payment_notification).
  await serial('courier_push_id')(db.schema.createTable('courier_push'))
    .addColumn('provider', 'varchar(20)', (col: any) => col.notNull())
    // The provider's request id (SF requestID), when it could be read.
    .addColumn('request_id', 'varchar(64)')
    // The waybill numbers it named, comma-separated (for the record only).
    .addColumn('waybill_nos', 'varchar(200)')
    .addColumn('body', 'text', (col: any) => col.notNull())
    .addColumn('signature_valid', 'integer', (col: any) => col.notNull())
    // stored, duplicate, unknown_waybill, bad_signature, malformed, error
    .addColumn('outcome', 'varchar(20)', (col: any) => col.notNull())
    // Tracking events this push added (0 for a repeat).
    .addColumn('new_routes', 'integer', (col: any) => col.notNull())
    .addColumn('received_at', time, (col: any) => col.notNull())
    .execute();
  await db.schema.createIndex('courier_push_received_idx').on('courier_push').column('received_at').execute();

  // ── Where customers send paper materials ───────────────────────────────
  // One per consular district; the row without a district is the service's
  // central address, used for districts that have none of their own.
  await serial('receiving_address_id')(db.schema.createTable('receiving_address'))
    .addColumn('consular_district_id', 'integer', (col: any) => col.unique().references('consular_district.consular_district_id'))
    .addColumn('company_name', 'varchar(50)', (col: any) => col.notNull())
    .addColumn('name', 'varchar(20)', (col: any) => col.notNull())
    .addColumn('mobile_phone', 'varchar(11)', (col: any) => col.notNull())
    .addColumn('province_code', 'varchar(6)', (col: any) => col.notNull())
    .addColumn('city_code', 'varchar(6)', (col: any) => col.notNull())
    .addColumn('county_code', 'varchar(6)', (col: any) => col.notNull())
    .addColumn('province_name', 'varchar(20)', (col: any) => col.notNull())
    .addColumn('city_name', 'varchar(20)', (col: any) => col.notNull())
    .addColumn('county_name', 'varchar(20)', (col: any) => col.notNull())
    .addColumn('detail', 'varchar(100)', (col: any) => col.notNull())
    .addColumn('note', 'varchar(200)', (col: any) => col.notNull())
    .addColumn('updated_at', time, (col: any) => col.notNull())
    .execute();
  // At most one central address.
  await db.schema
    .createIndex('receiving_address_one_central')
    .on('receiving_address')
    .unique()
    .expression(sql`(consular_district_id is null)`)
    .where(sql.ref('consular_district_id'), 'is', null)
    .execute();

  // ── The sandbox courier's ledger (what "SF" knows) ─────────────────────
  await db.schema
    .createTable('courier_sandbox_waybill')
    .addColumn('waybill_no', 'varchar(20)', (col: any) => col.primaryKey())
    // The merchant's order id (our shipment_no): creating twice with it answers the same waybill.
    .addColumn('order_id', 'varchar(40)', (col: any) => col.notNull().unique())
    // The create-order request as SF would have received it (msgData JSON).
    .addColumn('request', 'text', (col: any) => col.notNull())
    .addColumn('origin_city', 'varchar(20)', (col: any) => col.notNull())
    .addColumn('destination_city', 'varchar(20)', (col: any) => col.notNull())
    .addColumn('created_at', time, (col: any) => col.notNull())
    // Time between two tracking events of this waybill (COURIER_SANDBOX_STEP_MS when it was created).
    .addColumn('step_ms', 'integer', (col: any) => col.notNull())
    .addColumn('cancelled_at', time)
    // The next tracking event to push (index into the sandbox's timeline) and when.
    .addColumn('next_event', 'integer', (col: any) => col.notNull().defaultTo(0))
    .addColumn('next_push_at', time)
    // Sendings of the current event that failed so far.
    .addColumn('push_attempts', 'integer', (col: any) => col.notNull().defaultTo(0))
    // Every push sent for this waybill, repeats included.
    .addColumn('pushes_sent', 'integer', (col: any) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('courier_sandbox_waybill_due_idx').on('courier_sandbox_waybill').column('next_push_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('courier_sandbox_waybill').execute();
  await db.schema.dropTable('receiving_address').execute();
  await db.schema.dropTable('courier_push').execute();
  await db.schema.dropTable('shipment_route').execute();
  await db.schema.dropTable('shipment_applicant').execute();
  await db.schema.dropTable('shipment').execute();
}
