// The local Redis the Redis tests use (TEST_REDIS_URL, default redis://127.0.0.1:6379),
// and whether it answers: without it those tests are skipped, loudly.
import { openRedisConnection } from '../platform/redis-connection.ts';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Asked with the app's own client: a PING answered, not only a port open. */
export const haveRedis = await openRedisConnection(TEST_REDIS_URL).then(
  async (connection) => {
    await connection.close();
    return true;
  },
  () => false,
);

/** Prints why `what` is skipped when there is no Redis. */
export function warnIfNoRedis(what: string): void {
  if (!haveRedis) console.warn(`\n!!! ${what} SKIPPED: nothing answers at ${TEST_REDIS_URL} (set TEST_REDIS_URL) !!!\n`);
}
