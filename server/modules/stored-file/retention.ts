// The retention purge of a kind's files (the retention job, modules/retention,
// runs one purger per kind). Every file of a finished order is due
// RETENTION_DAYS after the order became completed or refunded, or later when
// its kind keeps it longer (keptUntil: e-visas until their validity ends).
// The job deletes the stored objects first, then, in the retention_purge
// change, the rows (or, for a kind whose rows stay, marks them purged).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { StoredFileKind, StoredFileTable } from './kind.ts';

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
  /** Deletes these rows, or marks them purged (inside the retention_purge change); returns how many went. */
  removeRows(trx: Transaction<Database>, userOrderId: number, ids: number[], at: number): Promise<number>;
}

/** The purger of a kind of stored file. */
export function purgerOf<T extends StoredFileTable>(kind: StoredFileKind<T>): Purger {
  const { keptUntil } = kind.retention;
  // The kind's table is known only at run time: its columns are StoredFileColumns (kind.ts checks the declaration).
  const table: string = kind.table;
  const idColumn: string = kind.idColumn;
  const purgedColumn: string | undefined = kind.retention.purgedColumn;

  /** The order's files still stored, each with the time it is due. */
  async function liveFiles(db: Kysely<Database>, order: FinishedOrder, retentionMs: number) {
    let query = (db as Kysely<any>)
      .selectFrom(table)
      .select([`${idColumn} as id`, 'storage_key'])
      .where('user_order_id', '=', order.user_order_id);
    if (purgedColumn) query = query.where(purgedColumn, 'is', null);
    const rows = (await query.orderBy(idColumn).execute()) as StoredFileRef[];
    const scans = order.finished_at + retentionMs;
    const kept = keptUntil ? await keptUntil(db, order.user_order_id) : new Map<number, number>();
    return rows.map((row) => ({ ...row, dueAt: Math.max(scans, kept.get(row.id) ?? scans) }));
  }

  return {
    kind: kind.retention.name,
    async due(db, order, at, retentionMs) {
      return (await liveFiles(db, order, retentionMs)).filter((file) => file.dueAt <= at).map(({ id, storage_key }) => ({ id, storage_key }));
    },
    async nextDueAt(db, order, at, retentionMs) {
      const later = (await liveFiles(db, order, retentionMs)).map((file) => file.dueAt).filter((dueAt) => dueAt > at);
      return later.length > 0 ? Math.min(...later) : null;
    },
    async removeRows(trx, userOrderId, ids, at) {
      if (ids.length === 0) return 0;
      const tables = trx as Transaction<any>;
      if (purgedColumn) {
        const result = await tables
          .updateTable(table)
          .set({ [purgedColumn]: at })
          .where('user_order_id', '=', userOrderId)
          .where(idColumn, 'in', ids)
          .where(purgedColumn, 'is', null)
          .executeTakeFirst();
        return Number(result.numUpdatedRows);
      }
      const result = await tables.deleteFrom(table).where('user_order_id', '=', userOrderId).where(idColumn, 'in', ids).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
