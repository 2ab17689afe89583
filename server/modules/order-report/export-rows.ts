// The order export's rows (issue 29, decision 0045): the enterprise's orders
// chosen by a selection, a 出行团组 or a date range, read from the database in
// pages of orders (keyset on user_order_id) so the memory an export needs does
// not grow with its size. One row per applicant; the order's amounts are on
// its first applicant's row only (a column's sum is then the orders' sum), and
// they are the order detail's own numbers: 实付 = paid_total (paid payments),
// 已退款 = the refunds that arrived, 退款中 = those on their way, 待支付 = the
// order's total while it awaits payment plus an open price difference.
import type { Kysely } from 'kysely';
import { ErrorCode } from '../../../common/error-codes.ts';
import { formatDateTime } from '../../../common/format.ts';
import { APPLICANT_STATUSES, awaitsPayment, isCalendarDate, daysBetween, statusLabel, stepLabel } from '../../../common/order.ts';
import { orderNumber } from '../../../common/order-number.ts';
import { ORDER_EXPORT_MAX_DAYS, ORDER_SELECTION_MAX } from '../../../common/report.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Customer } from '../../platform/principal.ts';
import { applicantInterviews } from '../interview/order-interview.ts';
import { orderMoney } from '../refund/refund-records.ts';

export type ExportCriteria = { kind: 'ids'; ids: number[] } | { kind: 'group'; group: string } | { kind: 'range'; from: string; to: string };

/** One applicant's row: text cells as shown, amounts in cents (null: not on this row). */
export interface ExportRow {
  order_no: string;
  group_name: string;
  product_title: string;
  country: string;
  visa_type: string;
  created_at: string;
  status: string;
  step: string;
  applicant: string;
  applicant_status: string;
  interview: string;
  visa_no: string;
  valid_from: string;
  valid_to: string;
  entries: string;
  stay_days: number | null;
  total: number | null;
  paid: number | null;
  refunded: number | null;
  refunding: number | null;
  outstanding: number | null;
}

const CHINA_OFFSET_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;

/** The start of a China calendar date, epoch ms. */
function chinaDayStart(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) - CHINA_OFFSET_MS;
}

/** The download's query → criteria, or the refusal (an empty selection, a bad range). */
export function criteriaOf(query: { ids?: string; group?: string; from?: string; to?: string }): ExportCriteria {
  const ids = (query.ids ?? '').trim();
  if (ids !== '') {
    const parts = ids.split(',').map((part) => part.trim());
    if (parts.length > ORDER_SELECTION_MAX) throw new AppError(ErrorCode.ORDER_GROUP_TOO_MANY);
    if (!parts.every((part) => /^[1-9]\d{0,9}$/.test(part) && Number(part) <= 2_147_483_647))
      throw new AppError(ErrorCode.INVALID_PARAMS, 'ids 须为逗号分隔的订单编号');
    return { kind: 'ids', ids: [...new Set(parts.map(Number))] };
  }
  const group = (query.group ?? '').trim();
  if (group !== '') return { kind: 'group', group };
  const from = (query.from ?? '').trim();
  const to = (query.to ?? '').trim();
  if (from === '' && to === '') throw new AppError(ErrorCode.EXPORT_SELECTION_EMPTY);
  if (!isCalendarDate(from) || !isCalendarDate(to) || from > to || daysBetween(from, to) > ORDER_EXPORT_MAX_DAYS) {
    throw new AppError(ErrorCode.EXPORT_RANGE_INVALID);
  }
  return { kind: 'range', from, to };
}

const PAGE_ORDERS = 250;

export function createExportRows(db: Kysely<Database>) {
  function ordersQuery(customer: Customer, criteria: ExportCriteria) {
    let query = db.selectFrom('user_order').where('enterprise_id', '=', customer.enterpriseId);
    if (criteria.kind === 'ids') query = query.where('user_order_id', 'in', criteria.ids);
    else if (criteria.kind === 'group') query = query.where('group_name', '=', criteria.group);
    else query = query.where('created_at', '>=', chinaDayStart(criteria.from)).where('created_at', '<', chinaDayStart(criteria.to) + DAY_MS);
    return query;
  }

  /**
   * Checks the criteria before a byte is written: a selection naming an order that is not the
   * enterprise's is refused like a missing order (1801); a group or range without orders is 2533.
   */
  async function check(customer: Customer, criteria: ExportCriteria): Promise<void> {
    const found = await ordersQuery(customer, criteria)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const count = Number(found.count);
    if (criteria.kind === 'ids' && count !== criteria.ids.length) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
    if (count === 0) throw new AppError(ErrorCode.EXPORT_NOTHING);
  }

  /** The rows, page by page of orders (each page's rows in one array). */
  async function* pages(customer: Customer, criteria: ExportCriteria): AsyncGenerator<ExportRow[]> {
    let after = 0;
    for (;;) {
      const orders = await ordersQuery(customer, criteria)
        .select([
          'user_order_id',
          'order_no',
          'group_name',
          'product_title',
          'country',
          'visa_type',
          'created_at',
          'status',
          'step',
          'total_amount',
          'price_difference_due',
        ])
        .where('user_order_id', '>', after)
        .orderBy('user_order_id')
        .limit(PAGE_ORDERS)
        .execute();
      if (orders.length === 0) return;
      after = orders[orders.length - 1]!.user_order_id;
      const ids = orders.map((order) => order.user_order_id);
      const [applicants, interviews, results, money] = await Promise.all([
        db
          .selectFrom('order_applicant')
          .select(['applicant_id', 'user_order_id', 'name', 'status'])
          .where('user_order_id', 'in', ids)
          .orderBy('user_order_id')
          .orderBy('sort')
          .orderBy('applicant_id')
          .execute(),
        applicantInterviews(db, ids),
        db
          .selectFrom('visa_result')
          .select(['applicant_id', 'result', 'visa_no', 'valid_from', 'valid_to', 'entries', 'stay_days'])
          .where('user_order_id', 'in', ids)
          .execute(),
        orderMoney(db, ids),
      ]);
      const resultOf = new Map(results.map((row) => [row.applicant_id, row]));
      const applicantsOf = new Map<number, typeof applicants>();
      for (const applicant of applicants) {
        const list = applicantsOf.get(applicant.user_order_id) ?? [];
        list.push(applicant);
        applicantsOf.set(applicant.user_order_id, list);
      }
      const rows: ExportRow[] = [];
      for (const order of orders) {
        const list = applicantsOf.get(order.user_order_id) ?? [];
        list.forEach((applicant, index) => {
          const result = resultOf.get(applicant.applicant_id);
          const interview = interviews.get(applicant.applicant_id);
          const first = index === 0;
          rows.push({
            order_no: order.order_no ?? orderNumber(order.user_order_id, order.created_at),
            group_name: order.group_name ?? '',
            product_title: order.product_title,
            country: order.country,
            visa_type: order.visa_type,
            created_at: formatDateTime(order.created_at),
            status: statusLabel(order.status),
            step: stepLabel(order.step) ?? '',
            applicant: applicant.name,
            applicant_status: APPLICANT_STATUSES[applicant.status] ?? '',
            interview: interview ? `${interview.slot_date} ${interview.start_time}-${interview.end_time}` : '',
            visa_no: result?.visa_no ?? '',
            valid_from: result?.valid_from ?? '',
            valid_to: result?.valid_to ?? '',
            entries: result?.entries ?? '',
            stay_days: result?.stay_days ?? null,
            total: first ? order.total_amount : null,
            paid: first ? money.get(order.user_order_id)!.paid : null,
            refunded: first ? money.get(order.user_order_id)!.refunded : null,
            refunding: first ? money.get(order.user_order_id)!.refunding : null,
            outstanding: first ? (awaitsPayment(order) ? order.total_amount : 0) + order.price_difference_due : null,
          });
        });
      }
      yield rows;
      if (orders.length < PAGE_ORDERS) return;
    }
  }

  return { check, pages };
}

export type ExportRows = ReturnType<typeof createExportRows>;
