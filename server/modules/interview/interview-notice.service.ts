// The interview / fingerprint notice (issue 10, decision 0023). The operator
// (the order's assignee, or a supervisor) publishes one notice per applicant
// while the order is in step `interview`; the customer reads them and may ask
// for another time — a free slot of the same consulate under the rules of
// choosing one (within the booking window before departure, a day the
// consulate works, places left). The operator accepts (the applicant's place
// moves: the new slot's counter +1 under the database's booked ≤ capacity,
// the old one −1, the notice follows) or declines. Every change is a
// lifecycle change of the order, guarded by the version the operator saw.
// Rules: docs/order-rules.md ("Interview notice").
import type { Kysely } from 'kysely';
import type {
  AdminInterviewPanel,
  InterviewChangeRequestInput,
  InterviewChangeSlots,
  InterviewChangeView,
  InterviewNoticeDetail,
  InterviewNoticeFields,
  InterviewPublishInput,
} from '../../../common/contracts/interview-notice.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { weekdayLabel } from '../../../common/interview.ts';
import { atStep, chinaDate } from '../../../common/order.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Customer, Operator } from '../../platform/principal.ts';
import { checkAllowed, checkSubAllowed, createOrderLifecycle, type OrderRow, stateAllows, subAllows } from '../order/lifecycle.ts';
import { consulateDay, openDays } from './calendar.ts';
import { createInterviewNoticeRepository } from './interview-notice.repository.ts';
import { INTERVIEW_PLACE_LABELS, type InterviewPlaceKind, interviewPlaceName } from '../../../common/interview-place.ts';
import { interviewPlaceKindOf } from './interview-place.ts';
import { applySlotChanges, createInterviewRepository } from './interview.repository.ts';
import { isCheckViolation } from './interview.service.ts';
import { bookingWindow, inWindow } from './slot-plan.ts';

/** The interview-guide video of a consulate without its own (public/media, served with range requests). */
export const DEFAULT_INTERVIEW_VIDEO = '/media/interview-guide.webm';

export const DEFAULT_NOTICE_TEXT = {
  process: [
    '提前 30 分钟到达领馆，在门口排队安检',
    '凭预约时间和护照进入，取号等候',
    '按叫号到窗口递交资料、录指纹',
    '面试官简单询问行程（如有），完成后离馆',
  ].join('\n'),
  attention: [
    '请携带护照原件和下方列出的全部资料',
    '领馆禁止携带大件行李、打火机和液体，手机需关机',
    '请勿迟到；迟到可能需要重新预约',
    '着装整洁，如实回答问题',
  ].join('\n'),
  telephone: '领馆或签证中心可能致电核实行程，请保持电话畅通；如错过来电，请及时联系您的办理顾问。我们不会以任何理由要求您转账。',
};

/** The default texts with the product's place: a visa centre's applicants are not sent to the consulate. */
export function defaultNoticeText(kind: InterviewPlaceKind): typeof DEFAULT_NOTICE_TEXT {
  if (kind === 'consulate') return DEFAULT_NOTICE_TEXT;
  const place = INTERVIEW_PLACE_LABELS[kind];
  return {
    process: DEFAULT_NOTICE_TEXT.process.replace('到达领馆', `到达${place}`).replace('离馆', '离开'),
    attention: DEFAULT_NOTICE_TEXT.attention.replace('领馆禁止', `${place}禁止`),
    telephone: DEFAULT_NOTICE_TEXT.telephone,
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function mayAct(operator: Operator, order: Pick<OrderRow, 'assignee_operator_id'>): boolean {
  return operator.role === 'supervisor' || order.assignee_operator_id === operator.operatorId;
}

function validDate(date: string): boolean {
  return DATE.test(date) && !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
}

export function createInterviewNoticeService(db: Kysely<Database>, deps: { now: () => number }) {
  const repo = createInterviewNoticeRepository(db);
  const slots = createInterviewRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const { now } = deps;

  async function consulateOf(order: OrderRow) {
    const districtId = order.consular_district_id ?? order.product_district_id;
    const district = districtId === null ? undefined : await slots.district(districtId);
    if (!district) throw new AppError(ErrorCode.INTERVIEW_NO_DISTRICT);
    return { district, nationalDays: await slots.closedDays(district) };
  }

  function requestView(row: Awaited<ReturnType<typeof repo.requests>>[number]): InterviewChangeView {
    return {
      change_request_id: row.change_request_id,
      applicant_id: row.applicant_id,
      status: row.status,
      to: { interview_slot_id: row.to_slot_id, slot_date: row.slot_date, start_time: row.start_time, end_time: row.end_time },
      reason: row.reason,
      decline_reason: row.decline_reason,
      created_at: Number(row.created_at),
      decided_at: row.decided_at === null ? null : Number(row.decided_at),
    };
  }

  function chosenOf(row: { interview_slot_id: number | null; slot_date: string | null; start_time: string | null; end_time: string | null }) {
    return row.interview_slot_id !== null && row.slot_date && row.start_time && row.end_time
      ? { interview_slot_id: row.interview_slot_id, slot_date: row.slot_date, start_time: row.start_time, end_time: row.end_time }
      : null;
  }

  /** The operator's own checks before a decision: the step, who, the version seen. */
  function operatorGuard(
    event: 'interview_notice_publish' | 'interview_change_accept' | 'interview_change_decline',
    order: OrderRow,
    operator: Operator,
    version: number,
    at: number,
  ) {
    checkAllowed(event, order, operator, at);
    if (!mayAct(operator, order)) throw new AppError(ErrorCode.INTERVIEW_NOTICE_NOT_ASSIGNEE);
    if (order.version !== version) throw new AppError(ErrorCode.INTERVIEW_NOTICE_STALE);
  }

  function checkFields(fields: InterviewNoticeFields, order: OrderRow, at: number) {
    const bad = (msg: string) => new AppError(ErrorCode.INTERVIEW_NOTICE_INVALID, msg);
    if (!validDate(fields.interview_date)) throw bad('请填写正确的面试日期');
    if (!TIME.test(fields.start_time) || !TIME.test(fields.end_time) || fields.end_time <= fields.start_time) throw bad('请填写正确的开始和结束时间');
    if (fields.interview_date < chinaDate(at)) throw bad('面试日期不能早于今天');
    if (fields.interview_date >= order.departure_date) throw bad('面试日期须早于出发日期');
  }

  return {
    // ── Customer ──────────────────────────────────────────────────────────
    async detail(customer: Customer, userOrderId: number): Promise<InterviewNoticeDetail> {
      const order = await lifecycle.current(customer, userOrderId);
      if (!order.need_interview) throw new AppError(ErrorCode.INTERVIEW_NOT_NEEDED);
      const districtId = order.consular_district_id ?? order.product_district_id;
      const district = districtId === null ? undefined : await slots.district(districtId);
      const [applicants, notices, requests, placeKind] = await Promise.all([
        repo.applicants(userOrderId),
        repo.notices(userOrderId),
        repo.requests(userOrderId),
        interviewPlaceKindOf(db, order.visa_product_id),
      ]);
      // The product's place (a visa centre or the consulate), not always the district's consulate.
      const place = district ? interviewPlaceName(placeKind, district, order.country) : INTERVIEW_PLACE_LABELS[placeKind];
      return {
        user_order_id: order.user_order_id,
        order_no: order.order_no,
        product_title: order.product_title,
        country: order.country,
        status: order.status,
        step: order.step,
        in_interview_step: atStep(order, 'interview'),
        departure_date: order.departure_date,
        consulate: district ? { name: place, address: district.address, city: district.city, place_kind: placeKind } : null,
        video: { url: district?.interview_video_url ?? DEFAULT_INTERVIEW_VIDEO, title: `${place}面试/录指纹指引` },
        applicants: applicants.map((row) => {
          const notice = notices.find((n) => n.applicant_id === row.applicant_id);
          const request = requests.find((r) => r.applicant_id === row.applicant_id);
          return {
            applicant_id: row.applicant_id,
            name: row.name,
            chosen: chosenOf(row),
            notice: notice
              ? {
                  interview_notice_id: notice.interview_notice_id,
                  interview_date: notice.interview_date,
                  start_time: notice.start_time,
                  end_time: notice.end_time,
                  consulate_name: notice.consulate_name,
                  consulate_address: notice.consulate_address,
                  process: notice.process,
                  attention: notice.attention,
                  telephone: notice.telephone,
                  materials: notice.materials,
                  published_at: Number(notice.published_at),
                  updated_at: Number(notice.updated_at),
                }
              : null,
            change_request: request ? requestView(request) : null,
          };
        }),
      };
    },

    /** The free times the customer may ask for: the booking window's open days of the order's consulate. */
    async changeSlots(customer: Customer, userOrderId: number): Promise<InterviewChangeSlots> {
      const order = await lifecycle.current(customer, userOrderId);
      checkAllowed('interview_change_request', order, customer, now());
      const { district, nationalDays } = await consulateOf(order);
      const window = bookingWindow(chinaDate(now()), order.order_date, order.departure_date);
      if (!window) return { window: null, dates: [], notice: '出发日期前已没有可预约的工作日，请联系客服' };
      const days = openDays(window.from, window.to, nationalDays);
      await slots.ensureSlots(
        district.consular_district_id,
        days.map((day) => day.date),
      );
      const rows = await slots.slotsBetween(district.consular_district_id, window.from, window.to);
      return {
        window,
        notice: null,
        dates: days.map((day) => ({
          date: day.date,
          weekday: weekdayLabel(day.date),
          provisional: day.provisional,
          slots: rows
            .filter((slot) => slot.slot_date === day.date)
            .map((slot) => ({
              interview_slot_id: slot.interview_slot_id,
              start_time: slot.start_time,
              end_time: slot.end_time,
              remaining: Math.max(0, slot.capacity - slot.booked),
              full: slot.booked >= slot.capacity,
            })),
        })),
      };
    },

    async requestChange(customer: Customer, input: InterviewChangeRequestInput) {
      let changeRequestId = 0;
      const state = await lifecycle.change(customer, input.user_order_id, async (order, at) => {
        checkAllowed('interview_change_request', order, customer, at);
        const { district, nationalDays } = await consulateOf(order);
        const applicant = (await repo.applicants(order.user_order_id)).find((row) => row.applicant_id === input.applicant_id);
        if (!applicant) throw new AppError(ErrorCode.INTERVIEW_NOTICE_APPLICANT_NOT_FOUND);
        const notices = await repo.notices(order.user_order_id);
        if (!notices.some((n) => n.applicant_id === applicant.applicant_id)) throw new AppError(ErrorCode.INTERVIEW_NOTICE_NOT_PUBLISHED);
        const requests = await repo.requests(order.user_order_id);
        // The table's refusal (2145): one open request per applicant.
        const open = requests.find((r) => r.applicant_id === applicant.applicant_id && subAllows('interview_change', 'accept', r.status));
        checkSubAllowed('interview_change', 'request', open?.status ?? 'none');
        const [slot] = await slots.slotsById([input.interview_slot_id]);
        if (!slot || slot.consular_district_id !== district.consular_district_id) throw new AppError(ErrorCode.INTERVIEW_SLOT_NOT_FOUND);
        if (slot.interview_slot_id === applicant.interview_slot_id) throw new AppError(ErrorCode.INTERVIEW_CHANGE_SAME_TIME);
        const window = bookingWindow(chinaDate(at), order.order_date, order.departure_date);
        if (!inWindow(window, slot.slot_date)) throw new AppError(ErrorCode.INTERVIEW_SLOT_UNAVAILABLE, `${slot.slot_date} 不在可预约范围内，请重新选择`);
        const day = consulateDay(slot.slot_date, nationalDays);
        if (!day.open) throw new AppError(ErrorCode.INTERVIEW_SLOT_UNAVAILABLE, `${slot.slot_date} 领馆不办公（${day.closedFor}），请重新选择`);
        if (slot.booked >= slot.capacity) throw new AppError(ErrorCode.INTERVIEW_SLOT_FULL, `${slot.slot_date} ${slot.start_time} 已约满，请重新选择`);
        return {
          event: 'interview_change_request',
          within: async (trx) => {
            changeRequestId = await repo.insertRequest(trx, {
              user_order_id: order.user_order_id,
              applicant_id: applicant.applicant_id,
              from_slot_id: applicant.interview_slot_id,
              to_slot_id: slot.interview_slot_id,
              reason: input.reason ? input.reason : null,
              at,
            });
          },
          detail: {
            applicant_id: applicant.applicant_id,
            name: applicant.name,
            to_slot_id: slot.interview_slot_id,
            slot_date: slot.slot_date,
            start_time: slot.start_time,
          },
        };
      });
      return { change_request_id: changeRequestId, version: state.version };
    },

    // ── Back office ───────────────────────────────────────────────────────
    async panel(operator: Operator, userOrderId: number): Promise<AdminInterviewPanel> {
      const order = await lifecycle.current(operator, userOrderId);
      const districtId = order.consular_district_id ?? order.product_district_id;
      const district = districtId === null ? undefined : await slots.district(districtId);
      const [applicants, notices, requests, bring, placeKind] = await Promise.all([
        repo.applicants(userOrderId),
        repo.notices(userOrderId),
        repo.requests(userOrderId),
        repo.bringItems(userOrderId),
        interviewPlaceKindOf(db, order.visa_product_id),
      ]);
      return {
        user_order_id: order.user_order_id,
        step: order.step,
        version: order.version,
        can_act: stateAllows('interview_notice_publish', order, now()) && mayAct(operator, order),
        applicants: applicants.map((row) => {
          const notice = notices.find((n) => n.applicant_id === row.applicant_id);
          const open = requests.find((r) => r.applicant_id === row.applicant_id && subAllows('interview_change', 'accept', r.status));
          const chosen = chosenOf(row);
          const form: InterviewNoticeFields = notice
            ? {
                interview_date: notice.interview_date,
                start_time: notice.start_time,
                end_time: notice.end_time,
                consulate_name: notice.consulate_name,
                consulate_address: notice.consulate_address,
                process: notice.process,
                attention: notice.attention,
                telephone: notice.telephone,
                materials: notice.materials,
              }
            : {
                interview_date: chosen?.slot_date ?? '',
                start_time: chosen?.start_time ?? '',
                end_time: chosen?.end_time ?? '',
                consulate_name: district ? interviewPlaceName(placeKind, district, order.country) : '',
                consulate_address: district?.address ?? '',
                ...defaultNoticeText(placeKind),
                materials: [...new Set(['护照原件', ...(bring.get(row.identity_id) ?? [])])],
              };
          return {
            applicant_id: row.applicant_id,
            name: row.name,
            chosen,
            published: notice !== undefined,
            form,
            open_request: open ? { ...requestView(open), to_full: open.booked >= open.capacity } : null,
          };
        }),
      };
    },

    async publish(operator: Operator, input: InterviewPublishInput) {
      let noticeId = 0;
      const { user_order_id: userOrderId, applicant_id: applicantId, version, ...fields } = input;
      const state = await lifecycle.change(operator, userOrderId, async (order, at) => {
        operatorGuard('interview_notice_publish', order, operator, version, at);
        const applicant = (await repo.applicants(userOrderId)).find((row) => row.applicant_id === applicantId);
        if (!applicant) throw new AppError(ErrorCode.INTERVIEW_NOTICE_APPLICANT_NOT_FOUND);
        checkFields(fields, order, at);
        const republish = (await repo.notices(userOrderId)).some((n) => n.applicant_id === applicantId);
        return {
          event: 'interview_notice_publish',
          within: async (trx) => {
            noticeId = await repo.upsertNotice(trx, {
              ...fields,
              user_order_id: userOrderId,
              applicant_id: applicantId,
              published_by: operator.operatorId,
              at,
            });
          },
          detail: { applicant_id: applicantId, name: applicant.name, interview_date: fields.interview_date, start_time: fields.start_time, republish },
        };
      });
      return { interview_notice_id: noticeId, version: state.version };
    },

    async accept(operator: Operator, input: { user_order_id: number; change_request_id: number; version: number }) {
      try {
        const state = await lifecycle.change(operator, input.user_order_id, async (order, at) => {
          operatorGuard('interview_change_accept', order, operator, input.version, at);
          const request = (await repo.requests(order.user_order_id)).find((r) => r.change_request_id === input.change_request_id);
          // The table's refusal (2146): only an open request is answered.
          checkSubAllowed('interview_change', 'accept', request?.status ?? 'none');
          if (!request) throw new AppError(ErrorCode.INTERVIEW_CHANGE_NOT_FOUND);
          const applicant = (await repo.applicants(order.user_order_id)).find((row) => row.applicant_id === request.applicant_id)!;
          // Checked again now: the day may have passed or the departure date moved since the customer asked.
          const { nationalDays } = await consulateOf(order);
          const window = bookingWindow(chinaDate(at), order.order_date, order.departure_date);
          if (!inWindow(window, request.slot_date) || !consulateDay(request.slot_date, nationalDays).open) {
            throw new AppError(ErrorCode.INTERVIEW_SLOT_UNAVAILABLE, `${request.slot_date} 已不可预约，请拒绝该申请`);
          }
          const changes = [{ interviewSlotId: request.to_slot_id, delta: 1 }];
          if (applicant.interview_slot_id !== null) changes.push({ interviewSlotId: applicant.interview_slot_id, delta: -1 });
          return {
            event: 'interview_change_accept',
            // The order row first, then the slots by ascending id (the lock order of choosing a time).
            within: async (trx) => {
              if ((await applySlotChanges(trx, changes)) !== null) throw new AppError(ErrorCode.INTERVIEW_CHANGE_SLOT_FULL);
              if (!(await repo.decide(trx, request.change_request_id, { status: 'accepted', by: operator.operatorId, at }))) {
                throw new AppError(ErrorCode.INTERVIEW_CHANGE_NOT_FOUND);
              }
              await repo.moveNotice(trx, request.applicant_id, request, at);
            },
            applicants: [{ applicant_id: request.applicant_id, set: { interview_slot_id: request.to_slot_id } }],
            detail: {
              change_request_id: request.change_request_id,
              applicant_id: request.applicant_id,
              name: applicant.name,
              from_slot_id: applicant.interview_slot_id,
              to_slot_id: request.to_slot_id,
              slot_date: request.slot_date,
              start_time: request.start_time,
            },
          };
        });
        return { version: state.version };
      } catch (error) {
        // The CHECK (booked <= capacity) is the second guard: never a 500.
        if (isCheckViolation(error)) throw new AppError(ErrorCode.INTERVIEW_CHANGE_SLOT_FULL);
        throw error;
      }
    },

    async decline(operator: Operator, input: { user_order_id: number; change_request_id: number; version: number; reason?: string }) {
      const state = await lifecycle.change(operator, input.user_order_id, async (order, at) => {
        operatorGuard('interview_change_decline', order, operator, input.version, at);
        const request = (await repo.requests(order.user_order_id)).find((r) => r.change_request_id === input.change_request_id);
        // The table's refusal (2146): only an open request is answered.
        checkSubAllowed('interview_change', 'decline', request?.status ?? 'none');
        if (!request) throw new AppError(ErrorCode.INTERVIEW_CHANGE_NOT_FOUND);
        const reason = input.reason ? input.reason : null;
        return {
          event: 'interview_change_decline',
          within: async (trx) => {
            if (!(await repo.decide(trx, request.change_request_id, { status: 'declined', by: operator.operatorId, at, declineReason: reason }))) {
              throw new AppError(ErrorCode.INTERVIEW_CHANGE_NOT_FOUND);
            }
          },
          detail: { change_request_id: request.change_request_id, applicant_id: request.applicant_id, slot_date: request.slot_date, reason },
        };
      });
      return { version: state.version };
    },
  };
}

export type InterviewNoticeService = ReturnType<typeof createInterviewNoticeService>;
