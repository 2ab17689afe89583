// The sandbox courier provider: plays SF Express's open platform so every
// courier path runs here without an SF account. createWaybill books a pickup
// in its ledger and hands back an SF-style waybill number; from then on its
// pusher sends a signed route push for each tracking event (揽收 → 运输中 →
// 派送中 → 签收, one every COURIER_SANDBOX_STEP_MS), sometimes twice;
// queryRoutes answers the events so far and cancelWaybill calls a booking off
// before the courier came — the open platform's calls, as plain function calls.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CourierProvider, type CourierRoute, type ParsedPush } from './provider.ts';
import { sfCreateOrderMsgData, sfOpCodeStatus } from './sf-format.ts';
import { parseSfRoutePush, sfPushAnswer } from './sf-push.ts';
import { createSandboxLedger, newSandboxWaybillNo } from './sandbox-ledger.ts';
import { createSandboxPusher, type PushTransport } from './sandbox-pusher.ts';
import { sandboxEventsSoFar, sandboxRouteId, sandboxTimeline } from './sandbox-tracking.ts';

export const SANDBOX_COURIER = 'sandbox';

export interface SandboxCourierOptions {
  db: Kysely<Database>;
  /** SF's 顾客编码 (partnerID) the pushes carry. */
  partnerId: string;
  /** SF's 校验码: signs the pushes. */
  checkWord: string;
  /** PUBLIC_SITE_URL: where our push endpoint lives. */
  siteUrl: string;
  stepMs: number;
  duplicateRate: number;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  transport?: PushTransport;
  retryDelaysMs?: readonly number[];
  random?: () => number;
}

export function createSandboxCourier(options: SandboxCourierOptions) {
  const { db, now } = options;
  const signer = { partnerId: options.partnerId, checkWord: options.checkWord };
  const ledger = createSandboxLedger(db);
  const pusher = createSandboxPusher({
    ledger,
    signer,
    notifyUrl: `${options.siteUrl.replace(/\/+$/, '')}/courier/notify/${SANDBOX_COURIER}`,
    now,
    log: options.log,
    duplicateRate: options.duplicateRate,
    transport: options.transport,
    retryDelaysMs: options.retryDelaysMs,
    random: options.random,
  });
  let stepMs = options.stepMs;

  const provider: CourierProvider = {
    name: SANDBOX_COURIER,
    company: 'SF',

    async createWaybill(input) {
      const waybill = await ledger.open({
        waybill_no: newSandboxWaybillNo(),
        order_id: input.shipment_no,
        request: sfCreateOrderMsgData({
          orderId: input.shipment_no,
          sender: input.sender,
          receiver: input.receiver,
          cargo: input.parcel,
          pickupStart: input.pickup_window.start,
        }),
        origin_city: input.sender.city_name.slice(0, 20),
        destination_city: input.receiver.city_name.slice(0, 20),
        created_at: now(),
        step_ms: stepMs,
      });
      pusher.wake(sandboxTimeline(waybill)[0]!.at);
      return { waybill_no: waybill.waybill_no };
    },

    cancelWaybill(shipmentNo) {
      return ledger.cancel(shipmentNo, now());
    },

    async queryRoutes(waybillNo) {
      const waybill = await ledger.find(waybillNo);
      if (!waybill) return null;
      return sandboxEventsSoFar(waybill, now()).map((event): CourierRoute => ({
        waybill_no: waybill.waybill_no,
        shipment_no: waybill.order_id,
        op_code: event.opCode,
        status: sfOpCodeStatus(event.opCode),
        event_time: event.at,
        remark: event.remark,
        location: event.acceptAddress,
        provider_route_id: sandboxRouteId(waybill.waybill_no, event),
      }));
    },

    parsePush(rawBody): ParsedPush {
      return parseSfRoutePush(signer, rawBody, now());
    },

    answer: sfPushAnswer,
  };

  return {
    provider,
    ledger,
    pusher,
    /** The step for waybills created from now on (tests shorten or lengthen the journey). */
    setStepMs(next: number): void {
      stepMs = next;
    },
    start(): void {
      pusher.start();
    },
    /** Stops the pushing; resolves once a run under way has finished. */
    close(): Promise<void> {
      return pusher.stop();
    },
  };
}

export type SandboxCourier = ReturnType<typeof createSandboxCourier>;
