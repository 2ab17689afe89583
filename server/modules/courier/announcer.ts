// Telling the order side that a shipment reached a status. Handlers are
// registered in-process (onShipmentStatus) by every instance alike; a status
// change is announced after its transaction committed, by whoever made it
// (push, query, hand-confirmed delivery, cancellation). The shipment row
// remembers the last status announced (announced_status) and who is
// announcing now (announce_until, a lease): so each status is told once even
// with several instances, and a change whose announcement was cut short (a
// crash, a failing handler) is told again by the sweep — at least once, never
// lost. A status jumped over (签收 arriving before 揽收) is not told
// separately: the handler gets from → to and can compare with
// shipmentReached().
import type { FastifyBaseLogger } from 'fastify';
import type { ShipmentArrangement, ShipmentDirection, ShipmentStatus } from '../../../common/courier.ts';
import type { CourierRepository, ShipmentRow } from './courier.repository.ts';

export interface ShipmentStatusEvent {
  shipment_id: number;
  shipment_no: string;
  user_order_id: number;
  direction: ShipmentDirection;
  arrangement: ShipmentArrangement;
  waybill_no: string;
  /** The applicants whose materials or passports the parcel carries. */
  applicant_ids: number[];
  /** The status last announced (the one it was created with, the first time). */
  from: ShipmentStatus;
  to: ShipmentStatus;
  /** When `to` was reached, by the courier's clock. */
  status_at: number;
}

export type ShipmentStatusHandler = (event: ShipmentStatusEvent) => Promise<void> | void;

/** How long one instance may take to tell the handlers before another may try. */
export const ANNOUNCE_LEASE_MS = 60_000;
/** After a handler failed, the sweep tries again no sooner than this. */
export const ANNOUNCE_RETRY_MS = 60_000;

export function createAnnouncer(repo: CourierRepository, deps: { now: () => number; log: Pick<FastifyBaseLogger, 'warn' | 'error'> }) {
  const handlers = new Set<ShipmentStatusHandler>();
  const { now, log } = deps;

  /** Tells every handler about one claimed change; false when one of them failed. */
  async function tell(shipment: ShipmentRow): Promise<boolean> {
    const applicants = (await repo.applicantIds([shipment.shipment_id])).get(shipment.shipment_id) ?? [];
    const event: ShipmentStatusEvent = {
      shipment_id: shipment.shipment_id,
      shipment_no: shipment.shipment_no,
      user_order_id: shipment.user_order_id,
      direction: shipment.direction,
      arrangement: shipment.arrangement,
      waybill_no: shipment.waybill_no,
      applicant_ids: applicants,
      from: shipment.announced_status,
      to: shipment.status,
      status_at: shipment.status_at,
    };
    for (const handler of handlers) {
      try {
        await handler(event);
      } catch (error) {
        log.error({ err: error, shipmentId: shipment.shipment_id, to: shipment.status }, 'shipment status handler failed');
        return false;
      }
    }
    return true;
  }

  /** Announces the shipment's status if nobody has yet (and keeps up if it moves on meanwhile). */
  async function announce(shipmentId: number): Promise<void> {
    for (let round = 0; round < 5; round += 1) {
      const shipment = await repo.byId(shipmentId);
      if (!shipment || shipment.status === shipment.announced_status) return;
      const at = now();
      if (shipment.announce_until !== null && shipment.announce_until > at) return; // someone else is on it
      const lease = at + ANNOUNCE_LEASE_MS;
      if (!(await repo.claimAnnouncement(shipment, at, lease))) continue; // it moved: look again
      if (!(await tell(shipment))) {
        await repo.announcementFailed(shipmentId, lease, now() + ANNOUNCE_RETRY_MS);
        return;
      }
      await repo.announced(shipmentId, shipment.status, lease);
    }
  }

  return {
    /** Registers a handler; returns the function that removes it. */
    on(handler: ShipmentStatusHandler): () => void {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    announce,
    /** The sweep: announces every change not told yet (a crash, a failed handler); returns how many it looked at. */
    async announceDue(limit = 100): Promise<number> {
      const due = await repo.dueAnnouncements(now(), limit);
      for (const shipment of due) await announce(shipment.shipment_id);
      return due.length;
    },
  };
}

export type Announcer = ReturnType<typeof createAnnouncer>;
