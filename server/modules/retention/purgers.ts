// What the retention job deletes, one purger per kind of stored file of an
// order. Each purger says which of its files of a finished order are due now,
// when more will be due later (null: none left), and deletes their rows inside
// the retention_purge change (the job deletes the stored objects first).
// The travellers' uploaded scans (customers' material files and photos, the
// page-check pages the operators upload) are due RETENTION_DAYS after the
// order became completed or refunded. The integrator adds the e-visa purger
// (kept until its validity ends: due at valid_to) and the embassy letter
// purger (like the scans) to DEFAULT_PURGERS. Rules: docs/order-rules.md
// ("Ship back, completion and retention").
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
  removeRows(trx: Transaction<Database>, userOrderId: number, ids: number[]): Promise<number>;
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

/** The purgers the job runs, in order. The integrator appends the e-visa and embassy-letter purgers here. */
export const DEFAULT_PURGERS: readonly Purger[] = [materialFilePurger, pageCheckPagePurger];
