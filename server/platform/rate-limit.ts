// Fixed-window rate limits kept in the database, so every app instance sharing
// it counts the same hits. Each hit is one INSERT … ON CONFLICT DO UPDATE …
// RETURNING: the database serialises concurrent hits on the key's row, so no
// count is ever lost and exactly `limit` hits per window are let through.
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { RateLimitTables } from '../db/schema.ts';

/** Width of rate_limit_counter.limit_key. */
export const RATE_LIMIT_KEY_MAX_LENGTH = 200;

/** Keys too long for the column keep a readable prefix and end in a hash of the whole key. */
export function storedLimitKey(key: string): string {
  if (key.length <= RATE_LIMIT_KEY_MAX_LENGTH) return key;
  const hash = createHash('sha256').update(key).digest('hex');
  return `${key.slice(0, RATE_LIMIT_KEY_MAX_LENGTH - hash.length - 1)}#${hash}`;
}

export interface RateLimiter {
  /**
   * Counts one hit on key in the window of windowMs that started with the
   * key's first hit; true while the window has seen at most `limit` hits,
   * false once over it. A hit at or after window start + windowMs opens a new
   * window.
   */
  hit(key: string, limit: number, windowMs: number, now: number): Promise<boolean>;
  /** Deletes counters whose window started before `at` (pass now − the longest window in use). */
  purgeStartedBefore(at: number): Promise<number>;
}

/** Works on any database type that has the table of migration 003 (RateLimitTables). */
export function createRateLimiter<DB extends RateLimitTables>(database: Kysely<DB>): RateLimiter {
  const db = database as unknown as Kysely<RateLimitTables>;
  return {
    async hit(key, limit, windowMs, now) {
      if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
      if (!(windowMs > 0) || !Number.isFinite(now)) throw new RangeError('windowMs must be positive and now finite');
      // A window that started at or before now − windowMs is over: restart it at 1.
      const lastStartOfOverWindow = now - windowMs;
      const row = await db
        .insertInto('rate_limit_counter')
        .values({ limit_key: storedLimitKey(key), window_started_at: now, hits: 1 })
        .onConflict((oc) =>
          oc.column('limit_key').doUpdateSet({
            hits: sql<number>`case when rate_limit_counter.window_started_at <= ${lastStartOfOverWindow} then 1 else rate_limit_counter.hits + 1 end`,
            window_started_at: sql<number>`case when rate_limit_counter.window_started_at <= ${lastStartOfOverWindow} then ${now} else rate_limit_counter.window_started_at end`,
          }),
        )
        .returning(['hits'])
        .executeTakeFirstOrThrow();
      return Number(row.hits) <= limit;
    },

    async purgeStartedBefore(at) {
      const result = await db.deleteFrom('rate_limit_counter').where('window_started_at', '<', at).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
