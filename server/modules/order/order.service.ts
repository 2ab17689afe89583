// Orders: create (with its guards and the snapshot), read, list, cancel.
// Rules: /work/shared/design/order-lifecycle.md and docs/order-rules.md.
import type { Kysely } from 'kysely';
import type {
  DepartureWarning,
  OrderApplicant,
  OrderApplicantSummary,
  OrderCreateInput,
  OrderCreateResult,
  OrderDetail,
  OrderListResult,
  OrderSummary,
} from '../../../common/contracts/order.ts';
import { MOBILE_PHONE_PATTERN, ORDER_LIMITS, EMAIL_PATTERN } from '../../../common/contracts/rules.ts';
import { isDelisted, productTitle } from '../../../common/catalogue.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import {
  APPLICANT_IDENTITIES,
  APPLICANT_STATUSES,
  type ApplicantStatus,
  ORDER_EVENTS,
  ORDER_LIST_TABS,
  type OrderListTabKey,
  addDays,
  chinaDate,
  daysBetween,
  earliestDepartureDate,
  isCalendarDate,
  isDeparturePast,
  needsAction,
  orderActions,
  statusLabel,
  stepLabel,
  workingDaysBetween,
} from '../../../common/order.ts';
import { normalizeInputText } from '../../../common/text.ts';
import type { Database } from '../../db/schema.ts';
import { priceDifferencesOf } from '../price-difference/price-difference-records.ts';
import { visaDatesOf, visaResultsOf } from '../result/result-records.ts';
import { refundsOf } from '../refund/refund-records.ts';
import { AppError } from '../../platform/errors.ts';
import { type OrderingStep, PAYMENT_CHANNELS, PAYMENT_STATUSES } from '../../../common/ordering.ts';
import { toJson } from '../../db/json.ts';
import { chinaDay } from '../interview/calendar.ts';
import { applicantInterviews } from '../interview/order-interview.ts';
import { missingMaterials } from '../material/material-progress.ts';
import { allowedEvents, checkAllowed, createOrderLifecycle } from './lifecycle.ts';
import { orderSchedule } from './schedule.ts';
import { createOrderRepository, type NewApplicant, type OrderRow } from './order.repository.ts';
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

function normalizeApplicants(input: OrderCreateInput['applicants']): NewApplicant[] {
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
    return { name, identity_id: raw.identity_id, mobile_phone: mobile, email: email === '' ? null : email };
  });
}

function applicantSummary(
  row: { applicant_id: number; name: string; identity_id: number; status: ApplicantStatus },
  visaDates?: Map<number, { valid_from: string | null; valid_to: string | null }>,
): OrderApplicantSummary {
  const dates = visaDates?.get(row.applicant_id);
  return {
    visa_valid_from: dates?.valid_from ?? null,
    visa_valid_to: dates?.valid_to ?? null,
    applicant_id: row.applicant_id,
    name: row.name,
    identity_id: row.identity_id,
    identity_label: APPLICANT_IDENTITIES[row.identity_id as keyof typeof APPLICANT_IDENTITIES] ?? '',
    status: row.status,
    status_label: APPLICANT_STATUSES[row.status],
  };
}

/** Processing happens in China: public holidays and days in lieu are off, make-up weekends are worked. */
function isChinaWorkingDay(date: string): boolean {
  const kind = chinaDay(date).kind;
  return kind === 'workday' || kind === 'makeup_workday';
}

/** The departure date leaves fewer working days than the product usually needs: said, not refused. */
function departureWarning(orderDate: string, departure: string, needDays: number): DepartureWarning | null {
  const workingDays = workingDaysBetween(orderDate, departure, isChinaWorkingDay);
  if (workingDays >= needDays) return null;
  const earliest = earliestDepartureDate(orderDate, needDays, isChinaWorkingDay);
  return {
    message: `出发日期距办理日期仅 ${workingDays} 个工作日，该签证通常需要 ${needDays} 个工作日，建议出发日期不早于 ${earliest}`,
    working_days: workingDays,
    need_days: needDays,
    earliest_departure_date: earliest,
  };
}

/** The departure date can move while unpaid, or while processing before the application is at the embassy. */
/** Where a draft resumes: materials first, then the interview time (when needed), then the confirmation. */
function orderingStepOf(order: OrderRow, materialsMissing: boolean, applicants: Array<{ interview_slot_id: number | null }>): OrderingStep | null {
  if (order.status === 'pending_payment') return 'pay';
  if (order.status !== 'draft') return null;
  if (materialsMissing) return 'upload';
  if (order.need_interview && applicants.some((applicant) => applicant.interview_slot_id === null)) return 'interview';
  return 'confirm';
}

function summaryOf(row: OrderRow, today: string): Omit<OrderSummary, 'applicants'> {
  return {
    user_order_id: row.user_order_id,
    status: row.status,
    status_label: statusLabel(row.status),
    step: row.step,
    step_label: stepLabel(row.step),
    visa_product_id: row.visa_product_id,
    product_title: row.product_title,
    country: row.country,
    visa_type: row.visa_type,
    consular_district: row.consular_district_id ? { consular_district_id: row.consular_district_id, name: row.consular_district_name ?? '' } : null,
    departure_date: row.departure_date,
    order_date: row.order_date,
    unit_price: row.unit_price,
    applicant_count: row.applicant_count,
    total_amount: row.total_amount,
    created_at: row.created_at,
    expires_at: row.expires_at,
    departure_date_past: isDeparturePast(row, today),
    needs_action: needsAction(row, today),
    actions: orderActions(row, today),
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

      const applicants = normalizeApplicants(input.applicants);

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
        },
        applicants,
        { unit_price: unitPrice, applicant_count: applicants.length, total_amount: totalAmount },
      );

      return { user_order_id: userOrderId, expires_at: expiresAt, departure_warning: departureWarning(orderDate, departure, product.need_days) };
    },

    async detail(customer: Customer, userOrderId: number): Promise<OrderDetail> {
      const order = await lifecycle.current(customer, userOrderId);
      const at = now();
      const [applicants, events, interviewOf, fileCounts, payments, missing] = await Promise.all([
        repo.applicants([userOrderId]),
        repo.events(userOrderId),
        applicantInterviews(db, [userOrderId]),
        repo.fileCounts(userOrderId),
        repo.payments(userOrderId),
        order.status === 'draft' ? missingMaterials(db, userOrderId) : Promise.resolve([]),
      ]);
      const differences = await priceDifferencesOf(db, userOrderId);
      const visaResults = await visaResultsOf(db, userOrderId);
      const visaDates = new Map(visaResults.map((v) => [v.applicant_id, { valid_from: v.valid_from, valid_to: v.valid_to }]));
      const filesOf = new Map(fileCounts.map((row) => [row.applicant_id, Number(row.count)]));
      const mailsPaper = await repo.mailsPaper(order.visa_product_id, [...new Set(applicants.map((row) => row.identity_id))]);
      return {
        ...summaryOf(order, chinaDate(at)),
        visa_country_id: order.visa_country_id,
        need_interview: order.need_interview,
        reject_refund: order.reject_refund,
        updated_at: order.updated_at,
        cancelled_at: order.cancelled_at,
        cancel_reason: order.cancel_reason,
        version: order.version,
        allowed_events: allowedEvents(order, customer, at),
        applicants: applicants.map((row): OrderApplicant => {
          return {
            ...applicantSummary(row, visaDates),
            mobile_phone: row.mobile_phone,
            email: row.email,
            passport_no: row.passport_no,
            insured: row.insured,
            interview: interviewOf.get(row.applicant_id) ?? null,
            material_file_count: filesOf.get(row.applicant_id) ?? 0,
          };
        }),
        events: events.map((row) => ({
          event: row.event,
          event_label: ORDER_EVENTS[row.event] ?? row.event,
          actor: row.actor,
          from_status: row.from_status,
          to_status: row.to_status,
          created_at: row.created_at,
        })),
        schedule: orderSchedule(events, { status: order.status, mailsPaper, needInterview: order.need_interview }),
        effect_date: order.effect_date,
        product_amount: order.product_amount,
        insurance_amount: order.insurance_amount,
        discount_amount: order.discount_amount,
        insurance: order.insurance_snapshot,
        return_address: order.return_address,
        payments: payments.map((row) => ({
          out_trade_no: row.out_trade_no,
          channel: row.channel,
          channel_label: PAYMENT_CHANNELS[row.channel],
          amount: row.amount,
          status: row.status,
          status_label: PAYMENT_STATUSES[row.status],
          created_at: row.created_at,
          paid_at: row.paid_at,
          price_difference_id: row.price_difference_id,
        })),
        confirmed_at: order.confirmed_at,
        paid_at: order.paid_at,
        ordering_step: orderingStepOf(order, missing.length > 0, applicants),
        missing_materials: missing,
        price_differences: differences,
        refunds: await refundsOf(db, userOrderId),
        price_difference_due: order.price_difference_due,
        price_difference_paid: order.price_difference_paid,
        paid_total: payments.filter((row) => row.status === 'paid').reduce((sum, row) => sum + row.amount, 0),
        visa_results: visaResults,
      };
    },

    async list(customer: Customer, tabKey: OrderListTabKey, page: number): Promise<OrderListResult> {
      const at = now();
      const today = chinaDate(at);
      const tab = ORDER_LIST_TABS.find((candidate) => candidate.key === tabKey) ?? ORDER_LIST_TABS[0]!;
      // The list never shows a payable order whose time is up, even between two sweeps.
      await lifecycle.expireDue(at, { enterpriseId: customer.enterpriseId });
      const { rows, total } = await repo.listOrders(customer.enterpriseId, tab, today, (page - 1) * ORDER_LIMITS.pageSize, ORDER_LIMITS.pageSize);
      const applicants = await repo.applicants(rows.map((row) => row.user_order_id));
      const visaDates = await visaDatesOf(
        db,
        rows.map((row) => row.user_order_id),
      );
      return {
        total_count: total,
        page_data: rows.map((row) => ({
          ...summaryOf(row, today),
          applicants: applicants.filter((a) => a.user_order_id === row.user_order_id).map((a) => applicantSummary(a, visaDates)),
        })),
      };
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
