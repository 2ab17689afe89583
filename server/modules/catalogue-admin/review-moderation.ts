// 产品管理's reviews (issue 26): a supervisor hides a review from the guest
// page, or shows it again, always with a reason; the review's text is never
// edited. A hidden review leaves the product's score and count (the guest
// page's numbers come from the visible reviews only). Each hide and show is a
// row of review_moderation (who, when, why), written in the same transaction
// as the flag; its id is part of the guest page cache's version (decision
// 0004), so every instance renders the product page afresh on its next request.
import type { Kysely } from 'kysely';
import type { AdminReviewList } from '../../../common/contracts/catalogue-places.ts';
import { REVIEW_ADMIN_PAGE_SIZE } from '../../../common/contracts/catalogue-places.ts';
import { productTitle } from '../../../common/catalogue.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { maskMobilePhone } from '../../../common/text.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';

export function createReviewModeration(db: Kysely<Database>, options: { now: () => number }) {
  /** What the guest page shows: the visible reviews' score sum and count. */
  async function visibleStats(visaProductId: number): Promise<{ sum_score: number; reviews: number }> {
    const row = await db
      .selectFrom('visa_product_review')
      .select([(eb) => eb.fn.sum<number>('score').as('sum_score'), (eb) => eb.fn.countAll<number>().as('reviews')])
      .where('visa_product_id', '=', visaProductId)
      .where('hidden', '=', 0)
      .executeTakeFirst();
    return { sum_score: Number(row?.sum_score ?? 0), reviews: Number(row?.reviews ?? 0) };
  }

  return {
    async list(query: { visa_product_id: number; page: number }): Promise<AdminReviewList> {
      const product = await db
        .selectFrom('visa_product')
        .innerJoin('visa_country', 'visa_country.visa_country_id', 'visa_product.visa_country_id')
        .innerJoin('visa_type', 'visa_type.visa_type_id', 'visa_product.visa_type_id')
        .select([
          'visa_product.visa_product_id',
          'visa_product.entry_times',
          'visa_product.product_special_desc',
          'visa_country.name as country',
          'visa_type.name as visa_type',
        ])
        .where('visa_product.visa_product_id', '=', query.visa_product_id)
        .executeTakeFirst();
      if (!product) throw new AppError(ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND);
      const [rows, total, stats] = await Promise.all([
        db
          .selectFrom('visa_product_review')
          .select(['review_id', 'nickname', 'mobile_phone', 'score', 'content', 'platform', 'create_time', 'hidden'])
          .where('visa_product_id', '=', query.visa_product_id)
          .orderBy('create_time', 'desc')
          .orderBy('review_id', 'desc')
          .offset((query.page - 1) * REVIEW_ADMIN_PAGE_SIZE)
          .limit(REVIEW_ADMIN_PAGE_SIZE)
          .execute(),
        db
          .selectFrom('visa_product_review')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('visa_product_id', '=', query.visa_product_id)
          .executeTakeFirstOrThrow(),
        visibleStats(query.visa_product_id),
      ]);
      const ids = rows.map((row) => row.review_id);
      const moderations =
        ids.length === 0
          ? []
          : await db
              .selectFrom('review_moderation')
              .leftJoin('operator', 'operator.id', 'review_moderation.operator_id')
              .select(['review_moderation.review_id', 'review_moderation.action', 'review_moderation.reason', 'review_moderation.created_at', 'operator.name'])
              .where('review_moderation.review_id', 'in', ids)
              .orderBy('review_moderation.moderation_id', 'desc')
              .execute();
      return {
        product: { visa_product_id: product.visa_product_id, title: productTitle(product) },
        ...stats,
        total_count: Number(total.n),
        list: rows.map((row) => {
          const last = moderations.find((m) => m.review_id === row.review_id);
          return {
            review_id: row.review_id,
            nickname: row.nickname,
            mobile_phone: row.mobile_phone ? maskMobilePhone(row.mobile_phone) : null,
            score: row.score,
            content: row.content,
            platform: row.platform,
            create_time: row.create_time,
            hidden: row.hidden === 1,
            last_moderation: last ? { action: last.action, reason: last.reason, operator_name: last.name ?? '', created_at: last.created_at } : null,
          };
        }),
      };
    },

    /** Hides or shows one review; of two supervisors doing the same at once, the second is told it is already so (2343). */
    async moderate(caller: Operator, payload: { review_id: number; hidden: boolean; reason: string }) {
      const reason = payload.reason.trim();
      if (reason.length === 0 || reason.length > 200) throw new AppError(ErrorCode.CATALOGUE_REVIEW_REASON_REQUIRED);
      const review = await db
        .selectFrom('visa_product_review')
        .select(['review_id', 'visa_product_id'])
        .where('review_id', '=', payload.review_id)
        .executeTakeFirst();
      if (!review) throw new AppError(ErrorCode.CATALOGUE_REVIEW_NOT_FOUND);
      const target = payload.hidden ? 1 : 0;
      await db.transaction().execute(async (trx) => {
        // Only a change from the other state counts: the flag and its record go together or not at all.
        const changed = await trx
          .updateTable('visa_product_review')
          .set({ hidden: target })
          .where('review_id', '=', review.review_id)
          .where('hidden', '=', 1 - target)
          .executeTakeFirst();
        if (Number(changed.numUpdatedRows) !== 1) throw new AppError(ErrorCode.CATALOGUE_REVIEW_ALREADY);
        await trx
          .insertInto('review_moderation')
          .values({
            review_id: review.review_id,
            visa_product_id: review.visa_product_id,
            action: payload.hidden ? 'hide' : 'show',
            reason,
            operator_id: caller.operatorId,
            created_at: options.now(),
          })
          .execute();
      });
      return { review_id: review.review_id, hidden: payload.hidden, ...(await visibleStats(review.visa_product_id)) };
    },
  };
}

export type ReviewModeration = ReturnType<typeof createReviewModeration>;
