// The page check's tables (migration 013): each applicant's check state, the
// stored pages and the customer's comments. Only this module writes them.
import type { Kysely, Transaction } from 'kysely';
import type { Database, PageCheckStatus } from '../../db/schema.ts';
import type { StoredUpload } from '../stored-file/stored-files.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A page's row: the stored upload's columns (stored-file module), whose it is and who uploaded it. */
export interface NewPage extends StoredUpload {
  user_order_id: number;
  applicant_id: number;
  operator_id: number;
  created_at: number;
}

export function createPageCheckRepository(db: Kysely<Database>) {
  return {
    /** Read-only, for the submit's guards: the order's unpaid price differences (table of modules/price-difference). */
    openPriceDifferences: async (userOrderId: number, trx: Db = db) =>
      (
        await trx
          .selectFrom('price_difference')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('user_order_id', '=', userOrderId)
          .where('status', '=', 'open')
          .executeTakeFirstOrThrow()
      ).n,

    /** Read-only, for the submit's guards: applicants with a published interview notice (table of modules/interview). */
    noticeApplicantIds: async (userOrderId: number, trx: Db = db) =>
      (await trx.selectFrom('interview_notice').select('applicant_id').where('user_order_id', '=', userOrderId).execute()).map((r) => r.applicant_id),

    applicants: (userOrderId: number) =>
      db
        .selectFrom('order_applicant')
        .select(['applicant_id', 'name'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('sort')
        .orderBy('applicant_id')
        .execute(),

    states: (userOrderId: number, trx: Db = db) =>
      trx
        .selectFrom('page_check_applicant')
        .select(['applicant_id', 'status', 'round', 'published_at', 'confirmed_at'])
        .where('user_order_id', '=', userOrderId)
        .execute(),

    pages: (userOrderId: number) =>
      db
        .selectFrom('page_check_page')
        .select(['page_id', 'applicant_id', 'storage_key', 'file_name', 'content_type', 'size_bytes', 'sha256', 'created_at'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('page_id')
        .execute(),

    comments: (userOrderId: number) =>
      db
        .selectFrom('page_check_comment')
        .select(['comment_id', 'applicant_id', 'page_id', 'page_label', 'page_no', 'round', 'comment', 'created_at'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('comment_id', 'desc')
        .execute(),

    /** A page's order, applicant and stored object (serving is the stored-file module's). */
    page: (pageId: number) =>
      db.selectFrom('page_check_page').select(['page_id', 'user_order_id', 'applicant_id', 'storage_key']).where('page_id', '=', pageId).executeTakeFirst(),

    async countPages(trx: Db, applicantId: number): Promise<number> {
      const row = await trx
        .selectFrom('page_check_page')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('applicant_id', '=', applicantId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async stateOf(trx: Db, applicantId: number): Promise<PageCheckStatus | null> {
      const row = await trx.selectFrom('page_check_applicant').select('status').where('applicant_id', '=', applicantId).executeTakeFirst();
      return row?.status ?? null;
    },

    async insertPage(trx: Transaction<Database>, page: NewPage): Promise<number> {
      const { page_id } = await trx.insertInto('page_check_page').values(page).returning('page_id').executeTakeFirstOrThrow();
      // The applicant's check starts as a draft with its first page.
      const existing = await trx.selectFrom('page_check_applicant').select('status').where('applicant_id', '=', page.applicant_id).executeTakeFirst();
      if (!existing) {
        await trx
          .insertInto('page_check_applicant')
          .values({ applicant_id: page.applicant_id, user_order_id: page.user_order_id, status: 'draft', round: 0, updated_at: page.created_at })
          .execute();
      }
      return page_id;
    },

    async deletePage(trx: Transaction<Database>, pageId: number): Promise<boolean> {
      const result = await trx.deleteFrom('page_check_page').where('page_id', '=', pageId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** Moves an applicant's check from one of `from` to `to`; false when it was not in one of them. */
    async setStatus(
      trx: Transaction<Database>,
      applicantId: number,
      from: PageCheckStatus[],
      to: PageCheckStatus,
      at: number,
      extra: { published?: true; confirmed?: true } = {},
    ): Promise<boolean> {
      const result = await trx
        .updateTable('page_check_applicant')
        .set((eb) => ({
          status: to,
          updated_at: at,
          ...(extra.published ? { round: eb('round', '+', 1), published_at: at, confirmed_at: null } : {}),
          ...(extra.confirmed ? { confirmed_at: at } : {}),
        }))
        .where('applicant_id', '=', applicantId)
        .where('status', 'in', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    insertComments: (
      trx: Transaction<Database>,
      rows: Array<{
        user_order_id: number;
        applicant_id: number;
        page_id: number;
        page_label: string;
        page_no: number | null;
        round: number;
        comment: string;
        account_id: number;
        created_at: number;
      }>,
    ) => trx.insertInto('page_check_comment').values(rows).execute(),
  };
}

export type PageCheckRepository = ReturnType<typeof createPageCheckRepository>;
