// Sending the passports home and finishing the order (issue 11): the
// operator ships the passports back with the courier provider (a waybill to
// the order's return address snapshot — a return or a peer address), or, when
// there is nothing to send back, marks the order done; the customer follows
// the parcel. Rules: docs/order-rules.md ("Ship back, completion and retention").
import { z } from 'zod';
import { ADDRESS_KIND_VALUES } from '../address.ts';
import { receivingAddressSchema, shipmentViewSchema } from '../courier.ts';
import { ORDER_STATUS_VALUES, ORDER_STEP_VALUES } from '../order.ts';
import { defineContract, type ResultOf } from './define.ts';
import { rowId } from './fields.ts';

const version = z.number().int().min(0).describe('读取寄回信息时订单的 version；订单已变化则拒绝（2222）');

const orderHead = z.object({
  user_order_id: z.number(),
  product_title: z.string(),
  status: z.enum(ORDER_STATUS_VALUES),
  status_label: z.string(),
  step: z.enum(ORDER_STEP_VALUES).nullable(),
  step_label: z.string().nullable(),
  version: z.number(),
});

/** Where the passports go: the order's return address snapshot (kept at confirm). */
const returnTo = z.object({
  kind: z.enum(ADDRESS_KIND_VALUES).describe('return 回寄地址，peer 同行地址'),
  kind_label: z.string(),
  name: z.string(),
  mobile_phone: z.string(),
  company_name: z.string().nullable(),
  province_name: z.string(),
  city_name: z.string(),
  county_name: z.string(),
  detail: z.string(),
});

/** The customer's view: the return parcel(s) with their tracking. */
export const returnParcelSchema = z.object({
  order: orderHead,
  return_address: returnTo.nullable().describe('护照寄往的地址（订单确认时保存的回寄/同行地址）'),
  shipments: z.array(shipmentViewSchema).describe('寄回护照的快递（最早的在前），含物流轨迹'),
});

/** The operator's view: what the ship-back panel needs. */
export const adminShipBackSchema = returnParcelSchema.extend({
  applicants: z.array(z.object({ applicant_id: z.number(), name: z.string(), status: z.enum(['pending', 'issued', 'rejected']), status_label: z.string() })),
  results_done: z.boolean().describe('每位申请人都已有签证结果（出签或拒签）'),
  holds_passports: z.boolean().describe('客户寄来了纸质资料（含护照，有未取消的寄送快递）：须寄回'),
  evisa: z.boolean().describe('电子签产品（目录标签“电子签”）'),
  sender: receivingAddressSchema.nullable().describe('寄件地址：该领区的收件地址（没有时为服务中心）'),
  can_ship_back: z.boolean().describe('现在可以寄回护照：已递交使馆、结果齐全、有护照要寄回、有回寄地址'),
  can_complete: z.boolean().describe('现在可以办理完成：已递交使馆、结果齐全、没有护照要寄回'),
  blocked_reason: z.string().nullable().describe('已递交使馆但暂不能寄回或完成时的原因'),
  outcome: z.enum(['completed', 'refunded']).describe('寄回签收或办理完成后订单的状态：全部拒签且拒签退全款时为 refunded'),
  attention: z
    .array(
      z.object({
        shipment_id: z.number(),
        waybill_no: z.string(),
        reason: z.enum(['failed_delivery', 'returned', 'no_delivery']),
        reason_label: z.string(),
        since: z.number().describe('异常开始的时间（毫秒）：异常轨迹的时间，或超过时限的时间'),
        remark: z.string().nullable().describe('快递公司的异常轨迹说明'),
      }),
    )
    .describe('物流异常的寄回快递（决策 0039）：最新轨迹为派送不成功、滞留或退回，或寄出超过 COURIER_ATTENTION_DAYS 天仍未签收'),
});

const orderPayload = z.object({ user_order_id: rowId });

export const returnParcel = defineContract({
  path: '/www/order/return_parcel',
  payload: orderPayload,
  result: returnParcelSchema,
});

export const returnTracking = defineContract({
  path: '/www/order/return_tracking',
  payload: orderPayload,
  result: returnParcelSchema,
});

export const SHIP_BACK_CONTRACTS = [returnParcel, returnTracking] as const;

// ── Back office ───────────────────────────────────────────────────────────

export const adminShipBackGet = defineContract({
  path: '/admin-api/order/ship_back',
  payload: orderPayload,
  result: adminShipBackSchema,
});

export const adminShipBackSend = defineContract({
  path: '/admin-api/order/ship_back_send',
  payload: z.object({
    user_order_id: rowId,
    version,
    pickup_window: z.object({ start: z.number().int(), end: z.number().int() }).describe('上门取件时间段（毫秒），见 pickupWindowOptions'),
  }),
  result: z.object({ version: z.number(), step: z.enum(ORDER_STEP_VALUES).nullable(), shipment: shipmentViewSchema }),
});

export const adminOrderComplete = defineContract({
  path: '/admin-api/order/complete',
  payload: z.object({ user_order_id: rowId, version }),
  result: z.object({ version: z.number(), status: z.enum(ORDER_STATUS_VALUES), status_label: z.string() }),
});

export const adminReturnTracking = defineContract({
  path: '/admin-api/order/return_tracking',
  payload: orderPayload,
  result: adminShipBackSchema,
});

export const RETURN_RECORD_OUTCOMES = { delivered: '已签收', returned: '已退回' } as const;
export type ReturnRecordOutcome = keyof typeof RETURN_RECORD_OUTCOMES;
/** A note's length in characters (after trimming). */
export const RETURN_NOTE_LIMITS = { min: 2, max: 200 } as const;

export const adminReturnRecord = defineContract({
  path: '/admin-api/order/return_record',
  payload: z.object({
    user_order_id: rowId,
    version,
    shipment_id: rowId.describe('寄回护照的快递'),
    outcome: z
      .enum(['delivered', 'returned'])
      .describe('delivered 登记已签收（return_confirm：订单完成或已退款）；returned 登记快件已退回（return_back：订单回到已递交使馆，可重新寄回）'),
    note: z.string().max(1000).describe('说明，2–200 字（如与客户电话确认已收到、快递员告知已退回）'),
  }),
  multiline: ['note'],
  result: z.object({
    version: z.number(),
    status: z.enum(ORDER_STATUS_VALUES),
    status_label: z.string(),
    step: z.enum(ORDER_STEP_VALUES).nullable(),
  }),
});

export const ADMIN_SHIP_BACK_CONTRACTS = [adminShipBackGet, adminShipBackSend, adminOrderComplete, adminReturnTracking, adminReturnRecord] as const;

export type ReturnParcel = ResultOf<typeof returnParcel>;
export type AdminShipBack = ResultOf<typeof adminShipBackGet>;
