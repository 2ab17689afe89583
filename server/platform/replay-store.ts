// Request ids already used, kept in the database so that every app instance
// sharing it refuses a replay, not only the one that saw the first request.
//
// Ids arriving in the same event-loop turn are written together: one
// multi-row INSERT … ON CONFLICT DO NOTHING RETURNING per turn instead of one
// write transaction per request (the per-request insert cost three quarters
// of the API's throughput on SQLite). The database still decides: an id is
// fresh only if its row was inserted by this statement.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface ReplayStore {
  /** true when the id was new and is now remembered; false for a replay. */
  remember(requestId: string, platform: string, at: number): Promise<boolean>;
  /** Forgets ids older than the window in which their X-Date is still accepted. */
  purgeBefore(at: number): Promise<void>;
}

interface Pending {
  requestId: string;
  platform: string;
  at: number;
  resolve(fresh: boolean): void;
  reject(error: unknown): void;
}

/** Rows per statement: 3 parameters each stays far below every driver's limit. */
const MAX_BATCH = 500;

export function createDatabaseReplayStore(db: Kysely<Database>): ReplayStore {
  const queue: Pending[] = [];
  let scheduled = false;

  async function flush(batch: Pending[]): Promise<void> {
    const firstOfEach = new Map<string, Pending>();
    for (const item of batch) if (!firstOfEach.has(item.requestId)) firstOfEach.set(item.requestId, item);
    try {
      const rows = await db
        .insertInto('api_request_nonce')
        .values([...firstOfEach.values()].map((item) => ({ request_id: item.requestId, platform: item.platform, seen_at: item.at })))
        .onConflict((oc) => oc.column('request_id').doNothing())
        .returning('request_id')
        .execute();
      const inserted = new Set(rows.map((row) => row.request_id));
      // A copy of an id within the same batch is a replay of its first copy.
      for (const item of batch) item.resolve(inserted.has(item.requestId) && firstOfEach.get(item.requestId) === item);
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  }

  function drain(): void {
    scheduled = false;
    while (queue.length > 0) void flush(queue.splice(0, MAX_BATCH));
  }

  return {
    remember(requestId, platform, at) {
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ requestId, platform, at, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(drain);
        }
      });
    },
    async purgeBefore(at) {
      await db.deleteFrom('api_request_nonce').where('seen_at', '<', at).execute();
    },
  };
}
