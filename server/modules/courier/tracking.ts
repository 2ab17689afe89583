// Recording tracking events for one shipment — the single function the
// provider's push, the query fallback and the hand-confirmed delivery all go
// through. One transaction that locks the shipment row first (so two pushes
// for one parcel, on one instance or several, take turns). Rules (docs/order-rules.md,
// "Couriers"):
// - each event is stored once: unique per shipment + event code + event time,
//   so a repeated push or a query answering what a push already brought
//   inserts nothing and changes nothing;
// - the status is the furthest status any stored event means, by rank
//   (booked < picked_up < in_transit < out_for_delivery < delivered), not the
//   last event received: a late 运输中 after 签收 is kept as history and moves
//   nothing back; events that mean no status (a failed delivery attempt) move
//   nothing;
// - a cancelled shipment stays cancelled (its events are still kept);
// - while a tracked parcel is on its way, every new event pushes the next
//   query of the provider back by COURIER_QUERY_AFTER_MS; delivered or
//   cancelled, it is no longer asked about.
import type { Kysely, Transaction } from 'kysely';
import { type ShipmentStatus, shipmentStatusRank } from '../../../common/courier.ts';
import type { CourierRoute } from './provider.ts';
import type { Database, RouteSource } from '../../db/schema.ts';

/** A tracking event to store (the provider's, or one a person recorded). */
export type NewRoute = Omit<CourierRoute, 'waybill_no' | 'shipment_no'>;

export interface RecordResult {
  shipment_id: number;
  /** Events stored by this call (0: all known already). */
  added: number;
  from: ShipmentStatus;
  to: ShipmentStatus;
}

export class ShipmentMissing extends Error {}

export async function recordRoutes(
  db: Kysely<Database>,
  shipmentId: number,
  routes: readonly NewRoute[],
  source: RouteSource,
  at: number,
  queryAfterMs: number,
): Promise<RecordResult> {
  return db.transaction().execute((trx) => recordRoutesIn(trx, shipmentId, routes, source, at, queryAfterMs));
}

/**
 * recordRoutes inside the caller's transaction (an operator's record by hand
 * inside the lifecycle change that finishes the order). `stopTracking`: the
 * parcel is no longer asked about (its journey ended without the courier).
 */
export async function recordRoutesIn(
  trx: Transaction<Database>,
  shipmentId: number,
  routes: readonly NewRoute[],
  source: RouteSource,
  at: number,
  queryAfterMs: number,
  stopTracking = false,
): Promise<RecordResult> {
  // Starts with a write: it takes the row lock on PostgreSQL and SQLite's write lock at once
  // (a transaction that first reads and then writes can fail to upgrade when another instance writes).
  const shipment = await trx
    .updateTable('shipment')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('shipment_id', '=', shipmentId)
    .returning(['status', 'next_query_at'])
    .executeTakeFirst();
  if (!shipment) throw new ShipmentMissing(`shipment ${shipmentId}`);

  let added = 0;
  let furthest: ShipmentStatus = shipment.status;
  for (const route of routes) {
    const inserted = await trx
      .insertInto('shipment_route')
      .values({
        shipment_id: shipmentId,
        op_code: route.op_code,
        event_time: route.event_time,
        status: route.status,
        remark: route.remark.slice(0, 500),
        location: route.location.slice(0, 100),
        provider_route_id: route.provider_route_id?.slice(0, 64) ?? null,
        source,
        received_at: at,
      })
      .onConflict((oc) => oc.columns(['shipment_id', 'op_code', 'event_time']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) continue;
    added += 1;
    if (route.status && furthest !== 'cancelled' && shipmentStatusRank(route.status) > shipmentStatusRank(furthest)) furthest = route.status;
  }
  if (added === 0) return { shipment_id: shipmentId, added, from: shipment.status, to: shipment.status };

  const tracked = shipment.next_query_at !== null && !stopTracking;
  const done = furthest === 'delivered' || furthest === 'cancelled';
  let statusAt: number | undefined;
  if (furthest !== shipment.status) {
    // When the parcel first reached the status (two 运输中 scans: the first).
    const first = await trx
      .selectFrom('shipment_route')
      .select((eb) => eb.fn.min('event_time').as('at'))
      .where('shipment_id', '=', shipmentId)
      .where('status', '=', furthest)
      .executeTakeFirstOrThrow();
    statusAt = Number(first.at);
  }
  await trx
    .updateTable('shipment')
    .set({
      ...(statusAt === undefined ? {} : { status: furthest, status_at: statusAt }),
      last_route_at: at,
      next_query_at: tracked && !done ? at + queryAfterMs : null,
      updated_at: at,
    })
    .where('shipment_id', '=', shipmentId)
    .execute();
  return { shipment_id: shipmentId, added, from: shipment.status, to: furthest };
}
