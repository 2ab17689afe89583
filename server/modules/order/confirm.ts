// The confirm step: a complete draft (materials, interview times) gets its
// return address and insurance (or none) and becomes payable. Everything the
// order needs later is copied into it (address with its names, the plan with
// its items and price), so editing or deleting the address or withdrawing the
// plan afterwards never changes a confirmed order. One conditional UPDATE on
// the order's version: of two concurrent confirms exactly one wins.
import type { Kysely, Transaction } from 'kysely';
import type {
  InsuranceItem,
  InsuranceSnapshot,
  MissingMaterialView,
  OrderConfirmInput,
  OrderConfirmResult,
  ReturnAddressSnapshot,
} from '../../../common/contracts/order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { insuranceAmount, insuranceEndDate } from '../../../common/insurance.ts';
import { awaitsPayment, chinaDate, isCancelled, isDraft, isRefunded } from '../../../common/order.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { regionNames } from '../address/address-region.ts';
import { createAddressService } from '../address/address.service.ts';
import { toJson } from '../../db/json.ts';
import { createOrderLifecycle, type OrderRow } from './lifecycle.ts';
import { createOrderRepository } from './order.repository.ts';
import type { Customer } from '../../platform/principal.ts';

/** Applicants named in a "materials missing" message before "等". */
const NAMED_APPLICANTS = 3;

type Db = Kysely<Database> | Transaction<Database>;

/** A plan on sale as the confirm step copies it into the order. */
export interface PlanOnSale {
  insurance_plan_id: number;
  name: string;
  company: string;
  items: InsuranceItem[];
  price_per_day: number;
  min_days: number;
  max_days: number;
}

/**
 * What the confirm step reads of the modules above the order (handed in by
 * app.ts, so order/ imports neither back): the insurance plans on sale and
 * the materials still missing (server/modules/material/material-progress.ts).
 */
export interface OrderConfirmDeps {
  now: () => number;
  plans: { planOnSale(insurancePlanId: number): Promise<PlanOnSale | undefined> };
  missingMaterials(db: Db, userOrderId: number): Promise<MissingMaterialView[]>;
}

/** '资料尚未上传完整：张三（护照首页、签证照片）；李四（在职证明）' */
export function missingMaterialsMessage(missing: MissingMaterialView[]): string {
  const byApplicant = new Map<number, { name: string; items: string[] }>();
  for (const item of missing) {
    const entry = byApplicant.get(item.applicant_id) ?? { name: item.applicant_name, items: [] };
    entry.items.push(item.name);
    byApplicant.set(item.applicant_id, entry);
  }
  const entries = [...byApplicant.values()];
  const named = entries.slice(0, NAMED_APPLICANTS).map((entry) => `${entry.name}（${entry.items.join('、')}）`);
  const more = entries.length > NAMED_APPLICANTS ? `等 ${entries.length} 位申请人` : '';
  return `资料尚未上传完整：${named.join('；')}${more}`;
}

/** Applicants still without an interview time, or whose time has passed; null when all are fine. */
async function interviewProblem(db: Db, userOrderId: number, today: string, departureDate: string): Promise<string | null> {
  const rows = await db
    .selectFrom('order_applicant')
    .leftJoin('interview_slot', 'interview_slot.interview_slot_id', 'order_applicant.interview_slot_id')
    .select(['order_applicant.name', 'order_applicant.interview_slot_id', 'interview_slot.slot_date'])
    .where('order_applicant.user_order_id', '=', userOrderId)
    .orderBy('order_applicant.sort')
    .orderBy('order_applicant.applicant_id')
    .execute();
  const without = rows.filter((row) => row.interview_slot_id === null || row.slot_date === null).map((row) => row.name);
  if (without.length > 0) return `请为申请人${without.join('、')}选择面试时间`;
  const past = rows.filter((row) => row.slot_date !== null && row.slot_date < today).map((row) => row.name);
  if (past.length > 0) return `申请人${past.join('、')}的面试时间已过，请重新选择`;
  // The departure date may have moved earlier since the time was chosen.
  const late = rows.filter((row) => row.slot_date !== null && row.slot_date >= departureDate).map((row) => row.name);
  if (late.length > 0) return `申请人${late.join('、')}的面试时间不早于出发日期，请重新选择`;
  return null;
}

/** The checks that other steps (upload, interview) can undo meanwhile: run before deciding and again inside the transaction. */
async function checkComplete(db: Db, deps: OrderConfirmDeps, order: OrderRow, today: string): Promise<void> {
  const missing = await deps.missingMaterials(db, order.user_order_id);
  if (missing.length > 0) throw new AppError(ErrorCode.ORDER_MATERIALS_INCOMPLETE, missingMaterialsMessage(missing));
  if (order.need_interview) {
    const problem = await interviewProblem(db, order.user_order_id, today, order.departure_date);
    if (problem) throw new AppError(ErrorCode.ORDER_INTERVIEW_NOT_CHOSEN, problem);
  }
}

export function createOrderConfirm(db: Kysely<Database>, deps: OrderConfirmDeps) {
  const orders = createOrderRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const addresses = createAddressService(db, deps);
  const { plans } = deps;

  async function returnAddress(customer: Customer, addressId: number): Promise<ReturnAddressSnapshot> {
    const row = await addresses.find(customer, addressId);
    if (!row) throw new AppError(ErrorCode.ADDRESS_NOT_FOUND, '回寄地址不存在，请重新选择');
    return {
      address_id: row.address_id,
      kind: row.kind,
      company_name: row.company_name,
      name: row.name,
      mobile_phone: row.mobile_phone,
      province_code: row.province_code,
      city_code: row.city_code,
      county_code: row.county_code,
      ...regionNames(row.province_code, row.city_code, row.county_code),
      detail: row.detail,
    };
  }

  /** The plan as the order keeps it, and who it covers; null without a plan. */
  async function insurance(
    input: OrderConfirmInput,
    order: OrderRow,
    applicantIds: number[],
  ): Promise<{ snapshot: InsuranceSnapshot; insured: number[] } | null> {
    if (input.insurance_plan_id === null) return null;
    const plan = await plans.planOnSale(input.insurance_plan_id);
    if (!plan) throw new AppError(ErrorCode.INSURANCE_PLAN_NOT_FOUND);
    const days = input.insurance_days;
    if (days === null || days === undefined || !Number.isInteger(days) || days < plan.min_days || days > plan.max_days) {
      throw new AppError(ErrorCode.INSURANCE_DAYS_INVALID, `保险天数须在 ${plan.min_days}–${plan.max_days} 天之间`);
    }
    const insured = [...new Set(input.insured_applicant_ids ?? [])];
    if (insured.length === 0) throw new AppError(ErrorCode.INSURANCE_INSURED_INVALID);
    if (insured.some((id) => !applicantIds.includes(id))) throw new AppError(ErrorCode.INSURANCE_INSURED_INVALID, '被保险人须为本订单的申请人');
    if (input.protocol_agreed !== true) throw new AppError(ErrorCode.INSURANCE_PROTOCOL_NOT_AGREED);
    const startDate = order.departure_date;
    return {
      insured,
      snapshot: {
        insurance_plan_id: plan.insurance_plan_id,
        name: plan.name,
        company: plan.company,
        items: plan.items,
        price_per_day: plan.price_per_day,
        days,
        start_date: startDate,
        end_date: insuranceEndDate(startDate, days),
        insured_count: insured.length,
        amount: insuranceAmount(plan.price_per_day, days, insured.length),
      },
    };
  }

  return {
    async confirm(customer: Customer, input: OrderConfirmInput): Promise<OrderConfirmResult> {
      let result: OrderConfirmResult | null = null;
      await lifecycle.change(customer, input.user_order_id, async (order, at) => {
        const today = chinaDate(at);
        if (isCancelled(order)) throw new AppError(ErrorCode.ORDER_ALREADY_CANCELLED);
        if (awaitsPayment(order)) throw new AppError(ErrorCode.ORDER_ALREADY_CONFIRMED);
        if (!isDraft(order)) throw new AppError(ErrorCode.ORDER_ALREADY_CONFIRMED, isRefunded(order) ? '订单已退款' : '订单已支付，无需再次确认');
        if (order.departure_date < today) throw new AppError(ErrorCode.ORDER_CONFIRM_DEPARTURE_PAST);
        await checkComplete(db, deps, order, today);

        const address = await returnAddress(customer, input.address_id);
        const applicantIds = (await orders.applicants([order.user_order_id])).map((row) => row.applicant_id);
        const chosen = await insurance(input, order, applicantIds);

        const insuranceTotal = chosen?.snapshot.amount ?? 0;
        const totalAmount = order.product_amount + insuranceTotal - order.discount_amount;
        const insured = new Set(chosen?.insured ?? []);
        result = {
          user_order_id: order.user_order_id,
          status: 'pending_payment',
          product_amount: order.product_amount,
          insurance_amount: insuranceTotal,
          discount_amount: order.discount_amount,
          total_amount: totalAmount,
          expires_at: order.expires_at,
        };
        return {
          event: 'confirm',
          set: {
            insurance_plan_id: chosen?.snapshot.insurance_plan_id ?? null,
            insurance_snapshot: chosen ? toJson(chosen.snapshot) : null,
            insurance_amount: insuranceTotal,
            return_address: toJson(address),
            total_amount: totalAmount,
            confirmed_at: at,
          },
          applicants: applicantIds.map((id) => ({ applicant_id: id, set: { insured: insured.has(id) ? 1 : 0 } })),
          // An upload deleted or an interview released since the checks above undoes the confirm.
          within: (trx) => checkComplete(trx, deps, order, today),
          detail: {
            address_id: address.address_id,
            address_kind: address.kind,
            insurance_plan_id: chosen?.snapshot.insurance_plan_id ?? null,
            insurance_days: chosen?.snapshot.days ?? null,
            insured_count: insured.size,
            product_amount: order.product_amount,
            insurance_amount: insuranceTotal,
            discount_amount: order.discount_amount,
            total_amount: totalAmount,
          },
        };
      });
      // Lost races were decided again on the order as it is now; the last decision is the one applied.
      return result!;
    },
  };
}

export type OrderConfirm = ReturnType<typeof createOrderConfirm>;
