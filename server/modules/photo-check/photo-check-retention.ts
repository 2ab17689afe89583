// The retention purge of photo checks (server/modules/retention): with the
// order's other files, RETENTION_DAYS after it finished, each check's row and
// its processed photo (a photo never chosen). Runs before the material files'
// purger: a check row refers to its photo's file row.
import type { Purger } from '../stored-file/retention.ts';

export const photoCheckPurger: Purger = {
  kind: 'photo_check',
  async due(db, order, at, retentionMs) {
    if (order.finished_at + retentionMs > at) return [];
    const rows = await db.selectFrom('photo_check').select(['file_id', 'processed_key']).where('user_order_id', '=', order.user_order_id).execute();
    // A check without a processed photo holds no object: an empty key deletes only its row.
    return rows.map((row) => ({ id: row.file_id, storage_key: row.processed_key ?? '' }));
  },
  async nextDueAt(db, order, at, retentionMs) {
    const dueAt = order.finished_at + retentionMs;
    if (dueAt <= at) return null;
    const row = await db.selectFrom('photo_check').select('file_id').where('user_order_id', '=', order.user_order_id).executeTakeFirst();
    return row ? dueAt : null;
  },
  async removeRows(trx, userOrderId, ids) {
    if (ids.length === 0) return 0;
    const result = await trx.deleteFrom('photo_check').where('user_order_id', '=', userOrderId).where('file_id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
