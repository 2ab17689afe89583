// The page-check pages (核页) as a kind of stored file
// (server/modules/stored-file): uploaded by operators, checked like the
// customers' uploads; the order's customer sees an applicant's pages once they
// are published (a draft is a 404 like a missing page), inline in a frame of
// our page; deleted with their rows RETENTION_DAYS after the order finished.
import type { PageCheckApplicantStatus } from '../../../common/contracts/page-check.ts';
import { MATERIAL_CONTENT_TYPES } from '../../../common/material.ts';
import { defineStoredFileKind } from '../stored-file/kind.ts';

/** Statuses whose pages the customer sees (a draft is the operator's work in progress). */
export const SHOWN_TO_CUSTOMER: readonly PageCheckApplicantStatus[] = ['published', 'correction', 'confirmed'];

export const pageCheckPages = defineStoredFileKind({
  name: 'page_check',
  table: 'page_check_page',
  idColumn: 'page_id',
  contentTypes: MATERIAL_CONTENT_TYPES,
  customerPath: '/files/page-check/',
  adminPath: '/admin-files/page-check/',
  customerCopy: { etag: false, framed: true },
  async shownToCustomer(page, db) {
    const state = await db.selectFrom('page_check_applicant').select('status').where('applicant_id', '=', page.applicant_id).executeTakeFirst();
    return state !== undefined && SHOWN_TO_CUSTOMER.includes(state.status);
  },
  retention: { name: 'page_check_page' },
});
