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
// account has every notice) than get the same SMS twice. The claim, the lease,
// the retries and the job are the shared outbox job's
// (server/platform/outbox-job.ts, at most once); this file has the table, the
// checks before a send and the send.
//
// For SMS, before the call: a number that opted out is skipped; in the quiet
// hours (22:00–08:00 China time) only a same-day change goes, the rest wait
// for 08:00; and a number that had SMS_RATE_PER_HOUR messages in the last hour
// (or SMS_RATE_PER_DAY in the last day) waits until the oldest leaves the window.
import type { Kysely, Selectable } from 'kysely';
import type { Database, TravellerMessageTable } from '../../db/schema.ts';
import type { JobRunner } from '../../platform/jobs.ts';
import { createOutboxJob, installOutboxJob, outboxLimits, type OutboxCheck, type OutboxLimits } from '../../platform/outbox-job.ts';
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
  type TravellerTemplateKey,
} from '../order-notices/traveller-messages.ts';

export const TRAVELLER_OUTBOX_JOB = 'traveller-outbox';

export interface TravellerOutboxOptions extends Partial<OutboxLimits> {
  db: Kysely<Database>;
  sms: SmsProvider;
  mailer: Mailer;
  now: () => number;
  log?: { warn(object: unknown, message: string): void };
  /** SMS per number: at most this many in any hour and any day. */
  ratePerHour?: number;
  ratePerDay?: number;
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
  const { db, sms, mailer, now } = options;
  const ratePerHour = options.ratePerHour ?? TRAVELLER_OUTBOX_DEFAULTS.ratePerHour;
  const ratePerDay = options.ratePerDay ?? TRAVELLER_OUTBOX_DEFAULTS.ratePerDay;

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

  /** Before the send: an unknown template fails; for SMS, an opted-out number is skipped, the quiet hours and the rate limit hold. */
  async function check(row: Row): Promise<OutboxCheck | null> {
    if (!isTravellerTemplate(row.template)) return { status: 'failed', reason: `未知模板 ${row.template}` };
    if (row.channel !== 'sms') return null;
    const at = now();
    const optedOut = await db.selectFrom('sms_opt_out').select('mobile').where('mobile', '=', row.to_address).executeTakeFirst();
    if (optedOut) return { status: 'skipped', reason: '该号码已退订短信' };
    if (!row.urgent && inQuietHours(at)) return { hold: quietHoursEnd(at), reason: '夜间免打扰（22:00–08:00），08:00 后发送' };
    const limited = await rateLimitedUntil(row.to_address, at);
    if (limited !== null) return { hold: limited, reason: `该号码短信过于频繁（每小时最多 ${ratePerHour} 条、每天 ${ratePerDay} 条），稍后发送` };
    return null;
  }

  async function send(row: Row): Promise<{ provider_id: string }> {
    const template = row.template as TravellerTemplateKey; // check() failed any other
    const params = JSON.parse(row.params) as Record<string, string>;
    const text = renderTravellerText(template, params);
    if (row.channel === 'sms') return { provider_id: (await sms.send({ to: row.to_address, template, params, text })).id };
    const subject = `【${BRAND}】${TRAVELLER_TEMPLATES[template].subject}`;
    const footer = '此邮件由系统自动发送，请勿回复。';
    const sent = await mailer.send({
      to: row.to_address,
      subject,
      text: `${text}\n\n${footer}\n`,
      html: `<p>${escapeHtml(text)}</p><p style="color:#666">${footer}</p>`,
    });
    return { provider_id: sent.id };
  }

  const outbox = createOutboxJob<Row>({
    name: TRAVELLER_OUTBOX_JOB,
    db,
    table: 'traveller_message',
    idColumn: 'message_id',
    now,
    limits: outboxLimits(TRAVELLER_OUTBOX_DEFAULTS, options),
    atMostOnce: { abandoned: '发送过程中断，无法确认是否已送达，为避免重复未再发送' },
    check,
    send,
    isPermanent: (error) => error instanceof SmsSendError && error.permanent,
    log: options.log,
    what: 'traveller message',
    logIdKey: 'travellerMessageId',
  });
  const drain: () => Promise<TravellerDrainResult> = outbox.drain;
  return { drain, job: outbox.job };
}

export type TravellerOutbox = ReturnType<typeof createTravellerOutbox>;

/** Registers the job; returns the after-commit hook that runs it after the events that may tell a traveller something. */
export function installTravellerOutbox(jobs: JobRunner, outbox: TravellerOutbox, log?: TravellerOutboxOptions['log']) {
  return installOutboxJob(jobs, outbox, { name: 'traveller messages', events: TRAVELLER_EVENTS, log });
}
