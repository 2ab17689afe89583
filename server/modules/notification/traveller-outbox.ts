// The traveller outbox (issue 29, part 4): sends the rows of traveller_message
// — an applicant's own SMS and e-mails, written in the order event's
// transaction (order-notices/traveller-messages.ts) — after the commit, as a
// job of the app's runner like the notices' e-mail outbox (outbox.ts): run by
// an after-commit hook of the lifecycle, swept for what no hook announced.
//
// Never twice: a row is claimed by one conditional update that moves it from
// pending to sending with a lease. A send that fails moves it back to pending
// (retried with backoff) or to failed; one that succeeds to sent. A row found
// still sending after its lease — the process died during the provider's call,
// so nobody knows whether the message went — is marked failed with that
// reason, not sent again: a traveller would rather miss a copy (the ordering
// account has every notice) than get the same SMS twice.
//
// For SMS, before the call: a number that opted out is skipped; in the quiet
// hours (22:00–08:00 China time) only a same-day change goes, the rest wait
// for 08:00; and a number that had SMS_RATE_PER_HOUR messages in the last hour
// (or SMS_RATE_PER_DAY in the last day) waits until the oldest leaves the window.
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, TravellerMessageTable } from '../../db/schema.ts';
import type { JobRunner, JobSpec } from '../../platform/jobs.ts';
import { escapeHtml } from '../../platform/html.ts';
import type { Mailer } from './mailer.ts';
import { SmsSendError, type SmsProvider } from './sms-provider.ts';
import {
  inQuietHours,
  isTravellerTemplate,
  quietHoursEnd,
  renderTravellerText,
  TRAVELLER_EVENTS,
  TRAVELLER_TEMPLATES,
} from '../order-notices/traveller-messages.ts';
import { backoffMs } from './outbox.ts';
import { singleFlightDrain } from '../../platform/single-flight.ts';

export const TRAVELLER_OUTBOX_JOB = 'traveller-outbox';

export interface TravellerOutboxOptions {
  db: Kysely<Database>;
  sms: SmsProvider;
  mailer: Mailer;
  now: () => number;
  log?: { warn(object: unknown, message: string): void };
  /** SMS per number: at most this many in any hour and any day. */
  ratePerHour?: number;
  ratePerDay?: number;
  leaseMs?: number;
  batch?: number;
  maxAttempts?: number;
  /** The sweep's period; 0: only the after-commit runs (tests drain by hand). */
  sweepMs?: number;
}

export const TRAVELLER_OUTBOX_DEFAULTS = { ratePerHour: 5, ratePerDay: 10, leaseMs: 120_000, batch: 20, maxAttempts: 6, sweepMs: 15_000 } as const;

const HOUR_MS = 3_600_000;
const BRAND = '易签通';

export interface TravellerDrainResult {
  sent: number;
  retried: number;
  failed: number;
  held: number;
  skipped: number;
}

type Row = Selectable<TravellerMessageTable>;

export function createTravellerOutbox(options: TravellerOutboxOptions) {
  const { db, sms, mailer, now, log } = options;
  const ratePerHour = options.ratePerHour ?? TRAVELLER_OUTBOX_DEFAULTS.ratePerHour;
  const ratePerDay = options.ratePerDay ?? TRAVELLER_OUTBOX_DEFAULTS.ratePerDay;
  const leaseMs = options.leaseMs ?? TRAVELLER_OUTBOX_DEFAULTS.leaseMs;
  const batch = options.batch ?? TRAVELLER_OUTBOX_DEFAULTS.batch;
  const maxAttempts = options.maxAttempts ?? TRAVELLER_OUTBOX_DEFAULTS.maxAttempts;

  /** Rows left sending after their lease: the outcome is unknown, so they are not sent again. */
  async function abandonStale(at: number): Promise<number> {
    const result = await db
      .updateTable('traveller_message')
      .set({ status: 'failed', claimed_until: null, claim_token: null, last_error: '发送过程中断，无法确认是否已送达，为避免重复未再发送' })
      .where('status', '=', 'sending')
      .where('claimed_until', '<=', at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async function claim(at: number) {
    const due = await db
      .selectFrom('traveller_message')
      .select('message_id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at)
      .orderBy('message_id')
      .limit(batch)
      .execute();
    const claimed: Array<{ id: number; token: string }> = [];
    for (const { message_id: id } of due) {
      const token = randomUUID();
      // Of two workers, one moves the row from pending; the other's update finds it sending.
      const won = await db
        .updateTable('traveller_message')
        .set((eb) => ({ status: 'sending', claimed_until: at + leaseMs, claim_token: token, attempts: eb('attempts', '+', 1) }))
        .where('message_id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(won.numUpdatedRows) === 1) claimed.push({ id, token });
    }
    return { claimed, more: due.length === batch };
  }

  /** Back to pending without counting an attempt: held for the quiet hours, the rate limit. */
  async function hold(id: number, token: string, until: number, reason: string) {
    await db
      .updateTable('traveller_message')
      .set((eb) => ({
        status: 'pending',
        next_attempt_at: until,
        claimed_until: null,
        claim_token: null,
        last_error: reason,
        attempts: eb('attempts', '-', 1),
      }))
      .where('message_id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  async function finish(
    id: number,
    token: string,
    set: { status: 'sent' | 'failed' | 'skipped' | 'pending'; last_error: string | null; next_attempt_at?: number; provider_id?: string; sent_at?: number },
  ) {
    await db
      .updateTable('traveller_message')
      .set({ ...set, claimed_until: null, claim_token: null })
      .where('message_id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  /** When the number may get its next SMS under the rate limit (now when it may). */
  async function rateLimitedUntil(to: string, at: number): Promise<number | null> {
    const recent = await db
      .selectFrom('traveller_message')
      .select('sent_at')
      .where('channel', '=', 'sms')
      .where('to_address', '=', to)
      .where('status', '=', 'sent')
      .where('sent_at', '>', at - 24 * HOUR_MS)
      .orderBy('sent_at', 'desc')
      .execute();
    const times = recent.map((r) => Number(r.sent_at));
    const lastHour = times.filter((t) => t > at - HOUR_MS);
    // The oldest of the window's messages leaving it frees a place.
    if (lastHour.length >= ratePerHour) return lastHour[ratePerHour - 1]! + HOUR_MS;
    if (times.length >= ratePerDay) return times[ratePerDay - 1]! + 24 * HOUR_MS;
    return null;
  }

  async function sendOne(id: number, token: string, result: TravellerDrainResult): Promise<void> {
    const row: Row | undefined = await db
      .selectFrom('traveller_message')
      .selectAll()
      .where('message_id', '=', id)
      .where('claim_token', '=', token)
      .executeTakeFirst();
    if (!row || !isTravellerTemplate(row.template)) {
      if (row) await finish(id, token, { status: 'failed', last_error: `未知模板 ${row.template}` });
      return;
    }
    const at = now();
    const params = JSON.parse(row.params) as Record<string, string>;
    const text = renderTravellerText(row.template, params);
    if (row.channel === 'sms') {
      const optedOut = await db.selectFrom('sms_opt_out').select('mobile').where('mobile', '=', row.to_address).executeTakeFirst();
      if (optedOut) {
        await finish(id, token, { status: 'skipped', last_error: '该号码已退订短信' });
        result.skipped += 1;
        return;
      }
      if (!row.urgent && inQuietHours(at)) {
        await hold(id, token, quietHoursEnd(at), '夜间免打扰（22:00–08:00），08:00 后发送');
        result.held += 1;
        return;
      }
      const limited = await rateLimitedUntil(row.to_address, at);
      if (limited !== null) {
        await hold(id, token, limited, `该号码短信过于频繁（每小时最多 ${ratePerHour} 条、每天 ${ratePerDay} 条），稍后发送`);
        result.held += 1;
        return;
      }
    }
    try {
      let providerId: string;
      if (row.channel === 'sms') {
        providerId = (await sms.send({ to: row.to_address, template: row.template, params, text })).id;
      } else {
        const subject = `【${BRAND}】${TRAVELLER_TEMPLATES[row.template].subject}`;
        const footer = '此邮件由系统自动发送，请勿回复。';
        providerId = (
          await mailer.send({
            to: row.to_address,
            subject,
            text: `${text}\n\n${footer}\n`,
            html: `<p>${escapeHtml(text)}</p><p style="color:#666">${footer}</p>`,
          })
        ).id;
      }
      await finish(id, token, { status: 'sent', last_error: null, provider_id: providerId, sent_at: now() });
      result.sent += 1;
    } catch (error) {
      const permanent = error instanceof SmsSendError && error.permanent;
      const failed = permanent || row.attempts >= maxAttempts;
      const reason = String(error instanceof Error ? error.message : error).slice(0, 500);
      await finish(id, token, { status: failed ? 'failed' : 'pending', last_error: reason, next_attempt_at: now() + backoffMs(row.attempts) });
      if (failed) result.failed += 1;
      else result.retried += 1;
      log?.warn(
        { err: error, travellerMessageId: id, attempts: row.attempts },
        failed ? 'traveller message failed for good' : 'traveller message failed, will retry',
      );
    }
  }

  async function drainOnce(): Promise<TravellerDrainResult> {
    const result: TravellerDrainResult = { sent: 0, retried: 0, failed: 0, held: 0, skipped: 0 };
    result.failed += await abandonStale(now());
    for (;;) {
      const { claimed, more } = await claim(now());
      for (const { id, token } of claimed) await sendOne(id, token, result);
      if (!more) return result;
    }
  }

  const { drain } = singleFlightDrain(drainOnce);

  async function pending(): Promise<number> {
    const row = await db
      .selectFrom('traveller_message')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', ['pending', 'sending'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  const job: JobSpec = {
    name: TRAVELLER_OUTBOX_JOB,
    intervalMs: options.sweepMs ?? TRAVELLER_OUTBOX_DEFAULTS.sweepMs,
    run: drain,
    leaseMs,
    backlog: pending,
    runAtStart: true,
  };
  return { drain, job };
}

export type TravellerOutbox = ReturnType<typeof createTravellerOutbox>;

/** Registers the job; returns the after-commit hook that runs it after the events that may tell a traveller something. */
export function installTravellerOutbox(jobs: JobRunner, outbox: TravellerOutbox, log?: TravellerOutboxOptions['log']) {
  jobs.register(outbox.job);
  return { name: 'traveller messages', events: TRAVELLER_EVENTS, run: () => jobs.poke(TRAVELLER_OUTBOX_JOB), log };
}
