// Request ids already used, kept in the database so that every app instance
// sharing it refuses a replay, not only the one that saw the first request.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface ReplayStore {
  /** true when the id was new and is now remembered; false for a replay. */
  remember(requestId: string, platform: string, at: number): Promise<boolean>;
  /** Forgets ids older than the window in which their X-Date is still accepted. */
  purgeBefore(at: number): Promise<void>;
}

export function createDatabaseReplayStore(db: Kysely<Database>): ReplayStore {
  return {
    async remember(requestId, platform, at) {
      // The primary key decides: of two concurrent inserts exactly one wins.
      const result = await db
        .insertInto('api_request_nonce')
        .values({ request_id: requestId, platform, seen_at: at })
        .onConflict((oc) => oc.column('request_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
    async purgeBefore(at) {
      await db.deleteFrom('api_request_nonce').where('seen_at', '<', at).execute();
    },
  };
}
