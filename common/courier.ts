// Couriers: the parcels of an order (paper materials to the service, passports
// back home), their tracking events and the rules both sides check the same
// way (courier companies, waybill numbers, pickup windows). The server module
// is server/modules/courier/; the rules are in docs/order-rules.md ("Couriers").
import { z } from 'zod';
import { MOBILE_PHONE_PATTERN } from './contracts/rules.ts';
import { normalizeInputText } from './text.ts';

/** Which way a parcel goes. */
export const SHIPMENT_DIRECTIONS = {
  to_service: '寄送资料',
  to_customer: '护照寄回',
} as const;
export type ShipmentDirection = keyof typeof SHIPMENT_DIRECTIONS;
export const SHIPMENT_DIRECTION_VALUES = Object.keys(SHIPMENT_DIRECTIONS) as [ShipmentDirection, ...ShipmentDirection[]];

/** How it was arranged: a pickup booked with the courier provider, or sent by someone who typed the waybill number. */
export const SHIPMENT_ARRANGEMENTS = {
  pickup: '预约上门取件',
  self: '自行寄送',
} as const;
export type ShipmentArrangement = keyof typeof SHIPMENT_ARRANGEMENTS;

/**
 * A shipment's status, in the order a parcel goes through them: the rank
 * decides, so a late or repeated tracking event never moves a parcel back.
 * `cancelled` (a pickup called off before the courier came) is outside the
 * ranking and final.
 */
export const SHIPMENT_STATUSES = {
  booked: '待揽收',
  picked_up: '已揽收',
  in_transit: '运输中',
  out_for_delivery: '派送中',
  delivered: '已签收',
  cancelled: '已取消',
} as const;
export type ShipmentStatus = keyof typeof SHIPMENT_STATUSES;
export const SHIPMENT_STATUS_VALUES = Object.keys(SHIPMENT_STATUSES) as [ShipmentStatus, ...ShipmentStatus[]];
export type TrackingStatus = Exclude<ShipmentStatus, 'cancelled'>;

const RANK: Record<TrackingStatus, number> = { booked: 0, picked_up: 1, in_transit: 2, out_for_delivery: 3, delivered: 4 };

/** booked 0 … delivered 4; cancelled −1 (never reached by tracking). */
export function shipmentStatusRank(status: ShipmentStatus): number {
  return status === 'cancelled' ? -1 : RANK[status];
}

/** True when the shipment got at least as far as `status` (a cancelled one got nowhere). */
export function shipmentReached(current: ShipmentStatus, status: TrackingStatus): boolean {
  return current !== 'cancelled' && RANK[current] >= RANK[status];
}

export function shipmentStatusLabel(status: string): string {
  return SHIPMENT_STATUSES[status as ShipmentStatus] ?? status;
}

/** Common Chinese courier companies for a self-arranged parcel; OTHER takes a typed name. */
export const COURIER_COMPANIES = {
  SF: '顺丰速运',
  EMS: '中国邮政EMS',
  JD: '京东快递',
  ZTO: '中通快递',
  YTO: '圆通速递',
  STO: '申通快递',
  YUNDA: '韵达快递',
  JTSD: '极兔速递',
  DBL: '德邦快递',
  OTHER: '其他',
} as const;
export type CourierCompany = keyof typeof COURIER_COMPANIES;
export const COURIER_COMPANY_VALUES = Object.keys(COURIER_COMPANIES) as [CourierCompany, ...CourierCompany[]];

export function isCourierCompany(value: unknown): value is CourierCompany {
  return typeof value === 'string' && Object.hasOwn(COURIER_COMPANIES, value);
}

export const COURIER_LIMITS = {
  /** A company typed under 其他. */
  companyNameMaxLength: 20,
  /** What the parcel holds, as the waybill says it (SF's cargo name). */
  parcelMaxLength: 50,
  contactNameMaxLength: 20,
  detailMinLength: 2,
  detailMaxLength: 100,
  /** Pickup windows are booked for today and the next two days (China time). */
  pickupDaysAhead: 2,
  /** The courier needs this much notice before a window ends. */
  pickupNoticeMs: 60 * 60_000,
  pickupMinLengthMs: 60 * 60_000,
  pickupMaxLengthMs: 4 * 60 * 60_000,
  /** Couriers come between 08:00 and 20:00 China time. */
  pickupFirstHour: 8,
  pickupLastHour: 20,
} as const;

/** The two-hour windows the pickup dialog offers (China time). */
export const PICKUP_WINDOW_HOURS: readonly (readonly [number, number])[] = [
  [9, 11],
  [11, 13],
  [13, 15],
  [15, 17],
  [17, 19],
];

/** The parcel description when the caller gives none. */
export const DEFAULT_PARCEL: Record<ShipmentDirection, string> = {
  to_service: '签证申请纸质资料（文件）',
  to_customer: '护照及签证资料（文件）',
};

/** Waybill numbers: letters and digits only once spaces and hyphens are removed, upper case. */
export function normalizeWaybillNo(value: string): string {
  return normalizeInputText(value).replace(/[\s-]/g, '').toUpperCase();
}

const WAYBILL_PATTERN = /^[A-Z0-9]{8,30}$/;
/** SF's numbers: SF + 13 digits (since 2019), or 12 digits (older waybills still in use). */
const SF_WAYBILL_PATTERN = /^(SF\d{13}|\d{12})$/;

/** Why a typed waybill number cannot be right, or null (expects normalizeWaybillNo's output). */
export function waybillProblem(company: CourierCompany, waybillNo: string): string | null {
  if (waybillNo === '') return '请输入快递单号';
  if (!WAYBILL_PATTERN.test(waybillNo)) return '快递单号应为 8–30 位字母或数字';
  if (company === 'SF' && !SF_WAYBILL_PATTERN.test(waybillNo)) return '顺丰单号应为 SF 加 13 位数字（或 12 位数字）';
  return null;
}

const CHINA_OFFSET_MS = 8 * 3_600_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Midnight (China time) of the day holding `at`, as epoch ms. */
function chinaMidnight(at: number): number {
  return Math.floor((at + CHINA_OFFSET_MS) / DAY_MS) * DAY_MS - CHINA_OFFSET_MS;
}

export interface PickupWindow {
  /** epoch ms */
  start: number;
  end: number;
}

/** Why a pickup window cannot be booked at `now`, or null. */
export function pickupWindowProblem(window: PickupWindow, now: number): string | null {
  const { start, end } = window;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return '请选择上门取件时间';
  const length = end - start;
  if (length < COURIER_LIMITS.pickupMinLengthMs || length > COURIER_LIMITS.pickupMaxLengthMs) return '上门取件时间段应为 1–4 小时';
  const day = chinaMidnight(start);
  if (start < day + COURIER_LIMITS.pickupFirstHour * HOUR_MS || end > day + COURIER_LIMITS.pickupLastHour * HOUR_MS) {
    return '快递员上门时间为每天 08:00–20:00';
  }
  if (end < now + COURIER_LIMITS.pickupNoticeMs) return '该时间段已过或即将结束，请选择更晚的时间';
  if (day > chinaMidnight(now) + COURIER_LIMITS.pickupDaysAhead * DAY_MS) return '只能预约今天起 3 天内的上门取件';
  return null;
}

/** The windows the pickup dialog offers at `now`: today's that are still bookable, then the next two days'. */
export function pickupWindowOptions(now: number): PickupWindow[] {
  const today = chinaMidnight(now);
  const windows: PickupWindow[] = [];
  for (let day = 0; day <= COURIER_LIMITS.pickupDaysAhead; day += 1) {
    for (const [from, to] of PICKUP_WINDOW_HOURS) {
      const window = { start: today + day * DAY_MS + from * HOUR_MS, end: today + day * DAY_MS + to * HOUR_MS };
      if (pickupWindowProblem(window, now) === null) windows.push(window);
    }
  }
  return windows;
}

/** A sender or receiver as the shipment keeps it (names of the region resolved when it was given). */
export const courierContactSchema = z.object({
  name: z.string(),
  mobile_phone: z.string(),
  company_name: z.string().nullable(),
  province_code: z.string(),
  city_code: z.string(),
  /** '' when the city has no counties in the address library. */
  county_code: z.string(),
  province_name: z.string(),
  city_name: z.string(),
  county_name: z.string(),
  detail: z.string(),
});
export type CourierContact = z.infer<typeof courierContactSchema>;

/** The contact rules of the address book (docs/order-rules.md), for a sender or receiver; null when fine. */
export function contactProblem(contact: Pick<CourierContact, 'name' | 'mobile_phone' | 'detail'>): string | null {
  const name = normalizeInputText(contact.name);
  if (name === '' || [...name].length > COURIER_LIMITS.contactNameMaxLength) return '请输入联系人姓名（1–20 个字）';
  if (!MOBILE_PHONE_PATTERN.test(normalizeInputText(contact.mobile_phone).replace(/[\s-]/g, ''))) return '请输入正确的联系人手机号';
  const detail = [...normalizeInputText(contact.detail)].length;
  if (detail < COURIER_LIMITS.detailMinLength || detail > COURIER_LIMITS.detailMaxLength) return '请输入详细地址（2–100 个字）';
  return null;
}

/** One tracking event as the pages show it. */
export const shipmentRouteViewSchema = z.object({
  /** The provider's event code (SF opCode), or ours: 'sent' (typed by the sender), 'received' (confirmed by hand). */
  op_code: z.string(),
  /** The status this event means; null for events that move nothing (a failed delivery attempt …). */
  status: z.enum(SHIPMENT_STATUS_VALUES).nullable(),
  remark: z.string(),
  /** Where it happened ('上海市'), '' when unknown. */
  location: z.string(),
  /** When it happened (the courier's clock), epoch ms. */
  event_time: z.number(),
});
export type ShipmentRouteView = z.infer<typeof shipmentRouteViewSchema>;

/** One parcel of an order with its tracking events (oldest first). */
export const shipmentViewSchema = z.object({
  shipment_id: z.number(),
  /** Our number for the parcel (the courier's order id). */
  shipment_no: z.string(),
  user_order_id: z.number(),
  direction: z.enum(SHIPMENT_DIRECTION_VALUES),
  direction_label: z.string(),
  arrangement: z.enum(['pickup', 'self']),
  arrangement_label: z.string(),
  courier_company: z.enum(COURIER_COMPANY_VALUES),
  /** '顺丰速运', or the name typed under 其他. */
  courier_company_name: z.string(),
  waybill_no: z.string(),
  status: z.enum(SHIPMENT_STATUS_VALUES),
  status_label: z.string(),
  /** When the current status was reached (the courier's clock). */
  status_at: z.number(),
  sender: courierContactSchema.nullable(),
  receiver: courierContactSchema,
  parcel: z.string(),
  pickup_window: z.object({ start: z.number(), end: z.number() }).nullable(),
  /** The applicants whose materials or passports are in the parcel. */
  applicant_ids: z.array(z.number()),
  created_at: z.number(),
  cancelled_at: z.number().nullable(),
  routes: z.array(shipmentRouteViewSchema),
});
export type ShipmentView = z.infer<typeof shipmentViewSchema>;

/** Where customers send paper materials for a consular district. */
export const receivingAddressSchema = courierContactSchema.extend({
  receiving_address_id: z.number(),
  /** null: the service's central address, for districts without their own. */
  consular_district_id: z.number().nullable(),
  /** Shown beside the address (opening hours, what to write on the parcel). */
  note: z.string(),
});
export type ReceivingAddress = z.infer<typeof receivingAddressSchema>;
