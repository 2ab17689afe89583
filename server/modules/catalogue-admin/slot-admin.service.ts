// 产品管理 · 面试时段 (issue 26): a supervisor runs a consulate's interview /
// biometrics slots. The customer's picker reads the same rows and the same
// calendar (interview/calendar.ts, with this module's closures), so every
// change here is what the next customer sees — there is no cache between.
//
// A day nobody has given slots to still gets the standard plan the first time
// a customer asks for it (interview/slot-plan.ts); that is why the last slot
// of a day is not deleted (the day would come back with the standard times):
// a day without appointments is a closure. Places already booked are never
// taken away: a capacity goes down only to the bookings, a booked slot is not
// deleted and a day with bookings is not closed — each refusal names the
// numbers. Every change is audited (interview_slot_audit): who, when, what.
import type { Kysely, Transaction } from 'kysely';
import {
  SLOT_CALENDAR_MAX_DAYS,
  SLOT_CAPACITY_MAX,
  SLOT_GENERATE_MAX_DAYS,
  type SlotCalendar,
  type SlotGenerateResult,
} from '../../../common/contracts/interview-slot-admin.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { weekdayLabel, WEEKDAY_LABELS } from '../../../common/interview.ts';
import { addDays, chinaDate, daysBetween, isCalendarDate } from '../../../common/order.ts';
import type { Database, InterviewSlotAuditTable } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import { consulateDay } from '../interview/calendar.ts';
import { consulateClosedDays, consulateSlotsBetween } from '../interview/interview.service.ts';

export interface SlotAdminDeps {
  now: () => number;
}

type Db = Kysely<Database> | Transaction<Database>;

const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const CALENDAR_DEFAULT_DAYS = 30;

function invalid(msg: string): AppError {
  return new AppError(ErrorCode.SLOT_INPUT_INVALID, msg);
}

function checkCapacity(capacity: number): number {
  if (!Number.isInteger(capacity) || capacity < 0 || capacity > SLOT_CAPACITY_MAX) {
    throw invalid(`容量须为 0–${SLOT_CAPACITY_MAX} 的整数（收到 ${capacity}）`);
  }
  return capacity;
}

function checkDate(value: string, label: string): string {
  if (!isCalendarDate(value) || value > '2099-12-31') throw invalid(`${label}须为有效日期（YYYY-MM-DD），收到“${value}”`);
  return value;
}

function slotText(slot: { slot_date: string; start_time: string; end_time: string }): string {
  return `${slot.slot_date}（${weekdayLabel(slot.slot_date)}）${slot.start_time}–${slot.end_time}`;
}

/** A foreign key still points at the row (SQLite or PostgreSQL). */
function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /FOREIGN KEY constraint failed/.test(e?.message ?? '');
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

function isCheckViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_CHECK' || code === '23514';
}

/** The generation's times, checked: HH:mm, the end after the start, no two overlapping. */
function checkTimes(times: Array<{ start: string; end: string }>): Array<{ start: string; end: string }> {
  if (times.length === 0) throw invalid('请至少添加一个时段');
  for (const { start, end } of times) {
    if (!TIME_PATTERN.test(start) || !TIME_PATTERN.test(end)) throw invalid(`时间须为 HH:mm（24 小时制），收到“${start}–${end}”`);
    if (end <= start) throw invalid(`结束时间须晚于开始时间：${start}–${end}`);
  }
  const sorted = [...times].sort((a, b) => a.start.localeCompare(b.start));
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1]!;
    const next = sorted[i]!;
    if (next.start < before.end) throw invalid(`时段不能重叠：${before.start}–${before.end} 与 ${next.start}–${next.end}`);
  }
  return sorted;
}

export function createSlotAdminService(db: Kysely<Database>, deps: SlotAdminDeps) {
  const today = () => chinaDate(deps.now());
  const calendar = {
    closedDays: (district: { consular_district_id: number; visa_country_id: number }) => consulateClosedDays(db, district),
    slotsBetween: (consularDistrictId: number, from: string, to: string) => consulateSlotsBetween(db, consularDistrictId, from, to),
  };

  async function districtOf(consularDistrictId: number) {
    const district = await db.selectFrom('consular_district').selectAll().where('consular_district_id', '=', consularDistrictId).executeTakeFirst();
    if (!district) throw new AppError(ErrorCode.SLOT_DISTRICT_NOT_FOUND);
    return district;
  }

  async function audit(
    trx: Db,
    caller: Operator,
    consularDistrictId: number,
    action: InterviewSlotAuditTable['action'],
    summary: string,
    detail: unknown,
  ): Promise<void> {
    await trx
      .insertInto('interview_slot_audit')
      .values({
        consular_district_id: consularDistrictId,
        operator_id: caller.operatorId,
        changed_at: deps.now(),
        action,
        summary: summary.slice(0, 500),
        detail: JSON.stringify(detail),
      })
      .execute();
  }

  async function slotById(trx: Db, interviewSlotId: number) {
    const slot = await trx.selectFrom('interview_slot').selectAll().where('interview_slot_id', '=', interviewSlotId).executeTakeFirst();
    if (!slot) throw new AppError(ErrorCode.SLOT_NOT_FOUND);
    return slot;
  }

  return {
    async calendar(input: { consular_district_id?: number; from?: string; to?: string }): Promise<SlotCalendar> {
      const districts = await db
        .selectFrom('consular_district')
        .innerJoin('visa_country', 'visa_country.visa_country_id', 'consular_district.visa_country_id')
        .select(['consular_district.consular_district_id', 'consular_district.name', 'consular_district.consulate_name', 'visa_country.name as country'])
        .orderBy('visa_country.visa_country_id')
        .orderBy('consular_district.consular_district_id')
        .execute();
      const now = today();
      const from = input.from === undefined ? now : checkDate(input.from, '开始日期');
      const to = input.to === undefined ? addDays(from, CALENDAR_DEFAULT_DAYS - 1) : checkDate(input.to, '结束日期');
      if (to < from) throw invalid('结束日期不能早于开始日期');
      if (daysBetween(from, to) + 1 > SLOT_CALENDAR_MAX_DAYS) throw invalid(`一次最多查看 ${SLOT_CALENDAR_MAX_DAYS} 天`);

      const districtId = input.consular_district_id ?? districts[0]?.consular_district_id;
      if (districtId === undefined) return { districts: [], consular_district_id: null, from, to, today: now, days: [], closures: [], changes: [] };
      const district = await districtOf(districtId);

      const [closed, slots, closures, changes] = await Promise.all([
        calendar.closedDays(district),
        calendar.slotsBetween(districtId, from, to),
        db
          .selectFrom('interview_closure')
          .innerJoin('operator', 'operator.id', 'interview_closure.created_by')
          .select(['interview_closure.closure_date', 'interview_closure.reason', 'interview_closure.created_at', 'operator.name'])
          .where('interview_closure.consular_district_id', '=', districtId)
          .where('interview_closure.closure_date', '>=', now)
          .orderBy('interview_closure.closure_date')
          .execute(),
        db
          .selectFrom('interview_slot_audit')
          .innerJoin('operator', 'operator.id', 'interview_slot_audit.operator_id')
          .select(['interview_slot_audit.changed_at', 'interview_slot_audit.action', 'interview_slot_audit.summary', 'operator.name'])
          .where('interview_slot_audit.consular_district_id', '=', districtId)
          .orderBy('interview_slot_audit.changed_at', 'desc')
          .orderBy('interview_slot_audit.audit_id', 'desc')
          .limit(20)
          .execute(),
      ]);
      const days: SlotCalendar['days'] = [];
      for (let date = from; date <= to; date = addDays(date, 1)) {
        const day = consulateDay(date, closed);
        days.push({
          date,
          weekday: weekdayLabel(date),
          closed_for: day.closedFor,
          // A full date in the map is one of this consulate's closures ('MM-DD' keys are national days).
          closure: closed.has(date),
          slots: slots
            .filter((slot) => slot.slot_date === date)
            .map((slot) => ({
              interview_slot_id: slot.interview_slot_id,
              start_time: slot.start_time,
              end_time: slot.end_time,
              capacity: slot.capacity,
              booked: slot.booked,
            })),
        });
      }
      return {
        districts,
        consular_district_id: districtId,
        from,
        to,
        today: now,
        days,
        closures: closures.map((row) => ({ date: row.closure_date, reason: row.reason, created_by: row.name, created_at: row.created_at })),
        changes: changes.map((row) => ({ operator_name: row.name, changed_at: row.changed_at, action: row.action, summary: row.summary })),
      };
    },

    /**
     * Slots at the given times on the chosen weekdays of [from, to], except the
     * days the consulate is closed (weekends, China's holidays, the country's
     * national days, this consulate's closures). A time a day already has is
     * left as it is (its bookings and capacity stay).
     */
    async generate(
      caller: Operator,
      input: { consular_district_id: number; from: string; to: string; weekdays: number[]; times: Array<{ start: string; end: string }>; capacity: number },
    ): Promise<SlotGenerateResult> {
      const district = await districtOf(input.consular_district_id);
      const capacity = checkCapacity(input.capacity);
      const from = checkDate(input.from, '开始日期');
      const to = checkDate(input.to, '结束日期');
      if (from < today()) throw invalid(`开始日期不能早于今天（${today()}）`);
      if (to < from) throw invalid(`结束日期（${to}）不能早于开始日期（${from}）`);
      const span = daysBetween(from, to) + 1;
      if (span > SLOT_GENERATE_MAX_DAYS) throw invalid(`一次最多生成 ${SLOT_GENERATE_MAX_DAYS} 天的时段（所选为 ${span} 天）`);
      if (input.weekdays.length === 0) throw invalid('请至少选择一个星期几');
      if (input.weekdays.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) throw invalid('星期须为 0（周日）到 6（周六）');
      const weekdays = new Set(input.weekdays);
      const times = checkTimes(input.times);

      const closed = await calendar.closedDays(district);
      const skipped: SlotGenerateResult['skipped'] = [];
      const dates: string[] = [];
      for (let date = from; date <= to; date = addDays(date, 1)) {
        if (!weekdays.has(new Date(`${date}T00:00:00Z`).getUTCDay())) continue;
        const day = consulateDay(date, closed);
        if (day.open) dates.push(date);
        else skipped.push({ date, reason: day.closedFor ?? '不办公' });
      }

      const rows = dates.flatMap((date) =>
        times.map((time) => ({
          consular_district_id: district.consular_district_id,
          slot_date: date,
          start_time: time.start,
          end_time: time.end,
          capacity,
          booked: 0,
        })),
      );
      const result = await db.transaction().execute(async (trx) => {
        let created = 0;
        for (let i = 0; i < rows.length; i += 200) {
          const inserted = await trx
            .insertInto('interview_slot')
            .values(rows.slice(i, i + 200))
            .onConflict((oc) => oc.columns(['consular_district_id', 'slot_date', 'start_time']).doNothing())
            .returning('interview_slot_id')
            .execute();
          created += inserted.length;
        }
        const weekdayText = [...weekdays]
          .sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7))
          .map((d) => WEEKDAY_LABELS[d])
          .join('、');
        const summary =
          `生成 ${from} 至 ${to}（${weekdayText}）${times.map((t) => `${t.start}–${t.end}`).join('、')}，每个时段 ${capacity} 人：` +
          `新建 ${created} 个${rows.length - created > 0 ? `，已有 ${rows.length - created} 个未改动` : ''}${skipped.length > 0 ? `，跳过 ${skipped.length} 天` : ''}`;
        await audit(trx, caller, district.consular_district_id, 'generate', summary, {
          input: { from, to, weekdays: [...weekdays], times, capacity },
          created,
          skipped,
        });
        return { created, existing: rows.length - created };
      });
      return { ...result, days: dates.length, skipped };
    },

    /** A slot's capacity; never below the places already booked (the UPDATE's condition, checked again by the row's CHECK). */
    async setCapacity(caller: Operator, input: { interview_slot_id: number; capacity: number }) {
      const capacity = checkCapacity(input.capacity);
      try {
        return await db.transaction().execute(async (trx) => {
          const before = await slotById(trx, input.interview_slot_id);
          const updated = await trx
            .updateTable('interview_slot')
            .set({ capacity })
            .where('interview_slot_id', '=', input.interview_slot_id)
            .where('booked', '<=', capacity)
            .returningAll()
            .executeTakeFirst();
          if (!updated) {
            const now = await slotById(trx, input.interview_slot_id);
            throw new AppError(ErrorCode.SLOT_BELOW_BOOKED, `${slotText(now)} 已有 ${now.booked} 人预约，容量不能少于 ${now.booked}（想改为 ${capacity}）`);
          }
          await audit(
            trx,
            caller,
            updated.consular_district_id,
            'capacity',
            `${slotText(updated)} 容量 ${before.capacity} → ${capacity}（已约 ${updated.booked}）`,
            {
              interview_slot_id: updated.interview_slot_id,
              before: before.capacity,
              after: capacity,
              booked: updated.booked,
            },
          );
          return {
            interview_slot_id: updated.interview_slot_id,
            start_time: updated.start_time,
            end_time: updated.end_time,
            capacity: updated.capacity,
            booked: updated.booked,
          };
        });
      } catch (error) {
        if (isCheckViolation(error)) throw new AppError(ErrorCode.SLOT_BELOW_BOOKED);
        throw error;
      }
    },

    /** An unbooked slot that is not its day's last one. */
    async deleteSlot(caller: Operator, input: { interview_slot_id: number }): Promise<void> {
      try {
        await db.transaction().execute(async (trx) => {
          const slot = await slotById(trx, input.interview_slot_id);
          if (slot.booked > 0) throw new AppError(ErrorCode.SLOT_BOOKED, `${slotText(slot)} 已有 ${slot.booked} 人预约，不能删除`);
          const sameDay = await trx
            .selectFrom('interview_slot')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('consular_district_id', '=', slot.consular_district_id)
            .where('slot_date', '=', slot.slot_date)
            .executeTakeFirstOrThrow();
          if (Number(sameDay.n) <= 1) throw new AppError(ErrorCode.SLOT_LAST_OF_DAY);
          // booked = 0 again in the statement: a booking that came in meanwhile keeps its slot.
          const deleted = await trx
            .deleteFrom('interview_slot')
            .where('interview_slot_id', '=', slot.interview_slot_id)
            .where('booked', '=', 0)
            .executeTakeFirst();
          if (Number(deleted.numDeletedRows) !== 1) {
            const now = await slotById(trx, slot.interview_slot_id);
            throw new AppError(ErrorCode.SLOT_BOOKED, `${slotText(now)} 已有 ${now.booked} 人预约，不能删除`);
          }
          await audit(trx, caller, slot.consular_district_id, 'delete', `删除 ${slotText(slot)}（容量 ${slot.capacity}）`, {
            interview_slot_id: slot.interview_slot_id,
            slot_date: slot.slot_date,
            start_time: slot.start_time,
            end_time: slot.end_time,
            capacity: slot.capacity,
          });
        });
      } catch (error) {
        // An order (a cancelled one's applicant, an interview date change) still names the slot.
        if (isForeignKeyViolation(error)) throw new AppError(ErrorCode.SLOT_BOOKED, '该时段仍被订单记录引用，不能删除；可把容量改为 0');
        throw error;
      }
    },

    /** Closes the consulate on a day without bookings: the picker no longer offers it. */
    async addClosure(caller: Operator, input: { consular_district_id: number; date: string; reason: string }): Promise<void> {
      const district = await districtOf(input.consular_district_id);
      const date = checkDate(input.date, '闭馆日期');
      if (date < today()) throw invalid(`闭馆日期不能早于今天（${today()}）`);
      const reason = input.reason.trim();
      if (reason.length < 1 || reason.length > 50) throw invalid('请填写闭馆原因（1–50 字）');
      try {
        await db.transaction().execute(async (trx) => {
          const booked = await trx
            .selectFrom('interview_slot')
            .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('booked'), eb.lit(0)).as('n'))
            .where('consular_district_id', '=', district.consular_district_id)
            .where('slot_date', '=', date)
            .executeTakeFirstOrThrow();
          const n = Number(booked.n);
          if (n > 0) throw new AppError(ErrorCode.SLOT_DAY_BOOKED, `${date}（${weekdayLabel(date)}）已有 ${n} 人预约，不能设为闭馆日；请先为他们改期`);
          await trx
            .insertInto('interview_closure')
            .values({ consular_district_id: district.consular_district_id, closure_date: date, reason, created_by: caller.operatorId, created_at: deps.now() })
            .execute();
          await audit(trx, caller, district.consular_district_id, 'close', `设 ${date}（${weekdayLabel(date)}）为闭馆日：${reason}`, { date, reason });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(ErrorCode.SLOT_CLOSURE_EXISTS, `${date} 已是闭馆日`);
        throw error;
      }
    },

    async removeClosure(caller: Operator, input: { consular_district_id: number; date: string }): Promise<void> {
      const district = await districtOf(input.consular_district_id);
      const date = checkDate(input.date, '闭馆日期');
      await db.transaction().execute(async (trx) => {
        const closure = await trx
          .deleteFrom('interview_closure')
          .where('consular_district_id', '=', district.consular_district_id)
          .where('closure_date', '=', date)
          .returning('reason')
          .executeTakeFirst();
        if (!closure) throw new AppError(ErrorCode.SLOT_CLOSURE_NOT_FOUND, `${date} 不是闭馆日`);
        await audit(trx, caller, district.consular_district_id, 'reopen', `取消 ${date}（${weekdayLabel(date)}）的闭馆日（${closure.reason}）`, {
          date,
          reason: closure.reason,
        });
      });
    },
  };
}

export type SlotAdminService = ReturnType<typeof createSlotAdminService>;
