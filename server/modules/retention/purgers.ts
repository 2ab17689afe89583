// What the retention job deletes, one purger per kind of stored file of an
// order. Each purger says which of its files of a finished order are due now,
// when more will be due later (null: none left), and deletes their rows inside
// the retention_purge change (the job deletes the stored objects first).
// The travellers' uploaded scans (customers' material files and photos, the
// page-check pages the operators upload) are due RETENTION_DAYS after the
// order became completed or refunded; so are the embassy's refusal letters and
// files uploaded for a result but never used. An e-visa is the traveller's
// visa itself: it is kept until its validity ends (and at least as long as the
// scans), and its row stays (the result points at it) with purged_at set.
// Rules: docs/order-rules.md ("Ship back, completion and retention").
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface StoredFileRef {
  id: number;
  storage_key: string;
}

/** A finished order as the job sees it. */
export interface FinishedOrder {
  user_order_id: number;
  /** When it became completed or refunded. */
  finished_at: number;
}

export interface Purger {
  /** Recorded in the retention_purge event's detail (how many of each kind went). */
  kind: string;
  /** The files of this kind of the order that may be deleted at `at`. */
  due(db: Kysely<Database>, order: FinishedOrder, at: number, retentionMs: number): Promise<StoredFileRef[]>;
  /** When files of this kind of the order are due later than `at` (null: none will be). */
  nextDueAt(db: Kysely<Database>, order: FinishedOrder, at: number, retentionMs: number): Promise<number | null>;
  /** Deletes these rows (inside the retention_purge change); returns how many went. */
  removeRows(trx: Transaction<Database>, userOrderId: number, ids: number[], at: number): Promise<number>;
}

/** Scans go all at once, retentionMs after the order finished. */
const scansDue = (order: FinishedOrder, at: number, retentionMs: number) => order.finished_at + retentionMs <= at;

export const materialFilePurger: Purger = {
  kind: 'material_file',
  async due(db, order, at, retentionMs) {
    if (!scansDue(order, at, retentionMs)) return [];
    const rows = await db
      .selectFrom('order_material_file')
      .select(['file_id', 'storage_key'])
      .where('user_order_id', '=', order.user_order_id)
      .orderBy('file_id')
      .execute();
    return rows.map((row) => ({ id: row.file_id, storage_key: row.storage_key }));
  },
  async nextDueAt(db, order, at, retentionMs) {
    if (scansDue(order, at, retentionMs)) return null;
    const row = await db.selectFrom('order_material_file').select('file_id').where('user_order_id', '=', order.user_order_id).executeTakeFirst();
    return row ? order.finished_at + retentionMs : null;
  },
  async removeRows(trx, userOrderId, ids) {
    if (ids.length === 0) return 0;
    const result = await trx.deleteFrom('order_material_file').where('user_order_id', '=', userOrderId).where('file_id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};

export const pageCheckPagePurger: Purger = {
  kind: 'page_check_page',
  async due(db, order, at, retentionMs) {
    if (!scansDue(order, at, retentionMs)) return [];
    const rows = await db
      .selectFrom('page_check_page')
      .select(['page_id', 'storage_key'])
      .where('user_order_id', '=', order.user_order_id)
      .orderBy('page_id')
      .execute();
    return rows.map((row) => ({ id: row.page_id, storage_key: row.storage_key }));
  },
  async nextDueAt(db, order, at, retentionMs) {
    if (scansDue(order, at, retentionMs)) return null;
    const row = await db.selectFrom('page_check_page').select('page_id').where('user_order_id', '=', order.user_order_id).executeTakeFirst();
    return row ? order.finished_at + retentionMs : null;
  },
  async removeRows(trx, userOrderId, ids) {
    if (ids.length === 0) return 0;
    const result = await trx.deleteFrom('page_check_page').where('user_order_id', '=', userOrderId).where('page_id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};

/** The end of a visa's last valid day (yyyy-mm-dd, China time), epoch ms. */
export function visaValidityEnd(validTo: string): number {
  return Date.parse(`${validTo}T00:00:00+08:00`) + 24 * 60 * 60 * 1000;
}

/**
 * Files of the results (modules/result): e-visas, refusal letters, and uploads
 * no result used. An e-visa is due when both its visa's validity and the
 * retention period are over; the others like the scans. The row stays (the
 * result points at it): purged_at marks the stored object gone.
 */
export const visaResultFilePurger: Purger = {
  kind: 'visa_result_file',
  async due(db, order, at, retentionMs) {
    const rows = await liveResultFiles(db, order.user_order_id);
    return rows.filter((row) => resultFileDueAt(row, order, retentionMs) <= at).map((row) => ({ id: row.file_id, storage_key: row.storage_key }));
  },
  async nextDueAt(db, order, at, retentionMs) {
    const later = (await liveResultFiles(db, order.user_order_id)).map((row) => resultFileDueAt(row, order, retentionMs)).filter((dueAt) => dueAt > at);
    return later.length > 0 ? Math.min(...later) : null;
  },
  async removeRows(trx, userOrderId, ids, at) {
    if (ids.length === 0) return 0;
    const result = await trx
      .updateTable('visa_result_file')
      .set({ purged_at: at })
      .where('user_order_id', '=', userOrderId)
      .where('file_id', 'in', ids)
      .where('purged_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },
};

interface LiveResultFile {
  file_id: number;
  storage_key: string;
  kind: 'evisa' | 'letter';
  result_id: number | null;
  valid_to: string | null;
}

function liveResultFiles(db: Kysely<Database>, userOrderId: number): Promise<LiveResultFile[]> {
  return db
    .selectFrom('visa_result_file as f')
    .leftJoin('visa_result as r', 'r.result_id', 'f.result_id')
    .select(['f.file_id', 'f.storage_key', 'f.kind', 'f.result_id', 'r.valid_to'])
    .where('f.user_order_id', '=', userOrderId)
    .where('f.purged_at', 'is', null)
    .orderBy('f.file_id')
    .execute();
}

function resultFileDueAt(file: LiveResultFile, order: FinishedOrder, retentionMs: number): number {
  const scans = order.finished_at + retentionMs;
  if (file.kind === 'evisa' && file.result_id !== null && file.valid_to) return Math.max(scans, visaValidityEnd(file.valid_to));
  return scans;
}

/** The purgers the job runs, in order. */
export const DEFAULT_PURGERS: readonly Purger[] = [materialFilePurger, pageCheckPagePurger, visaResultFilePurger];
