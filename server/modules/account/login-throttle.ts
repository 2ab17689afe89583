// Login throttling. Failures are counted per (account, address), per address
// and per account; each count lives in a fixed window and locks for a while
// when it passes its limit. Locks always expire, and the account-wide lock is
// short and high, so an attacker elsewhere cannot keep a real user out for long.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

interface Rule {
  kind: 'account_ip' | 'ip' | 'account';
  limit: number;
  windowMs: number;
  lockMs: number;
}

const MINUTE = 60_000;
export const THROTTLE_RULES: Rule[] = [
  { kind: 'account_ip', limit: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  { kind: 'ip', limit: 30, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  { kind: 'account', limit: 50, windowMs: 15 * MINUTE, lockMs: 5 * MINUTE },
];

/** Failures from one address on one account before each answer is delayed. */
const SLOWDOWN_AFTER = 2;
const SLOWDOWN_STEP_MS = 400;
const SLOWDOWN_MAX_MS = 2_000;

function keyOf(kind: Rule['kind'], account: string, ip: string): string {
  if (kind === 'ip') return `ip:${ip}`;
  if (kind === 'account') return `account:${account.toLowerCase()}`;
  return `account_ip:${account.toLowerCase()}|${ip}`;
}

export function createLoginThrottle(db: Kysely<Database>) {
  return {
    /** The time until which login is refused for this account/address, or null. */
    async lockedUntil(account: string, ip: string, now: number): Promise<number | null> {
      const keys = THROTTLE_RULES.map((rule) => keyOf(rule.kind, account, ip));
      const rows = await db.selectFrom('login_throttle').select('locked_until').where('throttle_key', 'in', keys).execute();
      const until = Math.max(0, ...rows.map((row) => row.locked_until ?? 0));
      return until > now ? until : null;
    },

    /** Counts a failure everywhere it applies; returns how long to delay the answer. */
    async recordFailure(account: string, ip: string, now: number): Promise<number> {
      let accountIpFailures = 0;
      for (const rule of THROTTLE_RULES) {
        const key = keyOf(rule.kind, account, ip);
        const windowStart = now - rule.windowMs;
        // One statement per key keeps concurrent failures from losing counts:
        // a stale window restarts at 1, a live one adds 1.
        const row = await db
          .insertInto('login_throttle')
          .values({ throttle_key: key, failures: 1, window_started_at: now, locked_until: null })
          .onConflict((oc) =>
            oc.column('throttle_key').doUpdateSet({
              failures: sql<number>`case when login_throttle.window_started_at < ${windowStart} then 1 else login_throttle.failures + 1 end`,
              window_started_at: sql<number>`case when login_throttle.window_started_at < ${windowStart} then ${now} else login_throttle.window_started_at end`,
            }),
          )
          .returning(['failures'])
          .executeTakeFirstOrThrow();
        if (row.failures >= rule.limit) {
          await db
            .updateTable('login_throttle')
            .set({ locked_until: now + rule.lockMs, failures: 0, window_started_at: now })
            .where('throttle_key', '=', key)
            .execute();
        }
        if (rule.kind === 'account_ip') accountIpFailures = row.failures;
      }
      if (accountIpFailures <= SLOWDOWN_AFTER) return 0;
      return Math.min((accountIpFailures - SLOWDOWN_AFTER) * SLOWDOWN_STEP_MS, SLOWDOWN_MAX_MS);
    },

    /** A successful login forgives this address's failures on this account. */
    async recordSuccess(account: string, ip: string): Promise<void> {
      await db
        .deleteFrom('login_throttle')
        .where('throttle_key', '=', keyOf('account_ip', account, ip))
        .execute();
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
