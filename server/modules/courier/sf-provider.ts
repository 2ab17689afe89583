// The real courier: SF Express's open platform (丰桥, decision 0039).
// - createWaybill: EXP_RECE_CREATE_ORDER, our shipment_no as SF's orderId,
//   billed to the monthly account (月结卡号, SF_MONTHLY_CARD), the courier
//   called to the door. SF keeps one order per orderId: a second create with
//   it is refused with 8016 (重复下单). So when a create times out (outcome
//   unknown) it is sent once more with the same orderId, and an 8016 is
//   answered by asking EXP_RECE_SEARCH_ORDER_RESP for the order's waybill —
//   never two pickups for one parcel.
// - cancelWaybill: EXP_RECE_UPDATE_ORDER with dealType 2 (取消).
// - queryRoutes: EXP_RECE_SEARCH_ROUTES by waybill number (trackingType 1).
// - parsePush/answer: SF's route push, signed with the same check word
//   (sf-push.ts, shared with the sandbox).
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { type CourierProvider, CourierProviderError, type CourierRoute } from './provider.ts';
import { type SfAnswer, type SfApi, SfUnreachable } from './sf-api.ts';
import {
  SF_CREATE_ORDER_SERVICE,
  SF_SEARCH_ORDER_SERVICE,
  SF_SEARCH_ROUTES_SERVICE,
  SF_UPDATE_ORDER_SERVICE,
  parseAcceptTime,
  sfCreateOrderMsgData,
  sfOpCodeStatus,
} from './sf-format.ts';
import { parseSfRoutePush, sfPushAnswer } from './sf-push.ts';

export const SF_COURIER = 'sf';

/** SF's business error codes we act on. */
export const SF_ERRORS = {
  /** 重复下单: an order with this orderId exists already. */
  duplicateOrder: '8016',
  /** 订单已消单: cancelled already (cancelling twice is fine). */
  alreadyCancelled: '8037',
} as const;

const waybillNoInfoSchema = z.object({
  waybillNoInfoList: z.array(z.object({ waybillType: z.coerce.number().optional(), waybillNo: z.string().regex(/^[A-Za-z0-9]{6,40}$/) })).min(1),
});

const routesAnswerSchema = z.object({
  routeResps: z.array(
    z.object({
      mailNo: z.string(),
      routes: z
        .array(
          z.object({
            acceptTime: z.string(),
            acceptAddress: z.string().max(100).optional().nullable(),
            remark: z.string().max(500).optional().nullable(),
            opCode: z.string().regex(/^[0-9A-Za-z]{1,10}$/),
          }),
        )
        .default([]),
    }),
  ),
});

export interface SfCourierOptions {
  api: SfApi;
  partnerId: string;
  checkWord: string;
  monthlyCard: string;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/** The parcel's main waybill (waybillType 1; the first one when SF does not say). */
function mainWaybill(msgData: unknown): string | null {
  const parsed = waybillNoInfoSchema.safeParse(msgData);
  if (!parsed.success) return null;
  const list = parsed.data.waybillNoInfoList;
  return (list.find((info) => info.waybillType === 1) ?? list[0]!).waybillNo;
}

function refused(service: string, answer: SfAnswer): CourierProviderError {
  return new CourierProviderError(`SF ${service} refused: ${answer.errorCode ?? '?'} ${answer.errorMsg ?? ''}`.trim());
}

export function createSfCourier(options: SfCourierOptions): CourierProvider {
  const { api, log } = options;
  const signer = { partnerId: options.partnerId, checkWord: options.checkWord };

  /** The waybill of an order SF has (8016, or a create whose answer was lost); null when SF has no such order. */
  async function waybillOfOrder(orderId: string): Promise<string | null> {
    const answer = await api.call(SF_SEARCH_ORDER_SERVICE, { orderId, searchType: '1', language: 'zh-CN' });
    return answer.success ? mainWaybill(answer.msgData) : null;
  }

  return {
    name: SF_COURIER,
    company: 'SF',

    async createWaybill(input) {
      const msgData = JSON.parse(
        sfCreateOrderMsgData({
          orderId: input.shipment_no,
          monthlyCard: options.monthlyCard,
          sender: input.sender,
          receiver: input.receiver,
          cargo: input.parcel,
          pickupStart: input.pickup_window.start,
        }),
      ) as object;
      let answer: SfAnswer;
      try {
        answer = await api.call(SF_CREATE_ORDER_SERVICE, msgData);
      } catch (error) {
        if (!(error instanceof SfUnreachable)) throw error;
        // Outcome unknown: the same orderId again (a new requestID). SF makes no second order of it.
        log.warn({ err: error, orderId: input.shipment_no }, 'SF create order not answered; asking again with the same orderId');
        answer = await api.call(SF_CREATE_ORDER_SERVICE, msgData);
      }
      if (answer.success) {
        const waybillNo = mainWaybill(answer.msgData);
        if (!waybillNo) throw new CourierProviderError('SF create order answered without a waybill number');
        return { waybill_no: waybillNo };
      }
      if (answer.errorCode === SF_ERRORS.duplicateOrder) {
        const waybillNo = await waybillOfOrder(input.shipment_no);
        if (waybillNo) return { waybill_no: waybillNo };
      }
      throw refused(SF_CREATE_ORDER_SERVICE, answer);
    },

    async cancelWaybill(shipmentNo) {
      const answer = await api.call(SF_UPDATE_ORDER_SERVICE, { orderId: shipmentNo, dealType: 2, language: 'zh-CN' });
      if (answer.success) {
        const status = (answer.msgData as { resStatus?: unknown } | null)?.resStatus;
        // resStatus 2: done. SF leaves it out on some accounts; success alone then says so.
        return status === undefined || Number(status) === 2;
      }
      if (answer.errorCode === SF_ERRORS.alreadyCancelled) return true;
      log.warn({ orderId: shipmentNo, errorCode: answer.errorCode, errorMsg: answer.errorMsg }, 'SF refused to cancel the order');
      return false;
    },

    async queryRoutes(waybillNo) {
      const answer = await api.call(SF_SEARCH_ROUTES_SERVICE, { language: '0', trackingType: '1', trackingNumber: [waybillNo], methodType: '1' });
      if (!answer.success) throw refused(SF_SEARCH_ROUTES_SERVICE, answer);
      const parsed = routesAnswerSchema.safeParse(answer.msgData);
      if (!parsed.success) throw new CourierProviderError('SF route query answered something else than routeResps');
      const found = parsed.data.routeResps.find((resp) => resp.mailNo.toUpperCase() === waybillNo.toUpperCase());
      if (!found) return null;
      const routes: CourierRoute[] = [];
      for (const route of found.routes) {
        const at = parseAcceptTime(route.acceptTime);
        if (at === null) continue;
        routes.push({
          waybill_no: waybillNo,
          shipment_no: null,
          op_code: route.opCode,
          status: sfOpCodeStatus(route.opCode),
          event_time: at,
          remark: route.remark ?? '',
          location: route.acceptAddress ?? '',
          provider_route_id: null,
        });
      }
      return routes;
    },

    parsePush(rawBody) {
      return parseSfRoutePush(signer, rawBody, options.now());
    },

    answer: sfPushAnswer,
  };
}
