// Orders: create (with its guards and the snapshot), cancel, change the
// departure date — the engine side of the order. What the customer reads of
// an order (its detail, the list) is built above every module that holds part
// of it, in server/modules/order-view/ (issue 24, decision 0035).
// Rules: /work/shared/design/order-lifecycle.md and docs/order-rules.md.
import type { Kysely } from 'kysely';
import type { DepartureWarning, OrderCreateInput, OrderCreateResult } from '../../../common/contracts/order.ts';
import { MOBILE_PHONE_PATTERN, ORDER_LIMITS, EMAIL_PATTERN, PASSPORT_NO_PATTERN } from '../../../common/contracts/rules.ts';
import { isDelisted, productTitle } from '../../../common/catalogue.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { addDays, chinaDate, daysBetween, earliestDepartureDate, isCalendarDate, workingDaysBetween } from '../../../common/order.ts';
import { normalizeInputText } from '../../../common/text.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { isChinaWorkingDay } from '../../platform/china-calendar.ts';
import { toJson } from '../../db/json.ts';
import { checkAllowed, createOrderLifecycle } from './lifecycle.ts';
import { createOrderRepository, type NewApplicant } from './order.repository.ts';
import type { Customer } from '../../platform/principal.ts';

export interface OrderServiceDeps {
  now: () => number;
}

function characters(text: string): number {
  return [...text].length;
}

function applicantError(code: (typeof ErrorCode)[keyof typeof ErrorCode], message: string, index: number, total: number): AppError {
  return new AppError(code, total > 1 ? `第${index + 1}位申请人：${message}` : message);
}

function normalizeApplicants(input: OrderCreateInput['applicants'], departure: string): NewApplicant[] {
  if (input.length < ORDER_LIMITS.minApplicants) throw new AppError(ErrorCode.ORDER_APPLICANTS_REQUIRED);
  if (input.length > ORDER_LIMITS.maxApplicants) throw new AppError(ErrorCode.ORDER_TOO_MANY_APPLICANTS);
  const seen = new Set<string>();
  return input.map((raw, index) => {
    const name = normalizeInputText(raw.name);
    if (characters(name) < 1 || characters(name) > ORDER_LIMITS.applicantNameMaxLength) {
      throw applicantError(ErrorCode.ORDER_APPLICANT_NAME_INVALID, '请输入申请人姓名（1–30 个字）', index, input.length);
    }
    // "138 0013 8000" and "138-0013-8000" are the same number.
    const mobile = normalizeInputText(raw.mobile_phone).replace(/[\s-]/g, '');
    if (!MOBILE_PHONE_PATTERN.test(mobile)) throw applicantError(ErrorCode.ORDER_APPLICANT_MOBILE_INVALID, '请输入正确的手机号', index, input.length);
    const email = raw.email ? normalizeInputText(raw.email) : '';
    if (email !== '' && !EMAIL_PATTERN.test(email)) throw applicantError(ErrorCode.ORDER_APPLICANT_EMAIL_INVALID, '请输入正确的邮箱', index, input.length);
    const key = `${name}\n${mobile}`;
    if (seen.has(key)) throw applicantError(ErrorCode.ORDER_APPLICANT_DUPLICATE, `申请人重复（${name}）`, index, input.length);
    seen.add(key);
    const passportNo = raw.passport_no ? normalizeInputText(raw.passport_no).toUpperCase().replace(/\s+/g, '') : '';
    if (passportNo !== '' && !PASSPORT_NO_PATTERN.test(passportNo))
      throw applicantError(ErrorCode.INVALID_PARAMS, '护照号码应为 5–20 位字母或数字', index, input.length);
    // Only the date is checked here; one expiring less than six months after departure is warned about (order detail), not refused.
    const passportExpiry = raw.passport_expiry ? normalizeInputText(raw.passport_expiry) : '';
    if (passportExpiry !== '' && !isCalendarDate(passportExpiry))
      throw applicantError(ErrorCode.ORDER_APPLICANT_PASSPORT_EXPIRY_INVALID, '请输入正确的护照有效期', index, input.length);
    if (passportExpiry !== '' && passportExpiry < departure)
      throw applicantError(ErrorCode.ORDER_APPLICANT_PASSPORT_EXPIRED, '护照在出发日期前已到期，请换发护照后再办理', index, input.length);
    return {
      name,
      identity_id: raw.identity_id,
      mobile_phone: mobile,
      email: email === '' ? null : email,
      passport_no: passportNo === '' ? null : passportNo,
      passport_expiry: passportExpiry === '' ? null : passportExpiry,
    };
  });
}

/**
 * The first departure date that leaves `needDays` working days after the order date. The same for
 * every order of a day and product speed, so kept: counting the days one by one for each
 * order_create was half of create's own CPU time under `npm run bench:order`. China's calendar
 * does not change while the process runs; the map is emptied when it reaches 1,000 entries.
 */
const earliestDepartures = new Map<string, string>();
function earliestDeparture(orderDate: string, needDays: number): string {
  const key = `${orderDate}|${needDays}`;
  let earliest = earliestDepartures.get(key);
  if (earliest === undefined) {
    if (earliestDepartures.size >= 1000) earliestDepartures.clear();
    earliest = earliestDepartureDate(orderDate, needDays, isChinaWorkingDay);
    earliestDepartures.set(key, earliest);
  }
  return earliest;
}

/** The departure date leaves fewer working days than the product usually needs: said, not refused. */
function departureWarning(orderDate: string, departure: string, needDays: number): DepartureWarning | null {
  const earliest = earliestDeparture(orderDate, needDays);
  // The working days only grow with the departure date: from the earliest one on, there are enough.
  if (departure >= earliest) return null;
  const workingDays = workingDaysBetween(orderDate, departure, isChinaWorkingDay);
  return {
    message: `出发日期距办理日期仅 ${workingDays} 个工作日，该签证通常需要 ${needDays} 个工作日，建议出发日期不早于 ${earliest}`,
    working_days: workingDays,
    need_days: needDays,
    earliest_departure_date: earliest,
  };
}

export function createOrderService(db: Kysely<Database>, deps: OrderServiceDeps) {
  const repo = createOrderRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const { now } = deps;

  return {
    async create(customer: Customer, input: OrderCreateInput): Promise<OrderCreateResult> {
      const at = now();
      const today = chinaDate(at);

      const product = await repo.productForOrder(input.visa_product_id);
      if (!product) throw new AppError(ErrorCode.VISA_PRODUCT_NOT_FOUND);
      if (isDelisted(product)) throw new AppError(ErrorCode.ORDER_PRODUCT_DELISTED);
      if (product.offline !== 1) throw new AppError(ErrorCode.ORDER_PRODUCT_NOT_OFFLINE);

      const departure = input.departure_date.trim();
      if (!isCalendarDate(departure)) throw new AppError(ErrorCode.ORDER_DEPARTURE_DATE_INVALID);
      if (departure < today) throw new AppError(ErrorCode.ORDER_DEPARTURE_DATE_PAST);
      if (daysBetween(today, departure) > ORDER_LIMITS.maxDepartureDaysAhead) throw new AppError(ErrorCode.ORDER_DEPARTURE_DATE_TOO_FAR);

      const orderDate = input.order_date ? input.order_date.trim() : today;
      if (!isCalendarDate(orderDate)) throw new AppError(ErrorCode.ORDER_DATE_INVALID);
      if (orderDate < today) throw new AppError(ErrorCode.ORDER_DATE_INVALID, '办理日期不能早于今天');
      if (orderDate > departure) throw new AppError(ErrorCode.ORDER_DATE_INVALID, '办理日期不能晚于出发日期');

      let consularDistrictId = product.consular_district_id;
      if (input.consular_district_id) {
        const district = await repo.district(input.consular_district_id);
        const fits =
          district !== undefined &&
          district.visa_country_id === product.visa_country_id &&
          (product.consular_district_id === null || product.consular_district_id === district.consular_district_id);
        if (!fits) throw new AppError(ErrorCode.ORDER_DISTRICT_INVALID);
        consularDistrictId = district.consular_district_id;
      }

      const applicants = normalizeApplicants(input.applicants, departure);
      const checklist = await repo.checklistFor(
        product.visa_product_id,
        product.checklist_serial,
        applicants.map((applicant) => applicant.identity_id),
      );

      // The customer pays the distributor (enterprise) price when the product has one.
      const unitPrice =
        product.distributor_discount_desc && product.distributor_discount_price !== null ? product.distributor_discount_price : product.sell_price;
      const expiresAt = at + ORDER_LIMITS.unpaidTtlMs;
      const totalAmount = unitPrice * applicants.length;
      const userOrderId = await lifecycle.create(
        customer,
        {
          enterprise_id: customer.enterpriseId,
          account_id: customer.accountId,
          visa_product_id: product.visa_product_id,
          consular_district_id: consularDistrictId,
          departure_date: departure,
          order_date: orderDate,
          product_title: productTitle(product),
          country: product.country,
          visa_type: product.visa_type,
          need_interview: product.need_interview === 1 ? 1 : 0,
          reject_refund: product.reject_refund === 1 ? 1 : 0,
          unit_price: unitPrice,
          applicant_count: applicants.length,
          product_amount: totalAmount,
          total_amount: totalAmount,
          created_at: at,
          expires_at: expiresAt,
          // The photo rule goes with the order (issue 26); so does the checklist (its versions, below).
          visa_photo_id: product.photo_id ?? 0,
          photo_color: product.photo_color,
          photo_width: product.photo_width,
          photo_height: product.photo_height,
          photo_name: product.photo_name,
          // The stay goes with it too: the passport validity check's trip (migration 057).
          stay_days: product.stay_days,
        },
        applicants,
        checklist,
        { unit_price: unitPrice, applicant_count: applicants.length, total_amount: totalAmount },
      );

      return { user_order_id: userOrderId, expires_at: expiresAt, departure_warning: departureWarning(orderDate, departure, product.need_days) };
    },

    async changeDepartureDate(customer: Customer, userOrderId: number, departureDate: string) {
      const departure = departureDate.trim();
      let warningFrom = '';
      const order = await lifecycle.change(customer, userOrderId, (order, at) => {
        const today = chinaDate(at);
        // The state is the lifecycle table's to refuse (1815, 1818), before the date is looked at.
        checkAllowed('departure_date_update', order, customer, at);
        if (!isCalendarDate(departure)) throw new AppError(ErrorCode.ORDER_DEPARTURE_DATE_INVALID);
        if (departure < today) throw new AppError(ErrorCode.ORDER_DEPARTURE_DATE_PAST);
        if (daysBetween(today, departure) > ORDER_LIMITS.maxDepartureDaysAhead) throw new AppError(ErrorCode.ORDER_DEPARTURE_DATE_TOO_FAR);
        if (order.order_date > departure) throw new AppError(ErrorCode.ORDER_DATE_INVALID, '出发日期不能早于办理日期');
        warningFrom = order.order_date > today ? order.order_date : today;
        // The insurance keeps its days and price and starts on the new departure date.
        const insurance = order.insurance_snapshot;
        return {
          event: 'departure_date_update',
          set: {
            departure_date: departure,
            insurance_snapshot: insurance ? toJson({ ...insurance, start_date: departure, end_date: addDays(departure, insurance.days - 1) }) : null,
            // An effect date after the new departure no longer fits: back to "from the departure date".
            ...(order.effect_date !== null && order.effect_date > departure ? { effect_date: null } : {}),
          },
          detail: { from: order.departure_date, to: departure },
        };
      });
      const needDays = await repo.productNeedDays((await lifecycle.current(customer, order.user_order_id)).visa_product_id);
      return { user_order_id: userOrderId, departure_date: departure, departure_warning: departureWarning(warningFrom, departure, needDays) };
    },

    /** Only before payment (draft, pending_payment); the table refuses the rest (1815, 1816). */
    async cancel(customer: Customer, userOrderId: number, reason?: string | null): Promise<{ user_order_id: number; status: 'cancelled' }> {
      const cancelReason = reason ? normalizeInputText(reason).slice(0, ORDER_LIMITS.cancelReasonMaxLength) || null : null;
      await lifecycle.change(customer, userOrderId, async (order, at) => {
        checkAllowed('cancel', order, customer, at);
        // The interview places go back to other customers with the cancellation.
        const { released, ...places } = await lifecycle.interviewPlacesBack(userOrderId);
        return {
          event: 'cancel',
          set: { cancelled_at: at, cancel_reason: cancelReason, expires_at: null },
          detail:
            cancelReason || released > 0
              ? { ...(cancelReason ? { reason: cancelReason } : {}), ...(released > 0 ? { interview_places_released: released } : {}) }
              : null,
          ...places,
        };
      });
      return { user_order_id: userOrderId, status: 'cancelled' };
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
