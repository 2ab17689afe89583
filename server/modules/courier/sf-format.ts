// SF Express open platform (丰桥 / sfapi std/service) formats, as far as we use
// them: the create-order request (EXP_RECE_CREATE_ORDER), the route push
// (RoutePushService: msgData {"Body":{"WaybillRoute":[…]}}), its acceptTime
// ('YYYY-MM-DD HH:mm:ss', China time) and what its opCodes mean for a
// shipment's status. The sandbox speaks this; a real SF provider will reuse it.
import { z } from 'zod';
import type { CourierContact, ShipmentStatus } from '../../../common/courier.ts';

/** serviceCode of a route push. */
export const SF_ROUTE_PUSH_SERVICE = 'RoutePushService';
/** serviceCode of the create-order call. */
export const SF_CREATE_ORDER_SERVICE = 'EXP_RECE_CREATE_ORDER';
/** serviceCode of 订单确认/取消 (dealType 2 cancels). */
export const SF_UPDATE_ORDER_SERVICE = 'EXP_RECE_UPDATE_ORDER';
/** serviceCode of 订单结果查询: what became of an order whose answer was lost. */
export const SF_SEARCH_ORDER_SERVICE = 'EXP_RECE_SEARCH_ORDER_RESP';
/** serviceCode of 路由查询. */
export const SF_SEARCH_ROUTES_SERVICE = 'EXP_RECE_SEARCH_ROUTES';

/**
 * SF opCodes we know and the status each means. Codes not listed (returns,
 * customs, failed attempts we have not met) are stored with their remark and
 * move nothing.
 */
export const SF_OP_CODES: Readonly<Record<string, { status: Exclude<ShipmentStatus, 'booked' | 'cancelled'> | null; meaning: string }>> = {
  '50': { status: 'picked_up', meaning: '顺丰已收取快件（揽收）' },
  '54': { status: 'picked_up', meaning: '上门收件' },
  '30': { status: 'in_transit', meaning: '快件在中转场完成分拣，准备发往下一站' },
  '31': { status: 'in_transit', meaning: '快件到达中转场或网点' },
  '36': { status: 'in_transit', meaning: '快件离开中转场，在运输途中' },
  '44': { status: 'out_for_delivery', meaning: '快件交给收派员，正在派送途中' },
  '204': { status: 'out_for_delivery', meaning: '派送中' },
  '80': { status: 'delivered', meaning: '已签收' },
  '8000': { status: 'delivered', meaning: '已签收' },
  '123': { status: 'in_transit', meaning: '快件正送往顺丰店/站' },
  '130': { status: 'in_transit', meaning: '快件到达顺丰店/站' },
  '70': { status: null, meaning: '派送不成功，将再次派送' },
  '33': { status: null, meaning: '派件异常，快件滞留' },
  '99': { status: null, meaning: '应客户要求，快件正在转寄（退回）中' },
  '631': { status: null, meaning: '快件已退回' },
  '648': { status: null, meaning: '快件已退回/转寄，新单号另行通知' },
};

/**
 * opCodes after which a parcel needs a person (decision 0039): a failed
 * delivery or a parcel held (70, 33), or one on its way back or forwarded
 * (99, 631, 648). While such an event is a shipment's latest, the back
 * office lists it as 物流异常.
 */
export const SF_EXCEPTION_OP_CODES: Readonly<Record<string, 'failed_delivery' | 'returned'>> = {
  '70': 'failed_delivery',
  '33': 'failed_delivery',
  '99': 'returned',
  '631': 'returned',
  '648': 'returned',
};

export function sfOpCodeStatus(opCode: string): Exclude<ShipmentStatus, 'booked' | 'cancelled'> | null {
  return Object.hasOwn(SF_OP_CODES, opCode) ? SF_OP_CODES[opCode]!.status : null;
}

const CHINA_OFFSET_MS = 8 * 3_600_000;
const ACCEPT_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** epoch ms → 'YYYY-MM-DD HH:mm:ss' in China time (SF's acceptTime). */
export function formatAcceptTime(at: number): string {
  return new Date(at + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** SF's acceptTime → epoch ms; null when it is not a real time in that format. */
export function parseAcceptTime(text: string): number | null {
  const match = ACCEPT_TIME.exec(text);
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(utc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return utc - CHINA_OFFSET_MS;
}

/** One route of a push, as SF sends it (id may come as a number). */
export const sfWaybillRouteSchema = z.object({
  id: z.union([z.string().min(1).max(64), z.number().int().nonnegative()]).transform(String),
  mailno: z.string().regex(/^[A-Za-z0-9]{6,40}$/),
  orderid: z.string().max(64).optional(),
  acceptTime: z.string(),
  acceptAddress: z.string().max(100).optional(),
  remark: z.string().max(500),
  opCode: z.string().regex(/^[0-9A-Za-z]{1,10}$/),
});
export type SfWaybillRoute = z.input<typeof sfWaybillRouteSchema>;

/** msgData of a route push: SF may batch routes of several waybills into one push. */
export const sfRoutePushSchema = z.object({
  Body: z.object({ WaybillRoute: z.array(sfWaybillRouteSchema).min(1).max(100) }),
});

/** A contact as SF's contactInfoList has it (contactType 1 sender, 2 receiver). */
function sfContact(contactType: 1 | 2, contact: CourierContact) {
  return {
    contactType,
    contact: contact.name,
    mobile: contact.mobile_phone,
    company: contact.company_name ?? '',
    country: 'CN',
    province: contact.province_name,
    city: contact.city_name,
    county: contact.county_name,
    address: contact.detail,
  };
}

export interface SfCreateOrderInput {
  orderId: string;
  /** 月结卡号 (custid): the account the parcel is billed to; the sandbox has none. */
  monthlyCard?: string;
  sender: CourierContact;
  receiver: CourierContact;
  cargo: string;
  pickupStart: number;
}

/**
 * The msgData of EXP_RECE_CREATE_ORDER for a pickup: 顺丰特快 (expressTypeId 1,
 * documents and passports travel fastest), paid by the sender's monthly
 * account (payMethod 1), the courier called to the door (isDocall 1) at the
 * window's start (sendStartTm).
 */
export function sfCreateOrderMsgData(input: SfCreateOrderInput): string {
  return JSON.stringify({
    language: 'zh-CN',
    orderId: input.orderId,
    ...(input.monthlyCard ? { monthlyCard: input.monthlyCard } : {}),
    expressTypeId: 1,
    payMethod: 1,
    isDocall: 1,
    sendStartTm: formatAcceptTime(input.pickupStart),
    parcelQty: 1,
    cargoDetails: [{ name: input.cargo, count: 1, unit: '件' }],
    contactInfoList: [sfContact(1, input.sender), sfContact(2, input.receiver)],
  });
}
