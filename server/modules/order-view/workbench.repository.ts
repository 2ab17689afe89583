// The operator's workbench reads (issue 24: moved here from the review
// module): who ordered, the product's service data, the applicants, the
// checklist and every file with its review of one order (its payments and
// event log are the order module's reads, order/order-reads.ts). Each is one
// query on the order's own rows (no query per applicant or per file), so a
// 20-applicant order reads as fast as a small one.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function createWorkbenchRepository(db: Kysely<Database>) {
  return {
    owner(enterpriseId: number, accountId: number) {
      return db
        .selectFrom('enterprise')
        .innerJoin('account', 'account.enterprise_id', 'enterprise.id')
        .select(['enterprise.name as enterprise_name', 'account.name as account_name'])
        .where('enterprise.id', '=', enterpriseId)
        .where('account.id', '=', accountId)
        .executeTakeFirst();
    },

    product(visaProductId: number) {
      return db
        .selectFrom('visa_product')
        .select(['visa_product_id', 'need_days', 'need_interview', 'visa_photo_id'])
        .where('visa_product_id', '=', visaProductId)
        .executeTakeFirstOrThrow();
    },

    applicants(userOrderId: number) {
      return db
        .selectFrom('order_applicant')
        .select(['applicant_id', 'name', 'identity_id', 'mobile_phone', 'email', 'passport_no', 'passport_expiry'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('sort')
        .orderBy('applicant_id')
        .execute();
    },

    /** The order's own checklist (as placed, issue 26). */
    checklist(userOrderId: number) {
      return db
        .selectFrom('order_checklist_item')
        .select(['material_id', 'identity_id', 'required', 'attr', 'name', 'attention', 'sample'])
        .where('user_order_id', '=', userOrderId)
        .orderBy('sort')
        .orderBy('material_id')
        .execute();
    },

    files(userOrderId: number) {
      return db
        .selectFrom('order_material_file')
        .select([
          'file_id',
          'applicant_id',
          'material_id',
          'kind',
          'file_name',
          'content_type',
          'size_bytes',
          'sha256',
          'review_status',
          'review_reasons',
          'no_pass_memo',
          'reviewed_by',
          'reviewed_at',
          'review_round',
          'created_at',
          'reused_document_id',
        ])
        .where('user_order_id', '=', userOrderId)
        .orderBy('file_id')
        .execute();
    },
  };
}

export type WorkbenchRepository = ReturnType<typeof createWorkbenchRepository>;
export type WorkbenchFileRow = Awaited<ReturnType<WorkbenchRepository['files']>>[number];
