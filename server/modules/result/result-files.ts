// The visa results' files as a kind of stored file
// (server/modules/stored-file): e-visas and the embassy's refusal letters,
// uploaded by operators and checked like the customers' uploads, attached
// later by the result. The order's customer sees a file once a result points
// at it, inline in a frame of our page. Retention keeps the row (the result
// points at it) and marks it purged: an e-visa when both its validity and
// RETENTION_DAYS are over, a letter or an unused upload like the scans.
import { MATERIAL_CONTENT_TYPES } from '../../../common/material.ts';
import { defineStoredFileKind } from '../stored-file/kind.ts';

/** The end of a visa's last valid day (yyyy-mm-dd, China time), epoch ms. */
export function visaValidityEnd(validTo: string): number {
  return Date.parse(`${validTo}T00:00:00+08:00`) + 24 * 60 * 60 * 1000;
}

export const visaResultFiles = defineStoredFileKind({
  name: 'visa_result',
  table: 'visa_result_file',
  idColumn: 'file_id',
  contentTypes: MATERIAL_CONTENT_TYPES,
  customerPath: '/files/visa-result/',
  adminPath: '/admin-files/visa-result/',
  customerCopy: { etag: false, framed: true },
  shownToCustomer: (file) => file.result_id !== null,
  retention: {
    name: 'visa_result_file',
    purgedColumn: 'purged_at',
    async keptUntil(db, userOrderId) {
      const evisas = await db
        .selectFrom('visa_result_file as f')
        .innerJoin('visa_result as r', 'r.result_id', 'f.result_id')
        .select(['f.file_id', 'r.valid_to'])
        .where('f.user_order_id', '=', userOrderId)
        .where('f.kind', '=', 'evisa')
        .where('r.valid_to', 'is not', null)
        .execute();
      return new Map(evisas.map((row) => [row.file_id, visaValidityEnd(row.valid_to!)]));
    },
  },
});
