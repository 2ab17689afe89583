// Queries of the review module: the work queue (processing orders by step and
// due time), the order's applicants and files a review reads, and the one write it owns — a file's
// review columns, inside the lifecycle's transaction after it won the order
// row. Order rows themselves are written by the lifecycle only.
import type { Kysely, Transaction } from 'kysely';
import type { MaterialReviewStatus } from '../../../common/material.ts';
import type { OrderStep } from '../../../common/order.ts';
import type { ReviewReason } from '../../../common/review.ts';
import type { QueueRefundFilter, QueueSort, QueueView } from '../../../common/review.ts';
import { type Json, toJson } from '../../db/json.ts';
import { ordersWithRefundToRedo } from '../refund/failed-refunds.ts';
import { ordersNeedingCourierAttention } from '../courier/attention.ts';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface QueueFilter {
  step?: OrderStep;
  visaCountryId?: number;
  consularDistrictId?: number;
  /** null: nobody's; a number: that operator's; undefined: everyone's. */
  assignee?: number | null;
  /** The orders a search found (searchIds), when searching. */
  orderIds?: number[];
  /** 'failed': only orders with a failed refund still to redo — processing or completed (refund/failed-refunds.ts). */
  refund?: QueueRefundFilter;
  /** Only orders with a parcel needing attention (物流异常) at `at`. */
  courierAttention?: { at: number; afterMs: number };
  /** 即将超时: only orders whose step is due by this time (overdue ones included). */
  dueBy?: number;
}

/** A search finds at most this many orders (a name shared by many applicants). */
const SEARCH_LIMIT = 500;

const MAX_ORDER_ID = 2_147_483_647;

export function createReviewRepository(db: Kysely<Database>) {
  function filtered(filter: QueueFilter) {
    // The work queue is processing orders; a failed refund still to redo may also be on a completed order.
    let query =
      filter.refund === 'failed'
        ? db.selectFrom('user_order').where('user_order.user_order_id', 'in', ordersWithRefundToRedo(db))
        : db.selectFrom('user_order').where('user_order.status', '=', 'processing');
    if (filter.step) query = query.where('user_order.step', '=', filter.step);
    if (filter.consularDistrictId !== undefined) query = query.where('user_order.consular_district_id', '=', filter.consularDistrictId);
    if (filter.visaCountryId !== undefined) {
      const countryId = filter.visaCountryId;
      query = query.where('user_order.visa_product_id', 'in', (eb) =>
        eb.selectFrom('visa_product').select('visa_product.visa_product_id').where('visa_product.visa_country_id', '=', countryId),
      );
    }
    if (filter.assignee === null) query = query.where('user_order.assignee_operator_id', 'is', null);
    else if (filter.assignee !== undefined) query = query.where('user_order.assignee_operator_id', '=', filter.assignee);
    if (filter.courierAttention) {
      const { at, afterMs } = filter.courierAttention;
      query = query.where('user_order.user_order_id', 'in', ordersNeedingCourierAttention(db, at, afterMs));
    }
    if (filter.dueBy !== undefined) query = query.where('user_order.step_due_at', '<=', filter.dueBy);
    if (filter.orderIds) query = query.where('user_order.user_order_id', 'in', filter.orderIds.length > 0 ? filter.orderIds : [0]);
    return query;
  }

  return {
    /** One page of the queue: earliest due first (so overdue first; latest first for 'due_desc'), orders without a due time last, then by id. */
    queuePage(filter: QueueFilter, limit: number, offset: number, sort: QueueSort = 'due_asc') {
      return filtered(filter)
        .select([
          'user_order.user_order_id',
          'user_order.order_no',
          'user_order.created_at',
          'user_order.step',
          'user_order.product_title',
          'user_order.country',
          'user_order.visa_product_id',
          'user_order.consular_district_id',
          'user_order.applicant_count',
          'user_order.departure_date',
          'user_order.paid_at',
          'user_order.step_entered_at',
          'user_order.step_due_at',
          'user_order.assignee_operator_id',
          'user_order.version',
          'user_order.status',
        ])
        .orderBy('user_order.step_due_at', (ob) => (sort === 'due_desc' ? ob.desc() : ob.asc()).nullsLast())
        .orderBy('user_order.user_order_id')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    /**
     * How many orders match, counted up to `cap` + 1 (an index range that stops
     * there): beyond the cap the page says "cap+" instead of walking every row.
     */
    async queueCount(filter: QueueFilter, cap: number): Promise<number> {
      const row = await db
        .selectFrom(
          filtered(filter)
            .select('user_order.user_order_id')
            .limit(cap + 1)
            .as('matched'),
        )
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The orders a search names: an order id, or an applicant's phone (digits); else an applicant's name. */
    async searchIds(search: string): Promise<number[]> {
      // An order number (YD…) names one order.
      if (/^YD\d{14,}$/i.test(search)) {
        const found = await db.selectFrom('user_order').select('user_order_id').where('order_no', '=', search.toUpperCase()).executeTakeFirst();
        return found ? [found.user_order_id] : [];
      }
      let query = db.selectFrom('order_applicant').select('user_order_id').distinct();
      query = /^\d+$/.test(search) ? query.where('mobile_phone', '=', search) : query.where('name', '=', search);
      const ids = (await query.limit(SEARCH_LIMIT).execute()).map((row) => row.user_order_id);
      if (/^\d{1,10}$/.test(search) && Number(search) <= MAX_ORDER_ID) ids.push(Number(search));
      return [...new Set(ids)];
    },

    /** The queue view an operator chose last; undefined if never. */
    async queueView(operatorId: number): Promise<string | undefined> {
      const row = await db.selectFrom('operator_queue_view').select('view').where('operator_id', '=', operatorId).executeTakeFirst();
      return row?.view;
    },

    async saveQueueView(operatorId: number, view: QueueView, at: number): Promise<void> {
      await db
        .insertInto('operator_queue_view')
        .values({ operator_id: operatorId, view, updated_at: at })
        .onConflict((oc) => oc.column('operator_id').doUpdateSet({ view, updated_at: at }))
        .execute();
    },

    applicantNames(userOrderIds: number[]) {
      if (userOrderIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('order_applicant')
        .select(['user_order_id', 'name'])
        .where('user_order_id', 'in', userOrderIds)
        .orderBy('user_order_id')
        .orderBy('sort')
        .orderBy('applicant_id')
        .execute();
    },

    products(visaProductIds: number[]) {
      if (visaProductIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('visa_product')
        .select(['visa_product_id', 'need_days', 'visa_country_id'])
        .where('visa_product_id', 'in', [...new Set(visaProductIds)])
        .execute();
    },

    districts(ids?: number[]) {
      let query = db.selectFrom('consular_district').select(['consular_district_id', 'visa_country_id', 'name']);
      if (ids) {
        if (ids.length === 0) return Promise.resolve([]);
        query = query.where('consular_district_id', 'in', [...new Set(ids)]);
      }
      return query.orderBy('consular_district_id').execute();
    },

    countries() {
      return db
        .selectFrom('visa_country')
        .select(['visa_country_id', 'name'])
        .where('status', '=', 0)
        .orderBy('hot', 'desc')
        .orderBy('visa_country_id')
        .execute();
    },

    applicants(userOrderId: number) {
      return db
        .selectFrom('order_applicant')
        .select(['applicant_id', 'name', 'identity_id', 'mobile_phone', 'email', 'passport_no'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('sort')
        .orderBy('applicant_id')
        .execute();
    },

    /** Does the checklist of these identities hold paper materials to mail (attr 1)? */
    async hasMailedMaterials(userOrderId: number, identityIds: number[]): Promise<boolean> {
      if (identityIds.length === 0) return false;
      const row = await db
        .selectFrom('order_checklist_item')
        .select('material_id')
        .where('user_order_id', '=', userOrderId)
        .where('attr', '=', 1)
        .where('identity_id', 'in', [...new Set(identityIds)])
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The order's files as a review decides on them (the workbench reads the whole rows in order-view). */
    files(userOrderId: number) {
      return db
        .selectFrom('order_material_file')
        .select(['file_id', 'applicant_id', 'material_id', 'file_name', 'review_status'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('file_id')
        .execute();
    },

    /** A pending file's review; false when it is no longer pending (someone else reviewed it). */
    async reviewFile(
      trx: Db,
      fileId: number,
      review: { status: Exclude<MaterialReviewStatus, 'pending'>; reasons: ReviewReason[]; memo: string | null; by: number; at: number; round: number },
    ): Promise<boolean> {
      const result = await trx
        .updateTable('order_material_file')
        .set({
          review_status: review.status,
          review_reasons: review.reasons.length > 0 ? (toJson(review.reasons) as Json<string[]>) : null,
          no_pass_memo: review.memo,
          reviewed_by: review.by,
          reviewed_at: review.at,
          review_round: review.round,
        })
        .where('file_id', '=', fileId)
        .where('review_status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type ReviewRepository = ReturnType<typeof createReviewRepository>;
export type ReviewFileRow = Awaited<ReturnType<ReviewRepository['files']>>[number];
