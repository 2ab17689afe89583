// 产品管理 (issue 26): products edited as drafts and published by a
// supervisor. One draft per product, versioned: a save or a publish carries
// the version it read, and a second editor's stale one is refused (2324) —
// their form stays in their browser, nothing stored is overwritten. A
// publication is audited (who, when, each changed field before and after).
import type { Kysely } from 'kysely';
import type { CatalogueProductList, CatalogueReference, ProductContent, ProductEditor, Publication } from '../../../common/contracts/catalogue-admin.ts';
import { PRODUCT_FIELD_LABELS } from '../../../common/contracts/catalogue-admin.ts';
import { DELISTED_STATUS, productTitle } from '../../../common/catalogue.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import { createPlaces } from './places.ts';
import { readProductContent, writeProductContent } from './product-content.ts';
import { checkProductContent, normalizeContent } from './product-rules.ts';
import { createReviewModeration } from './review-moderation.ts';
import { productContent } from '../../../common/contracts/catalogue-admin.ts';

const PAGE_SIZE = 20;

function conflict(): AppError {
  return new AppError(ErrorCode.CATALOGUE_DRAFT_CONFLICT);
}

function parseContent(text: string): ProductContent {
  return productContent.parse(JSON.parse(text));
}

/** A unique index refused the row (SQLite or PostgreSQL). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

/** The fields whose value changed, before and after (before null for a new product). */
export function diffContent(before: ProductContent | null, after: ProductContent): Publication['changes'] {
  return (Object.keys(after) as (keyof ProductContent)[])
    .filter((field) => !before || JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, label: PRODUCT_FIELD_LABELS[field], before: before ? before[field] : null, after: after[field] }));
}

export function createCatalogueAdminService(db: Kysely<Database>, options: { now: () => number }) {
  async function reference(): Promise<CatalogueReference> {
    const [countries, visaTypes, districts] = await Promise.all([
      db.selectFrom('visa_country').select(['visa_country_id', 'name', 'iso_code', 'continent_id']).orderBy('continent_id').orderBy('name').execute(),
      db.selectFrom('visa_type').select(['visa_type_id', 'name']).orderBy('sort').execute(),
      db.selectFrom('consular_district').select(['consular_district_id', 'visa_country_id', 'name']).orderBy('consular_district_id').execute(),
    ]);
    return { countries, visa_types: visaTypes, districts };
  }

  /** The country, visa type and district exist and belong together (2327). */
  async function checkReferences(content: ProductContent): Promise<void> {
    const [country, visaType, district] = await Promise.all([
      db.selectFrom('visa_country').select('visa_country_id').where('visa_country_id', '=', content.visa_country_id).executeTakeFirst(),
      db.selectFrom('visa_type').select('visa_type_id').where('visa_type_id', '=', content.visa_type_id).executeTakeFirst(),
      content.consular_district_id === null
        ? Promise.resolve({ visa_country_id: content.visa_country_id })
        : db.selectFrom('consular_district').select('visa_country_id').where('consular_district_id', '=', content.consular_district_id).executeTakeFirst(),
    ]);
    if (!country || !visaType || !district || district.visa_country_id !== content.visa_country_id) {
      throw new AppError(ErrorCode.CATALOGUE_REFERENCE_INVALID);
    }
  }

  async function operatorName(operatorId: number): Promise<string> {
    return (await db.selectFrom('operator').select('name').where('id', '=', operatorId).executeTakeFirst())?.name ?? '';
  }

  async function titleOf(content: ProductContent): Promise<string> {
    const [country, visaType] = await Promise.all([
      db.selectFrom('visa_country').select('name').where('visa_country_id', '=', content.visa_country_id).executeTakeFirst(),
      db.selectFrom('visa_type').select('name').where('visa_type_id', '=', content.visa_type_id).executeTakeFirst(),
    ]);
    return productTitle({
      country: country?.name ?? '',
      visa_type: visaType?.name ?? '',
      entry_times: content.entry_times,
      product_special_desc: content.product_special_desc,
    });
  }

  /** A new product's first content: an empty form the editor fills in. */
  function blankContent(ref: CatalogueReference): ProductContent {
    return {
      visa_country_id: ref.countries[0]?.visa_country_id ?? 1,
      visa_type_id: ref.visa_types[0]?.visa_type_id ?? 1,
      consular_district_id: null,
      product_special_desc: '',
      entry_times: 0,
      stay_days: 30,
      valid_days: 90,
      need_days: 5,
      need_days_detail: '',
      pass_rate: 9800,
      sell_price: 0,
      distributor_discount: null,
      basic_info: [],
      common_info: [],
      reject_refund: false,
      procedure: [],
      handle_process: [],
      reminder: '',
      photo: null,
      offline: true,
      listed: true,
      need_interview: false,
      checklists: [0, 1, 2, 3, 4].map((identity_id) => ({ identity_id, offered: identity_id === 0, materials: [] })),
    };
  }

  return {
    async list(query: { keyword?: string; page: number }): Promise<CatalogueProductList> {
      let base = db
        .selectFrom('visa_product')
        .innerJoin('visa_country', 'visa_country.visa_country_id', 'visa_product.visa_country_id')
        .innerJoin('visa_type', 'visa_type.visa_type_id', 'visa_product.visa_type_id');
      const keyword = query.keyword?.trim();
      if (keyword) {
        const like = `%${keyword.replace(/[%_\\]/g, '')}%`;
        const id = /^\d{1,9}$/.test(keyword) ? Number(keyword) : -1;
        base = base.where((eb) =>
          eb.or([eb('visa_country.name', 'like', like), eb('visa_product.product_special_desc', 'like', like), eb('visa_product.visa_product_id', '=', id)]),
        );
      }
      const [rows, total, drafts] = await Promise.all([
        base
          .leftJoin('product_draft', 'product_draft.visa_product_id', 'visa_product.visa_product_id')
          .leftJoin('operator', 'operator.id', 'product_draft.updated_by')
          .select([
            'visa_product.visa_product_id',
            'visa_product.entry_times',
            'visa_product.product_special_desc',
            'visa_product.sell_price',
            'visa_product.status',
            'visa_product.offline',
            'visa_product.updated_at',
            'visa_country.name as country',
            'visa_type.name as visa_type',
            'product_draft.draft_id',
            'product_draft.updated_at as draft_updated_at',
            'operator.name as draft_updated_by',
          ])
          .orderBy('visa_product.visa_product_id', 'desc')
          .offset((query.page - 1) * PAGE_SIZE)
          .limit(PAGE_SIZE)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        db
          .selectFrom('product_draft')
          .innerJoin('operator', 'operator.id', 'product_draft.updated_by')
          .select(['product_draft.draft_id', 'product_draft.content', 'product_draft.updated_at', 'operator.name'])
          .where('product_draft.visa_product_id', 'is', null)
          .orderBy('product_draft.draft_id', 'desc')
          .execute(),
      ]);
      return {
        total_count: Number(total.n),
        list: rows.map((row) => ({
          visa_product_id: row.visa_product_id,
          title: productTitle(row),
          country: row.country,
          visa_type: row.visa_type,
          sell_price: row.sell_price,
          listed: row.status !== DELISTED_STATUS,
          offline: row.offline === 1,
          updated_at: row.updated_at,
          draft: row.draft_id ? { draft_id: row.draft_id, updated_at: row.draft_updated_at ?? 0, updated_by: row.draft_updated_by ?? '' } : null,
        })),
        new_drafts: await Promise.all(
          drafts.map(async (draft) => ({
            draft_id: draft.draft_id,
            title: (await titleOf(parseContent(draft.content))) || '（未命名产品）',
            updated_at: draft.updated_at,
            updated_by: draft.name,
          })),
        ),
      };
    },

    /** What the editor opens: the draft if there is one, else the published content (or a blank new product). */
    async editor(query: { visa_product_id?: number; draft_id?: number }): Promise<ProductEditor> {
      const ref = await reference();
      let draft = query.draft_id
        ? await db.selectFrom('product_draft').selectAll().where('draft_id', '=', query.draft_id).executeTakeFirst()
        : query.visa_product_id
          ? await db.selectFrom('product_draft').selectAll().where('visa_product_id', '=', query.visa_product_id).executeTakeFirst()
          : undefined;
      if (query.draft_id && !draft) throw new AppError(ErrorCode.CATALOGUE_DRAFT_NOT_FOUND);
      if (draft && query.visa_product_id && draft.visa_product_id !== query.visa_product_id) draft = undefined;
      const productId = draft?.visa_product_id ?? query.visa_product_id ?? null;
      const published = productId === null ? null : await readProductContent(db, productId);
      if (productId !== null && !published) throw new AppError(ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND);
      const stats =
        productId === null
          ? undefined
          : await db
              .selectFrom('visa_product_review')
              .select([(eb) => eb.fn.sum<number>('score').as('sum_score'), (eb) => eb.fn.countAll<number>().as('reviews')])
              .where('visa_product_id', '=', productId)
              .where('hidden', '=', 0)
              .executeTakeFirst();
      return {
        visa_product_id: productId,
        draft_id: draft?.draft_id ?? null,
        version: draft?.version ?? 0,
        content: draft ? parseContent(draft.content) : (published?.content ?? blankContent(ref)),
        published: published?.content ?? null,
        reviews: { sum_score: Number(stats?.sum_score ?? 0), reviews: Number(stats?.reviews ?? 0) },
        reference: ref,
      };
    },

    /**
     * Stores the draft. version 0 starts one (refused when another editor's
     * draft of the product exists); otherwise it must be the draft's version.
     */
    async saveDraft(
      caller: Operator,
      payload: { visa_product_id?: number; draft_id?: number; version: number; content: ProductContent },
    ): Promise<{ draft_id: number; version: number }> {
      const content = normalizeContent(payload.content);
      checkProductContent(content);
      await checkReferences(content);
      const now = options.now();
      if (payload.draft_id) {
        const result = await db
          .updateTable('product_draft')
          .set({ content: JSON.stringify(content), version: payload.version + 1, updated_by: caller.operatorId, updated_at: now })
          .where('draft_id', '=', payload.draft_id)
          .where('version', '=', payload.version)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) return { draft_id: payload.draft_id, version: payload.version + 1 };
        const exists = await db.selectFrom('product_draft').select('draft_id').where('draft_id', '=', payload.draft_id).executeTakeFirst();
        throw exists ? conflict() : new AppError(ErrorCode.CATALOGUE_DRAFT_NOT_FOUND);
      }
      if (payload.version !== 0) throw conflict();
      let baseUpdatedAt = 0;
      if (payload.visa_product_id) {
        const product = await db.selectFrom('visa_product').select('updated_at').where('visa_product_id', '=', payload.visa_product_id).executeTakeFirst();
        if (!product) throw new AppError(ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND);
        baseUpdatedAt = product.updated_at;
      }
      try {
        const inserted = await db
          .insertInto('product_draft')
          .values({
            visa_product_id: payload.visa_product_id ?? null,
            content: JSON.stringify(content),
            version: 1,
            base_updated_at: baseUpdatedAt,
            created_by: caller.operatorId,
            updated_by: caller.operatorId,
            created_at: now,
            updated_at: now,
          })
          .returning('draft_id')
          .executeTakeFirstOrThrow();
        return { draft_id: inserted.draft_id, version: 1 };
      } catch (error) {
        // Another editor's draft of this product exists: theirs is kept, this one is refused.
        if (isUniqueViolation(error)) throw conflict();
        throw error;
      }
    },

    /** Publishes the draft: the product's rows, the audit and the draft's removal in one transaction. */
    async publish(caller: Operator, payload: { draft_id: number; version: number }): Promise<{ visa_product_id: number; publication_id: number }> {
      const draft = await db.selectFrom('product_draft').selectAll().where('draft_id', '=', payload.draft_id).executeTakeFirst();
      if (!draft) throw new AppError(ErrorCode.CATALOGUE_DRAFT_NOT_FOUND);
      if (draft.version !== payload.version) throw conflict();
      const content = parseContent(draft.content);
      checkProductContent(content);
      await checkReferences(content);
      const before = draft.visa_product_id === null ? null : await readProductContent(db, draft.visa_product_id);
      if (draft.visa_product_id !== null && !before) throw new AppError(ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND);
      // Published by someone else (or changed otherwise) since this draft started.
      if (before && before.updatedAt !== draft.base_updated_at) throw conflict();
      const now = options.now();
      // updated_at is the guest page cache's version: it must move even within one millisecond.
      const updatedAt = Math.max(now, (before?.updatedAt ?? 0) + 1);
      return db.transaction().execute(async (trx) => {
        // Only the holder of this version publishes it: a concurrent save or publish leaves 0 rows here.
        const claimed = await trx.deleteFrom('product_draft').where('draft_id', '=', draft.draft_id).where('version', '=', draft.version).executeTakeFirst();
        if (Number(claimed.numDeletedRows) !== 1) throw conflict();
        if (before) {
          const moved = await trx
            .updateTable('visa_product')
            .set({ updated_at: updatedAt })
            .where('visa_product_id', '=', draft.visa_product_id!)
            .where('updated_at', '=', draft.base_updated_at)
            .executeTakeFirst();
          if (Number(moved.numUpdatedRows) !== 1) throw conflict();
        }
        const visaProductId = await writeProductContent(trx, draft.visa_product_id, content, updatedAt);
        const publication = await trx
          .insertInto('product_publication')
          .values({
            visa_product_id: visaProductId,
            operator_id: caller.operatorId,
            published_at: now,
            diff: JSON.stringify(diffContent(before?.content ?? null, content)),
          })
          .returning('publication_id')
          .executeTakeFirstOrThrow();
        return { visa_product_id: visaProductId, publication_id: publication.publication_id };
      });
    },

    async discard(payload: { draft_id: number; version: number }): Promise<void> {
      const result = await db.deleteFrom('product_draft').where('draft_id', '=', payload.draft_id).where('version', '=', payload.version).executeTakeFirst();
      if (Number(result.numDeletedRows) === 1) return;
      const exists = await db.selectFrom('product_draft').select('draft_id').where('draft_id', '=', payload.draft_id).executeTakeFirst();
      throw exists ? conflict() : new AppError(ErrorCode.CATALOGUE_DRAFT_NOT_FOUND);
    },

    async publications(visaProductId: number): Promise<{ list: Publication[] }> {
      const rows = await db
        .selectFrom('product_publication')
        .leftJoin('operator', 'operator.id', 'product_publication.operator_id')
        .select(['product_publication.publication_id', 'product_publication.published_at', 'product_publication.diff', 'operator.name'])
        .where('product_publication.visa_product_id', '=', visaProductId)
        .orderBy('product_publication.publication_id', 'desc')
        .limit(50)
        .execute();
      return {
        list: rows.map((row) => ({
          publication_id: row.publication_id,
          operator_name: row.name ?? '',
          published_at: row.published_at,
          changes: JSON.parse(row.diff) as Publication['changes'],
        })),
      };
    },

    operatorName,
    /** A product's reviews: hide and show with a reason (review-moderation.ts). */
    reviews: createReviewModeration(db, options),
    /** Countries and their consular districts (places.ts). */
    places: createPlaces(db, options),
  };
}

export type CatalogueAdminService = ReturnType<typeof createCatalogueAdminService>;
