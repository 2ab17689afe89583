// Parcels that need a person (物流异常, decision 0039): tracking that stopped
// or reported an exception. A shipment still on its way (booked … 派送中)
// needs attention when
// - its latest tracking event is an exception (SF_EXCEPTION_OP_CODES: a
//   failed delivery or a held parcel — 70, 33 — or a return / forwarding —
//   99, 631, 648): nothing later has followed it; or
// - it was booked or sent COURIER_ATTENTION_DAYS ago and is not delivered.
// A parcel an operator recorded as come back (op code 'returned', by hand) or
// delivered is done. The same rule twice: for one order's parcels in memory
// (the workbench) and as a subquery over every order (the queue's filter).
import type { Kysely, Transaction } from 'kysely';
import type { ShipmentStatus } from '../../../common/courier.ts';
import type { Database } from '../../db/schema.ts';
import { SF_EXCEPTION_OP_CODES } from './sf-format.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The op code of a return recorded by hand (the parcel came back to the service). */
export const RETURNED_BY_HAND = 'returned';

/** Statuses of a parcel still on its way. */
const ON_ITS_WAY: ShipmentStatus[] = ['booked', 'picked_up', 'in_transit', 'out_for_delivery'];

export const ATTENTION_REASONS = {
  failed_delivery: '派送不成功或快件滞留',
  returned: '快件退回或转寄',
  no_delivery: '超过时限仍未签收',
} as const;
export type AttentionReason = keyof typeof ATTENTION_REASONS;

export interface Attention {
  reason: AttentionReason;
  reason_label: string;
  /** When it began: the exception's time, or when the time limit ran out. */
  since: number;
  /** The exception's remark (SF's words), or null. */
  remark: string | null;
}

interface AttentionShipment {
  status: ShipmentStatus;
  created_at: number;
  routes: ReadonlyArray<{ op_code: string; event_time: number; remark: string }>;
}

/** Whether a parcel came back by an operator's record. */
export function returnedByHand(shipment: Pick<AttentionShipment, 'routes'>): boolean {
  return shipment.routes.some((route) => route.op_code === RETURNED_BY_HAND);
}

/** Why this parcel needs a person now, or null. */
export function attentionOf(shipment: AttentionShipment, at: number, afterMs: number): Attention | null {
  if (!ON_ITS_WAY.includes(shipment.status) || returnedByHand(shipment)) return null;
  const latest = shipment.routes.reduce<AttentionShipment['routes'][number] | null>(
    (last, route) => (last === null || route.event_time >= last.event_time ? route : last),
    null,
  );
  if (latest && Object.hasOwn(SF_EXCEPTION_OP_CODES, latest.op_code)) {
    const reason = SF_EXCEPTION_OP_CODES[latest.op_code]!;
    return { reason, reason_label: ATTENTION_REASONS[reason], since: latest.event_time, remark: latest.remark };
  }
  if (shipment.created_at + afterMs <= at) {
    return { reason: 'no_delivery', reason_label: ATTENTION_REASONS.no_delivery, since: shipment.created_at + afterMs, remark: null };
  }
  return null;
}

/** The shipments needing attention at `at` (a query to select from or count). */
export function shipmentsNeedingAttention(db: Db, at: number, afterMs: number) {
  const exceptions = Object.keys(SF_EXCEPTION_OP_CODES);
  return db
    .selectFrom('shipment as s')
    .where('s.status', 'in', ON_ITS_WAY)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('shipment_route as h')
            .select('h.shipment_route_id')
            .whereRef('h.shipment_id', '=', 's.shipment_id')
            .where('h.op_code', '=', RETURNED_BY_HAND),
        ),
      ),
    )
    .where(({ or, eb, exists, selectFrom }) =>
      or([
        eb('s.created_at', '<=', at - afterMs),
        exists(
          selectFrom('shipment_route as e')
            .select('e.shipment_route_id')
            .whereRef('e.shipment_id', '=', 's.shipment_id')
            .where('e.op_code', 'in', exceptions)
            .where((inner) =>
              inner.not(
                inner.exists(
                  inner
                    .selectFrom('shipment_route as l')
                    .select('l.shipment_route_id')
                    .whereRef('l.shipment_id', '=', 'e.shipment_id')
                    .whereRef('l.event_time', '>', 'e.event_time')
                    .where('l.op_code', 'not in', exceptions),
                ),
              ),
            ),
        ),
      ]),
    );
}

/** The orders with a parcel needing attention (a subquery for the work queue's 物流异常 filter). */
export function ordersNeedingCourierAttention(db: Db, at: number, afterMs: number) {
  return shipmentsNeedingAttention(db, at, afterMs).select('s.user_order_id');
}
