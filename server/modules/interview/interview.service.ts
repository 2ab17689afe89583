// Interview / fingerprint times: the free slots of the order's consulate, and
// booking one per applicant, all or nothing. Rules: docs/order-rules.md
// ("Interview slots").
import type { Kysely } from 'kysely';
import type {
  ApplicantInterviewChoice,
  InterviewChooseInput,
  InterviewChooseResult,
  InterviewDateView,
  InterviewSlotListResult,
} from '../../../common/contracts/interview.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { weekdayLabel } from '../../../common/interview.ts';
import { chinaDate } from '../../../common/order.ts';
import type { Database } from '../../db/schema.ts';
import { interviewPlaceName } from '../../../common/interview-place.ts';
import { interviewPlaceKindOf } from './interview-place.ts';
import { AppError } from '../../platform/errors.ts';
import { allowedEvents, checkAllowed, createOrderLifecycle, type OrderRow } from '../order/lifecycle.ts';
import { consulateDay, openDays } from './calendar.ts';
import { applySlotChanges, createInterviewRepository, type SlotChange } from './interview.repository.ts';
import { bookingWindow, inWindow } from './slot-plan.ts';
import type { Customer } from '../../platform/principal.ts';

export interface InterviewServiceDeps {
  now: () => number;
}

/** SQLite's and PostgreSQL's answer to a CHECK constraint violation. */
export function isCheckViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_CHECK' || code === '23514';
}

function slotText(slot: { slot_date: string; start_time: string; end_time: string }): string {
  return `${slot.slot_date}（${weekdayLabel(slot.slot_date)}）${slot.start_time}–${slot.end_time}`;
}

/**
 * The days a consulate is closed besides weekends and China's holidays: its
 * country's national days ('MM-DD') and its own closures ('YYYY-MM-DD'), as
 * consulateDay reads them — for the back office's slot calendar, which must
 * skip exactly the days the customer's picker skips.
 */
export function consulateClosedDays(db: Kysely<Database>, district: { consular_district_id: number; visa_country_id: number }): Promise<Map<string, string>> {
  return createInterviewRepository(db).closedDays(district);
}

/** A district's slots from `from` to `to` (dates inclusive), by day and time: the back office's 面试时段 reads the customers' own rows. */
export function consulateSlotsBetween(db: Kysely<Database>, consularDistrictId: number, from: string, to: string) {
  return createInterviewRepository(db).slotsBetween(consularDistrictId, from, to);
}

export function createInterviewService(db: Kysely<Database>, deps: InterviewServiceDeps) {
  const repo = createInterviewRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const { now } = deps;

  /** The consulate the order's applicants go to: the order's district, else the product's own. */
  async function consulateOf(order: OrderRow) {
    if (!order.need_interview) throw new AppError(ErrorCode.INTERVIEW_NOT_NEEDED);
    const districtId = order.consular_district_id ?? order.product_district_id;
    const district = districtId === null ? undefined : await repo.district(districtId);
    if (!district) throw new AppError(ErrorCode.INTERVIEW_NO_DISTRICT);
    return { district, nationalDays: await repo.closedDays(district) };
  }

  return {
    async list(customer: Customer, userOrderId: number): Promise<InterviewSlotListResult> {
      const order = await lifecycle.current(customer, userOrderId);
      const today = chinaDate(now());
      const { district, nationalDays } = await consulateOf(order);
      // The table's word: times are chosen while interview_choose is allowed (a draft).
      const allowed = allowedEvents(order, customer, now());
      const editable = allowed.includes('interview_choose');
      const window = bookingWindow(today, order.order_date, order.departure_date);

      let dates: InterviewDateView[] = [];
      if (editable && window) {
        const days = openDays(window.from, window.to, nationalDays);
        await repo.ensureSlots(
          district.consular_district_id,
          days.map((day) => day.date),
        );
        const slots = await repo.slotsBetween(district.consular_district_id, window.from, window.to);
        // A slot generated before the calendar learned of a holiday is simply not offered any more.
        dates = days.map((day) => ({
          date: day.date,
          weekday: weekdayLabel(day.date),
          provisional: day.provisional,
          slots: slots
            .filter((slot) => slot.slot_date === day.date)
            .map((slot) => ({
              interview_slot_id: slot.interview_slot_id,
              start_time: slot.start_time,
              end_time: slot.end_time,
              capacity: slot.capacity,
              remaining: Math.max(0, slot.capacity - slot.booked),
              full: slot.booked >= slot.capacity,
            })),
        }));
      }

      const applicants = await repo.applicants(userOrderId);
      const notices: string[] = [];
      if (editable && !window) notices.push('出发日期前已没有可预约的工作日，请修改出发日期或联系客服');
      const provisionalYears = [...new Set(dates.filter((d) => d.provisional).map((d) => d.date.slice(0, 4)))];
      if (provisionalYears.length > 0) notices.push(`${provisionalYears.join('、')}年的节假日安排尚未公布，已避开法定节假日，调休安排公布后个别日期可能调整`);

      return {
        user_order_id: order.user_order_id,
        status: order.status,
        allowed_events: allowed,
        consulate: {
          consular_district_id: district.consular_district_id,
          district_name: district.name,
          // The product's place: its visa centre when it names one.
          consulate_name: interviewPlaceName(await interviewPlaceKindOf(db, order.visa_product_id), district, order.country),
          city: district.city,
          address: district.address,
        },
        window,
        notice: notices.length > 0 ? notices.join('；') : null,
        dates,
        applicants: applicants.map((row) => {
          let choice: ApplicantInterviewChoice | null = null;
          if (row.interview_slot_id !== null && row.slot_date && row.start_time && row.end_time) {
            choice = {
              interview_slot_id: row.interview_slot_id,
              slot_date: row.slot_date,
              start_time: row.start_time,
              end_time: row.end_time,
              bookable: inWindow(window, row.slot_date) && consulateDay(row.slot_date, nationalDays).open,
            };
          }
          return { applicant_id: row.applicant_id, name: row.name, choice };
        }),
      };
    },

    async choose(customer: Customer, input: InterviewChooseInput): Promise<InterviewChooseResult> {
      const { user_order_id: userOrderId, choices } = input;
      const chosenFor = new Map<number, number>();
      for (const choice of choices) {
        if (chosenFor.has(choice.applicant_id)) throw new AppError(ErrorCode.INTERVIEW_CHOICES_INCOMPLETE, '每位申请人只能选择一个面试时间');
        chosenFor.set(choice.applicant_id, choice.interview_slot_id);
      }

      let applicants: Array<{ applicant_id: number; name: string }> = [];
      let slots = new Map<number, Awaited<ReturnType<typeof repo.slotsById>>[number]>();
      try {
        await lifecycle.change(customer, userOrderId, async (order, at) => {
          const today = chinaDate(at);
          checkAllowed('interview_choose', order, customer, at);
          const { district, nationalDays } = await consulateOf(order);

          const held = await repo.applicants(userOrderId);
          applicants = held;
          const ofOrder = new Set(held.map((a) => a.applicant_id));
          if ([...chosenFor.keys()].some((id) => !ofOrder.has(id))) throw new AppError(ErrorCode.INTERVIEW_APPLICANT_NOT_FOUND);
          const missing = held.filter((a) => !chosenFor.has(a.applicant_id));
          if (missing.length > 0) throw new AppError(ErrorCode.INTERVIEW_CHOICES_INCOMPLETE, `请为${missing.map((a) => a.name).join('、')}选择面试时间`);

          slots = new Map((await repo.slotsById([...new Set(chosenFor.values())])).map((slot) => [slot.interview_slot_id, slot]));
          const window = bookingWindow(today, order.order_date, order.departure_date);
          for (const slotId of chosenFor.values()) {
            const slot = slots.get(slotId);
            if (!slot || slot.consular_district_id !== district.consular_district_id) throw new AppError(ErrorCode.INTERVIEW_SLOT_NOT_FOUND);
            // Checked again now: the day may have passed, the departure date moved, or the calendar learned of a holiday.
            if (!inWindow(window, slot.slot_date)) throw new AppError(ErrorCode.INTERVIEW_SLOT_UNAVAILABLE, `${slot.slot_date} 不在可预约范围内，请重新选择`);
            const day = consulateDay(slot.slot_date, nationalDays);
            if (!day.open) throw new AppError(ErrorCode.INTERVIEW_SLOT_UNAVAILABLE, `${slot.slot_date} 领馆不办公（${day.closedFor}），请重新选择`);
          }

          // The net change per slot: an applicant moving from A to B gives A a place back and takes
          // one of B; keeping a time changes nothing, so a full time stays with whoever holds it.
          // (Read before the transaction: any other change of the applicants moves the order's version.)
          const moving = held.filter((row) => row.interview_slot_id !== chosenFor.get(row.applicant_id));
          const delta = new Map<number, number>();
          for (const row of moving) {
            if (row.interview_slot_id !== null) delta.set(row.interview_slot_id, (delta.get(row.interview_slot_id) ?? 0) - 1);
            const next = chosenFor.get(row.applicant_id)!;
            delta.set(next, (delta.get(next) ?? 0) + 1);
          }
          const changes: SlotChange[] = [...delta].map(([interviewSlotId, d]) => ({ interviewSlotId, delta: d }));
          return {
            event: 'interview_choose',
            // The order row first, then the slots by ascending id: the lock order of cancel and expiry too.
            within: async (trx) => {
              const fullSlot = await applySlotChanges(trx, changes);
              if (fullSlot !== null) throw new AppError(ErrorCode.INTERVIEW_SLOT_FULL, `${slotText(slots.get(fullSlot)!)} 已约满，请重新选择`);
            },
            applicants: moving.map((row) => ({ applicant_id: row.applicant_id, set: { interview_slot_id: chosenFor.get(row.applicant_id)! } })),
            detail: {
              consular_district_id: district.consular_district_id,
              choices: held.map((a) => {
                const slot = slots.get(chosenFor.get(a.applicant_id)!)!;
                return { applicant_id: a.applicant_id, interview_slot_id: slot.interview_slot_id, slot_date: slot.slot_date, start_time: slot.start_time };
              }),
            },
          };
        });
      } catch (error) {
        // The CHECK (booked <= capacity) is the second guard: never a 500.
        if (isCheckViolation(error)) throw new AppError(ErrorCode.INTERVIEW_SLOT_FULL);
        throw error;
      }

      return {
        user_order_id: userOrderId,
        applicants: applicants.map((a) => {
          const slot = slots.get(chosenFor.get(a.applicant_id)!)!;
          return {
            applicant_id: a.applicant_id,
            interview_slot_id: slot.interview_slot_id,
            slot_date: slot.slot_date,
            start_time: slot.start_time,
            end_time: slot.end_time,
          };
        }),
      };
    },
  };
}

export type InterviewService = ReturnType<typeof createInterviewService>;
