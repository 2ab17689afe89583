// The back office's interview / biometrics slots (issue 26, 产品管理 · 面试时段,
// `/admin-api/catalogue/slot_…`, supervisors only): a consulate's slots day by
// day, bulk generation over a date range, a slot's capacity (never below its
// bookings), deleting an unbooked slot, and the consulate's closures, which the
// customer's interview-time picker skips at once. Every change is audited.
//
// The payload's shapes are checked here (types, lengths); the rules — a
// capacity of 0–999, the end after the start, a range of at most 366 days, a
// day in the future — are the service's, each with its own Chinese message.
import { z } from 'zod';
import { dateText, idField, noResult } from './fields.ts';
import { defineContract, type ResultOf } from './define.ts';

/** The longest range one generation may cover (days, both ends included). */
export const SLOT_GENERATE_MAX_DAYS = 366;
/** The longest range the calendar shows at once (days). */
export const SLOT_CALENDAR_MAX_DAYS = 62;
export const SLOT_CAPACITY_MAX = 999;

const timeText = z.string().max(8).describe('HH:mm（北京时间）');
/** A number as sent: the service says what is wrong with it (negative, not whole, too large). */
const capacity = z.number().describe(`每个时段可约人数：0–${SLOT_CAPACITY_MAX} 的整数`);

const slotRow = z.object({
  interview_slot_id: z.number(),
  start_time: z.string(),
  end_time: z.string(),
  capacity: z.number(),
  booked: z.number(),
});

const dayRow = z.object({
  date: z.string(),
  weekday: z.string(),
  closed_for: z.string().nullable().describe('不办公的原因（周末、节假日、国庆日、闭馆日的原因）；办公为 null'),
  closure: z.boolean().describe('是否为后台设置的闭馆日（可取消）'),
  slots: z.array(slotRow),
});

export const adminSlotCalendar = defineContract({
  path: '/admin-api/catalogue/slot_calendar',
  payload: z.object({
    consular_district_id: idField.optional().describe('不带时为第一个领区'),
    from: dateText.optional().describe('不带时为今天'),
    to: dateText.optional().describe(`不带时为 from 后 30 天；最多 ${SLOT_CALENDAR_MAX_DAYS} 天`),
  }),
  result: z.object({
    districts: z.array(z.object({ consular_district_id: z.number(), name: z.string(), consulate_name: z.string(), country: z.string() })),
    consular_district_id: z.number().nullable().describe('null：还没有领区'),
    from: z.string(),
    to: z.string(),
    today: z.string(),
    days: z.array(dayRow),
    closures: z.array(z.object({ date: z.string(), reason: z.string(), created_by: z.string(), created_at: z.number() })).describe('今天及以后的闭馆日'),
    changes: z.array(z.object({ operator_name: z.string(), changed_at: z.number(), action: z.string(), summary: z.string() })).describe('最近 20 次改动'),
  }),
});

export const adminSlotGenerate = defineContract({
  path: '/admin-api/catalogue/slot_generate',
  payload: z.object({
    consular_district_id: idField,
    from: dateText,
    to: dateText,
    weekdays: z.array(z.number()).max(7).describe('0 周日 … 6 周六'),
    times: z.array(z.object({ start: timeText, end: timeText })).max(48),
    capacity,
  }),
  result: z.object({
    created: z.number().describe('新建的时段数'),
    existing: z.number().describe('已有同一开始时间、未改动的时段数'),
    days: z.number().describe('生成了时段的日子数'),
    skipped: z.array(z.object({ date: z.string(), reason: z.string() })).describe('所选星期中因闭馆、节假日等跳过的日子'),
  }),
});

export const adminSlotCapacity = defineContract({
  path: '/admin-api/catalogue/slot_capacity',
  payload: z.object({ interview_slot_id: idField, capacity }),
  result: slotRow,
});

export const adminSlotDelete = defineContract({
  path: '/admin-api/catalogue/slot_delete',
  payload: z.object({ interview_slot_id: idField }),
  result: noResult,
});

export const adminSlotClosureAdd = defineContract({
  path: '/admin-api/catalogue/slot_closure_add',
  payload: z.object({ consular_district_id: idField, date: dateText, reason: z.string().max(50).describe('原因，1–50 字') }),
  result: noResult,
});

export const adminSlotClosureRemove = defineContract({
  path: '/admin-api/catalogue/slot_closure_remove',
  payload: z.object({ consular_district_id: idField, date: dateText }),
  result: noResult,
});

export const INTERVIEW_SLOT_ADMIN_CONTRACTS = [
  adminSlotCalendar,
  adminSlotGenerate,
  adminSlotCapacity,
  adminSlotDelete,
  adminSlotClosureAdd,
  adminSlotClosureRemove,
] as const;

export type SlotCalendar = ResultOf<typeof adminSlotCalendar>;
export type SlotGenerateResult = ResultOf<typeof adminSlotGenerate>;
