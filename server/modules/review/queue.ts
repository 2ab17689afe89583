// The work queue of paid orders (issue 9): filters, search, time in step, due
// time and departure risk — every figure computed here from the database's
// columns and the server's clock, never in the browser. Overdue first: the
// order is by due time, so every overdue order (due before now) comes before
// the others; steps without a due time come last.
import { orderNumber } from '../../../common/order-number.ts';
import type { Kysely } from 'kysely';
import type { AdminQueueFilters, AdminQueueResult } from '../../../common/contracts/admin-order.ts';
import { isProcessing, ORDER_STATUSES, ORDER_STEP_VALUES, ORDER_STEPS, type OrderStep } from '../../../common/order.ts';
import {
  type AssigneeFilter,
  QUEUE_DUE_SOON_MS,
  QUEUE_VIEW_VALUES,
  type QueueCourierFilter,
  type QueueRefundFilter,
  type QueueSort,
  type QueueView,
  REVIEW_LIMITS,
} from '../../../common/review.ts';
import { DEFAULT_ATTENTION_AFTER_MS } from '../courier/courier.service.ts';
import { ordersNeedingCourierAttention } from '../courier/attention.ts';
import type { Database } from '../../db/schema.ts';
import type { Operator } from '../../platform/principal.ts';
import { departureAtRisk } from '../order/sla.ts';
import { nameOf, type OperatorDirectory } from '../operator/directory.ts';
import { createReviewRepository, type QueueFilter } from './review.repository.ts';

export interface QueueInput {
  step?: OrderStep;
  visa_country_id?: number;
  consular_district_id?: number;
  assignee: AssigneeFilter;
  q?: string;
  refund?: QueueRefundFilter;
  courier?: QueueCourierFilter;
  due_soon?: boolean;
  sort?: QueueSort;
  page: number;
  page_size?: number;
}

const NAMES_SHOWN = 3;
/** The queue counts its matches up to here (50 pages of 20); beyond, "1000+". */
export const QUEUE_COUNT_CAP = 1000;

export function createReviewQueue(db: Kysely<Database>, deps: { now: () => number; operators: OperatorDirectory; courierAttentionAfterMs?: number }) {
  const repo = createReviewRepository(db);
  const attentionAfterMs = deps.courierAttentionAfterMs ?? DEFAULT_ATTENTION_AFTER_MS;

  /** Which of these orders have a parcel needing attention (the row's 物流异常 tag). */
  async function withAttention(ids: number[], at: number): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .selectFrom('user_order')
      .select('user_order_id')
      .where('user_order_id', 'in', ids)
      .where('user_order_id', 'in', ordersNeedingCourierAttention(db, at, attentionAfterMs))
      .execute();
    return new Set(rows.map((row) => row.user_order_id));
  }

  async function filterOf(operator: Operator, input: QueueInput): Promise<QueueFilter> {
    const search = input.q?.trim().replace(/\s+/g, '') || undefined;
    return {
      orderIds: search ? await repo.searchIds(search) : undefined,
      step: input.step,
      visaCountryId: input.visa_country_id,
      consularDistrictId: input.consular_district_id,
      assignee: input.assignee === 'all' ? undefined : input.assignee === 'none' ? null : input.assignee === 'me' ? operator.operatorId : input.assignee,
      refund: input.refund,
      courierAttention: input.courier === 'attention' ? { at: deps.now(), afterMs: attentionAfterMs } : undefined,
      dueBy: input.due_soon ? deps.now() + QUEUE_DUE_SOON_MS : undefined,
    };
  }

  return {
    async queue(operator: Operator, input: QueueInput): Promise<AdminQueueResult> {
      const now = deps.now();
      const pageSize = input.page_size ?? REVIEW_LIMITS.queuePageSize;
      const filter = await filterOf(operator, input);
      const [rows, counted] = await Promise.all([
        repo.queuePage(filter, pageSize, (input.page - 1) * pageSize, input.sort),
        repo.queueCount(filter, QUEUE_COUNT_CAP),
      ]);
      const ids = rows.map((row) => row.user_order_id);
      const [names, products, districts, operators, attention] = await Promise.all([
        repo.applicantNames(ids),
        repo.products(rows.map((row) => row.visa_product_id)),
        repo.districts(rows.flatMap((row) => (row.consular_district_id === null ? [] : [row.consular_district_id]))),
        deps.operators.names(rows.flatMap((row) => (row.assignee_operator_id === null ? [] : [row.assignee_operator_id]))),
        withAttention(ids, now),
      ]);
      const needDays = new Map(products.map((p) => [p.visa_product_id, p.need_days]));
      const districtName = new Map(districts.map((d) => [d.consular_district_id, d.name]));
      const namesOf = new Map<number, string[]>();
      for (const row of names) namesOf.set(row.user_order_id, [...(namesOf.get(row.user_order_id) ?? []), row.name]);
      return {
        list: rows.map((row) => {
          // A completed order (only under 退款失败) has no step: its status stands in, and nothing is due or at risk.
          const step = isProcessing(row) ? (row.step ?? 'material_review') : null;
          return {
            user_order_id: row.user_order_id,
            order_no: row.order_no ?? orderNumber(row.user_order_id, row.created_at),
            step,
            step_label: step ? ORDER_STEPS[step] : ORDER_STATUSES[row.status],
            product_title: row.product_title,
            country: row.country,
            consular_district: row.consular_district_id === null ? null : (districtName.get(row.consular_district_id) ?? null),
            applicant_count: row.applicant_count,
            applicant_names: (namesOf.get(row.user_order_id) ?? []).slice(0, NAMES_SHOWN),
            departure_date: row.departure_date,
            paid_at: row.paid_at,
            step_entered_at: row.step_entered_at,
            time_in_step_ms: row.step_entered_at === null ? 0 : Math.max(0, now - row.step_entered_at),
            step_due_at: row.step_due_at,
            overdue: step !== null && row.step_due_at !== null && row.step_due_at < now,
            departure_at_risk: step !== null && departureAtRisk({ ...row, step }, needDays.get(row.visa_product_id) ?? 0, now),
            assignee: nameOf(operators, row.assignee_operator_id),
            courier_attention: attention.has(row.user_order_id),
            version: row.version,
          };
        }),
        total: Math.min(counted, QUEUE_COUNT_CAP),
        total_exact: counted <= QUEUE_COUNT_CAP,
        page: input.page,
        page_size: pageSize,
        now,
      };
    },

    /** The view the operator chose last (全部 until they choose one). */
    async view(operator: Operator): Promise<{ view: QueueView }> {
      const saved = await repo.queueView(operator.operatorId);
      return { view: QUEUE_VIEW_VALUES.find((view) => view === saved) ?? 'all' };
    },

    async saveView(operator: Operator, view: QueueView): Promise<{ view: QueueView }> {
      await repo.saveQueueView(operator.operatorId, view, deps.now());
      return { view };
    },

    async filters(): Promise<AdminQueueFilters> {
      const [countries, districts, operators] = await Promise.all([repo.countries(), repo.districts(), deps.operators.list()]);
      return {
        steps: ORDER_STEP_VALUES.map((value) => ({ value, label: ORDER_STEPS[value] })),
        countries,
        districts,
        operators,
      };
    },
  };
}

export type ReviewQueue = ReturnType<typeof createReviewQueue>;
