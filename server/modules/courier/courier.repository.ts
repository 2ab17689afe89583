// Courier queries: shipments and the applicants they carry, their tracking
// events, the provider's pushes as received, the receiving addresses, and the
// leases of the two sweeps (asking the provider, telling the order side).
// Recording tracking events (the one transaction that moves a shipment's
// status) is in tracking.ts.
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { ShipmentStatus } from '../../../common/courier.ts';
import type { CourierPushTable, Database, ShipmentRouteTable, ShipmentTable } from '../../db/schema.ts';

export type ShipmentRow = Selectable<ShipmentTable>;
export type ShipmentRouteRow = Selectable<ShipmentRouteTable>;

/** Statuses a parcel can still leave. */
const OPEN: ShipmentStatus[] = ['booked', 'picked_up', 'in_transit', 'out_for_delivery'];

export function createCourierRepository(db: Kysely<Database>) {
  const shipments = () => db.selectFrom('shipment').selectAll();

  return {
    /** The applicants of an order (inside the caller's transaction, so the answer holds for the insert). */
    async applicantIdsOfOrder(trx: Transaction<Database>, userOrderId: number): Promise<number[]> {
      const rows = await trx.selectFrom('order_applicant').select('applicant_id').where('user_order_id', '=', userOrderId).execute();
      return rows.map((row) => row.applicant_id);
    },

    async insert(trx: Transaction<Database>, row: Insertable<ShipmentTable>, applicantIds: number[]): Promise<number> {
      const { shipment_id } = await trx.insertInto('shipment').values(row).returning('shipment_id').executeTakeFirstOrThrow();
      await trx
        .insertInto('shipment_applicant')
        .values(applicantIds.map((applicant_id) => ({ shipment_id, applicant_id })))
        .execute();
      return shipment_id;
    },

    byId(shipmentId: number) {
      return shipments().where('shipment_id', '=', shipmentId).executeTakeFirst();
    },

    byWaybill(provider: string, waybillNo: string) {
      return shipments().where('provider', '=', provider).where('waybill_no', '=', waybillNo).executeTakeFirst();
    },

    ofOrder(userOrderId: number) {
      return shipments().where('user_order_id', '=', userOrderId).orderBy('shipment_id').execute();
    },

    async applicantIds(shipmentIds: number[]): Promise<Map<number, number[]>> {
      const byShipment = new Map<number, number[]>(shipmentIds.map((id) => [id, []]));
      if (shipmentIds.length === 0) return byShipment;
      const rows = await db
        .selectFrom('shipment_applicant')
        .select(['shipment_id', 'applicant_id'])
        .where('shipment_id', 'in', shipmentIds)
        .orderBy('applicant_id')
        .execute();
      for (const row of rows) byShipment.get(row.shipment_id)!.push(row.applicant_id);
      return byShipment;
    },

    /** Tracking events, oldest first (ties: in the order the parcel goes through the statuses, then as stored). */
    routes(shipmentIds: number[]): Promise<ShipmentRouteRow[]> {
      if (shipmentIds.length === 0) return Promise.resolve([]);
      return db.selectFrom('shipment_route').selectAll().where('shipment_id', 'in', shipmentIds).orderBy('event_time').orderBy('shipment_route_id').execute();
    },

    /** booked → cancelled; false when the parcel moved meanwhile. */
    async cancel(shipmentId: number, at: number): Promise<boolean> {
      const result = await db
        .updateTable('shipment')
        .set({ status: 'cancelled', status_at: at, cancelled_at: at, next_query_at: null, updated_at: at })
        .where('shipment_id', '=', shipmentId)
        .where('status', '=', 'booked')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    // ── The query fallback ────────────────────────────────────────────────

    /** Tracked parcels still on their way whose time to ask the provider has come. */
    dueForQuery(provider: string, at: number, createdAfter: number, limit: number) {
      return shipments()
        .where('provider', '=', provider)
        .where('status', 'in', OPEN)
        .where('next_query_at', '<=', at)
        .where('created_at', '>', createdAfter)
        .orderBy('next_query_at')
        .limit(limit)
        .execute();
    },

    /** Takes the query of one shipment (true for exactly one of several instances): its next one is due at `nextAt`. */
    async claimQuery(shipment: ShipmentRow, nextAt: number): Promise<boolean> {
      if (shipment.next_query_at === null) return false;
      const result = await db
        .updateTable('shipment')
        .set({ next_query_at: nextAt })
        .where('shipment_id', '=', shipment.shipment_id)
        .where('next_query_at', '=', shipment.next_query_at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    // ── Telling the order side (announcer.ts) ───────────────────────────

    /** Shipments whose status the hooks have not been told yet and nobody is telling now. */
    dueAnnouncements(at: number, limit: number) {
      return shipments()
        .whereRef('status', '<>', 'announced_status')
        .where((eb) => eb.or([eb('announce_until', 'is', null), eb('announce_until', '<=', at)]))
        .orderBy('updated_at')
        .limit(limit)
        .execute();
    },

    /** How many shipments have a status not yet told to the order side (the courier sweep's backlog). */
    async countUnannounced(): Promise<number> {
      const row = await db
        .selectFrom('shipment')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .whereRef('status', '<>', 'announced_status')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Takes the announcement of `to` until `until`; true for exactly one claimer. */
    async claimAnnouncement(shipment: ShipmentRow, at: number, until: number): Promise<boolean> {
      const result = await db
        .updateTable('shipment')
        .set({ announce_until: until })
        .where('shipment_id', '=', shipment.shipment_id)
        .where('status', '=', shipment.status)
        .where('announced_status', '=', shipment.announced_status)
        .where((eb) => eb.or([eb('announce_until', 'is', null), eb('announce_until', '<=', at)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The hooks were told `status`; the lease ends. */
    async announced(shipmentId: number, status: ShipmentStatus, lease: number): Promise<void> {
      await db
        .updateTable('shipment')
        .set({ announced_status: status, announce_until: null })
        .where('shipment_id', '=', shipmentId)
        .where('announce_until', '=', lease)
        .execute();
    },

    /** A hook failed: nobody tries again before `retryAt` (the sweep does then). */
    async announcementFailed(shipmentId: number, lease: number, retryAt: number): Promise<void> {
      await db.updateTable('shipment').set({ announce_until: retryAt }).where('shipment_id', '=', shipmentId).where('announce_until', '=', lease).execute();
    },

    // ── Pushes and addresses ────────────────────────────────────────────

    recordPush(row: Insertable<CourierPushTable>) {
      return db.insertInto('courier_push').values(row).execute();
    },

    /** The district's own receiving address, else the central one (no district), else none. */
    receivingAddress(consularDistrictId: number | null) {
      return db
        .selectFrom('receiving_address')
        .selectAll()
        .where((eb) =>
          consularDistrictId === null
            ? eb('consular_district_id', 'is', null)
            : eb.or([eb('consular_district_id', '=', consularDistrictId), eb('consular_district_id', 'is', null)]),
        )
        .orderBy((eb) => eb.case().when('consular_district_id', 'is', null).then(1).else(0).end())
        .limit(1)
        .executeTakeFirst();
    },
  };
}

export type CourierRepository = ReturnType<typeof createCourierRepository>;
