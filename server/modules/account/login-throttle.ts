// Login throttling, for customers and operators alike (each side its own keys,
// so a burst on one cannot lock the other out of a shared office network).
//
// Attempts are counted per (account, address), per address and per account,
// each in a fixed window, and an attempt is *reserved* — counted, in one
// atomic upsert per key — before the password or code is checked. A key at its
// limit (or locked) refuses the reservation, so however many requests arrive
// at once, at most `limit` of them are ever checked. A failed attempt keeps its
// count (and locks the key once the count is at the limit); a successful one
// gives its reservation back, so busy offices are not throttled by their own
// good logins. Locks always expire, and the account-wide lock is short and
// high, so an attacker elsewhere cannot keep a real user out for long.
import { type Kysely, sql } from 'kysely';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';

export type ThrottleSide = 'customer' | 'operator';

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

/** The row key of one rule: `<side>:<kind>:<subject>`, e.g. `operator:ip:203.0.113.9`. */
export function throttleKey(side: ThrottleSide, kind: Rule['kind'], account: string, ip: string): string {
  if (kind === 'ip') return `${side}:ip:${ip}`;
  if (kind === 'account') return `${side}:account:${account.toLowerCase()}`;
  return `${side}:account_ip:${account.toLowerCase()}|${ip}`;
}

/** One reservation: the key and the window it was counted in (a restarted window has already forgotten it). */
interface Held {
  rule: Rule;
  key: string;
  windowStartedAt: number;
  count: number;
}

export interface LoginAttempt {
  /** The password (and code) were right: the reservation is given back and this address's failures on the account forgiven. */
  succeeded(): Promise<void>;
  /** The password or code was wrong: the count stays, the key locks at its limit; returns how long to delay the answer. */
  failed(): Promise<number>;
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function createLoginThrottle(db: Kysely<Database>, side: ThrottleSide) {
  /** Counts one attempt on a key, atomically; null when the key is locked or at its limit. */
  async function reserveKey(rule: Rule, key: string, now: number): Promise<Held | null> {
    const windowStart = now - rule.windowMs;
    const stale = sql<boolean>`login_throttle.window_started_at < ${windowStart}`;
    const row = await db
      .insertInto('login_throttle')
      .values({ throttle_key: key, failures: 1, window_started_at: now, locked_until: null })
      .onConflict((oc) =>
        oc
          .column('throttle_key')
          .doUpdateSet({
            failures: sql<number>`case when ${stale} then 1 else login_throttle.failures + 1 end`,
            window_started_at: sql<number>`case when ${stale} then ${now} else login_throttle.window_started_at end`,
            locked_until: null,
          })
          // The row is locked by the upsert while this is decided: concurrent attempts see each other's counts.
          .where(sql<boolean>`(login_throttle.locked_until is null or login_throttle.locked_until <= ${now})`)
          .where(sql<boolean>`(${stale} or login_throttle.failures < ${rule.limit})`),
      )
      .returning(['failures', 'window_started_at'])
      .executeTakeFirst();
    return row ? { rule, key, windowStartedAt: Number(row.window_started_at), count: Number(row.failures) } : null;
  }

  /** Gives one reserved attempt back (never below zero, never to a window that has restarted since). */
  async function release(held: Held): Promise<void> {
    await db
      .updateTable('login_throttle')
      .set({ failures: sql<number>`case when failures > 0 then failures - 1 else 0 end` })
      .where('throttle_key', '=', held.key)
      .where('window_started_at', '=', held.windowStartedAt)
      .execute();
  }

  /** When the refused key opens again: its lock's end, or its window's end. */
  async function refusal(rule: Rule, key: string, now: number): Promise<AppError> {
    const row = await db.selectFrom('login_throttle').select(['locked_until', 'window_started_at']).where('throttle_key', '=', key).executeTakeFirst();
    const locked = row?.locked_until != null && Number(row.locked_until) > now ? Number(row.locked_until) : null;
    const until = locked ?? (row ? Number(row.window_started_at) + rule.windowMs : now + rule.lockMs);
    const minutes = Math.max(1, Math.ceil((until - now) / 60_000));
    return new AppError(ErrorCode.LOGIN_THROTTLED, `登录失败次数过多，请${minutes}分钟后再试`);
  }

  return {
    /**
     * Reserves one login attempt for this account from this address, before
     * anything is checked; throws 1302 (登录失败次数过多) when a count is at
     * its limit or locked. The caller settles it with succeeded() or failed().
     */
    async reserve(account: string, ip: string, now: number): Promise<LoginAttempt> {
      const held: Held[] = [];
      for (const rule of THROTTLE_RULES) {
        const key = throttleKey(side, rule.kind, account, ip);
        const reserved = await reserveKey(rule, key, now);
        if (!reserved) {
          for (const done of held) await release(done);
          throw await refusal(rule, key, now);
        }
        held.push(reserved);
      }
      let settled = false;
      return {
        async succeeded() {
          if (settled) return;
          settled = true;
          for (const done of held) {
            if (done.rule.kind === 'account_ip') await db.deleteFrom('login_throttle').where('throttle_key', '=', done.key).execute();
            else await release(done);
          }
        },
        async failed() {
          if (settled) return 0;
          settled = true;
          for (const done of held) {
            // At its limit: the key locks (and its count starts again when the lock is over).
            await db
              .updateTable('login_throttle')
              .set({ locked_until: now + done.rule.lockMs, failures: 0, window_started_at: now })
              .where('throttle_key', '=', done.key)
              .where('window_started_at', '=', done.windowStartedAt)
              .where('failures', '>=', done.rule.limit)
              .execute();
          }
          const accountIp = held.find((done) => done.rule.kind === 'account_ip')?.count ?? 0;
          if (accountIp <= SLOWDOWN_AFTER) return 0;
          return Math.min((accountIp - SLOWDOWN_AFTER) * SLOWDOWN_STEP_MS, SLOWDOWN_MAX_MS);
        },
      };
    },

    /** failed(), then the delay it asks for: what a login does with a wrong password. */
    async failAndWait(attempt: LoginAttempt): Promise<void> {
      const delay = await attempt.failed();
      if (delay > 0) await wait(delay);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
