// The local Redis the Redis tests use (TEST_REDIS_URL, default redis://127.0.0.1:6379),
// and whether anything listens there: without it those tests are skipped, loudly.
import { createConnection } from 'node:net';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const { hostname, port } = new URL(TEST_REDIS_URL);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export const haveRedis = await redisReachable();

/** Prints why `what` is skipped when there is no Redis. */
export function warnIfNoRedis(what: string): void {
  if (!haveRedis) console.warn(`\n!!! ${what} SKIPPED: nothing listens at ${TEST_REDIS_URL} (set TEST_REDIS_URL) !!!\n`);
}
