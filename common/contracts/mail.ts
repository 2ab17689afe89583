// Mailing paper materials (step awaiting_mail, issue 10): the customer's
// mail list, booking a courier pickup or entering a self-arranged parcel,
// tracking; the operator's view and marking the parcel received or items
// missing. Rules: docs/order-rules.md ("Mailing paper materials").
import { z } from 'zod';
import { COURIER_COMPANY_VALUES, COURIER_LIMITS, receivingAddressSchema, shipmentViewSchema } from '../courier.ts';
import { ORDER_STATUS_VALUES, ORDER_STEP_VALUES } from '../order.ts';
import { defineContract, type ResultOf } from './define.ts';
import { rowId } from './fields.ts';

export const MAIL_LIMITS = { noteMaxLength: 200 } as const;

const version = z.number().int().min(0).describe('读取邮寄清单时订单的 version；订单已变化则拒绝（2102）');

/** The mail list: the same for the customer and the operator. */
export const mailListSchema = z.object({
  order: z.object({
    user_order_id: z.number(),
    product_title: z.string(),
    status: z.enum(ORDER_STATUS_VALUES),
    status_label: z.string(),
    step: z.enum(ORDER_STEP_VALUES).nullable(),
    step_label: z.string().nullable(),
    version: z.number(),
  }),
  applicants: z
    .array(
      z.object({
        applicant_id: z.number(),
        name: z.string(),
        identity_label: z.string(),
        materials: z.array(z.object({ material_id: z.number(), name: z.string(), attention: z.string(), required: z.boolean() })),
      }),
    )
    .describe('每位申请人需邮寄的纸质资料（清单属性 1）；没有邮寄资料的申请人不列出'),
  receiving_address: receivingAddressSchema.nullable().describe('该领区的收件地址（没有时为服务中心的地址）；都没有配置时为 null'),
  shipments: z.array(shipmentViewSchema).describe('本订单寄送资料的快递（最早的在前），含物流轨迹'),
  missing: z.object({ note: z.string(), created_at: z.number() }).nullable().describe('最近一次“缺少资料”的说明（之后尚未再次寄送时）'),
  can_send: z.boolean().describe('现在可以寄送：待邮寄资料，且没有寄出未签收核对的快递（或已被标记缺件）'),
  can_check: z.boolean().describe('后台：现在可以标记已收到或缺件（有寄出的快递）'),
});

const mailOrderPayload = z.object({ user_order_id: rowId });

export const mailList = defineContract({
  path: '/www/order/mail_list',
  payload: mailOrderPayload,
  result: mailListSchema,
});

export const mailPickup = defineContract({
  path: '/www/order/mail_pickup',
  payload: z.object({
    user_order_id: rowId,
    version,
    address_id: rowId.describe('取件地址：本企业地址簿中的地址'),
    pickup_window: z.object({ start: z.number().int(), end: z.number().int() }).describe('上门时间段（毫秒），见 pickupWindowOptions'),
  }),
  result: z.object({ version: z.number(), shipment: shipmentViewSchema }),
});

export const mailSelfExpress = defineContract({
  path: '/www/order/mail_self_express',
  payload: z.object({
    user_order_id: rowId,
    version,
    courier_company: z.enum(COURIER_COMPANY_VALUES),
    courier_company_name: z
      .string()
      .max(COURIER_LIMITS.companyNameMaxLength * 2)
      .nullable()
      .optional(),
    waybill_no: z.string().max(60),
  }),
  result: z.object({ version: z.number(), shipment: shipmentViewSchema }),
});

export const mailTracking = defineContract({
  path: '/www/order/mail_tracking',
  payload: mailOrderPayload,
  result: z.object({ shipments: z.array(shipmentViewSchema) }),
});

export const MAIL_CONTRACTS = [mailList, mailPickup, mailSelfExpress, mailTracking] as const;

// ── Back office ───────────────────────────────────────────────────────────

export const adminMailGet = defineContract({
  path: '/admin-api/order/mail',
  payload: mailOrderPayload,
  result: mailListSchema,
});

export const adminMailReceive = defineContract({
  path: '/admin-api/order/mail_receive',
  payload: z.object({ user_order_id: rowId, version }),
  result: z.object({ version: z.number(), step: z.enum(ORDER_STEP_VALUES).nullable() }),
});

export const adminMailMissing = defineContract({
  path: '/admin-api/order/mail_missing',
  payload: z.object({ user_order_id: rowId, version, note: z.string().max(MAIL_LIMITS.noteMaxLength * 2) }),
  multiline: ['note'],
  result: z.object({ version: z.number(), step: z.enum(ORDER_STEP_VALUES).nullable() }),
});

export const ADMIN_MAIL_CONTRACTS = [adminMailGet, adminMailReceive, adminMailMissing] as const;

export type MailList = ResultOf<typeof mailList>;
export type MailShipment = MailList['shipments'][number];
