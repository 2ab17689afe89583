// The scheduled reminders (issue 29 part 5, decision 0047), three jobs of the
// app's one runner (server/platform/jobs.ts), each reading the app clock:
// - reminder-expiry: an unpaid order (draft, pending_payment) whose 24 h end
//   within EXPIRY_WARNING_MS — the customer is warned before the expiry sweep
//   cancels it (docs/order-rules.md, "Expiry of unpaid orders").
// - reminder-interview: the day before an applicant's published interview or
//   biometrics appointment (interview_notice; China time, from 09:00), with
//   its place and time — once per applicant and appointment, so a new time
//   is told again.
// - reminder-departure: a processing order whose departure date is at risk
//   (order/sla.ts departureRisk: fewer working days left than the processing
//   still needs, no result yet) — the customer and the operator (the
//   assignee; the active supervisors when nobody took the order) are told,
//   once per order and departure date.
// Once: each reminder is a reminder_sent row (kind, order, applicant,
// occasion) inserted in the same transaction as its notices; the unique index
// makes a second insert — another sweep, another instance — a no-op, and then
// no notice is written. The notices are the order notices' (site notice, and
// for the customer the e-mail outbox when the account has an address), sent
// after the commit by the outbox (pokeOutbox).
import type { Kysely, Transaction } from 'kysely';
import { addDays, chinaDate, type OrderStep } from '../../../common/order.ts';
import { orderNumber } from '../../../common/order-number.ts';
import type { Database } from '../../db/schema.ts';
import type { JobSpec } from '../../platform/jobs.ts';
import { departureRisk } from '../order/sla.ts';
import { customerAddress, queueNoticeEmail } from '../order-notices/notice-store.ts';
import { noticeEmail } from '../order-notices/notice-kinds.ts';
import {
  departureAtRiskCustomer,
  departureAtRiskOperator,
  expiryWarning,
  interviewTomorrow,
  type ReminderKind,
  type ReminderOrder,
  type ReminderText,
} from './reminder-kinds.ts';

export const REMINDER_JOBS = { expiry: 'reminder-expiry', interview: 'reminder-interview', departure: 'reminder-departure' } as const;

/** The warning comes this long before an unpaid order's automatic cancellation. */
export const EXPIRY_WARNING_MS = 30 * 60_000;
/** The interview reminder is sent on the day before, from this hour (China time): not at midnight. */
export const INTERVIEW_REMINDER_FROM_HOUR = 9;

const CHINA_OFFSET_MS = 8 * 3_600_000;

export interface ReminderDeps {
  now: () => number;
  /** Runs the e-mail outbox after a commit that queued e-mails. */
  pokeOutbox: () => void;
  log?: { info?(object: object, message: string): void };
}

interface Recipient {
  kind: 'customer' | 'operator';
  id: number;
}

interface Send {
  kind: ReminderKind;
  user_order_id: number;
  /** 0: the order as a whole. */
  applicant_id: number;
  occasion: string;
  notices: Array<{ to: Recipient; text: ReminderText }>;
}

const orderOf = (row: { user_order_id: number; order_no: string | null; created_at: number; product_title: string }): ReminderOrder => ({
  user_order_id: row.user_order_id,
  order_no: row.order_no ?? orderNumber(row.user_order_id, row.created_at),
  product_title: row.product_title,
});

export function createReminders(db: Kysely<Database>, deps: ReminderDeps) {
  const { now } = deps;

  /** The reminders of these orders and this kind already sent, as `${order}:${applicant}:${occasion}`. */
  async function alreadySent(kind: ReminderKind, orderIds: number[]): Promise<Set<string>> {
    if (orderIds.length === 0) return new Set();
    const rows = await db
      .selectFrom('reminder_sent')
      .select(['user_order_id', 'applicant_id', 'occasion'])
      .where('kind', '=', kind)
      .where('user_order_id', 'in', orderIds)
      .execute();
    return new Set(rows.map((row) => `${row.user_order_id}:${row.applicant_id}:${row.occasion}`));
  }

  async function insertNotice(trx: Transaction<Database>, send: Send, to: Recipient, text: ReminderText, at: number): Promise<boolean> {
    const { notice_id } = await trx
      .insertInto('notice')
      .values({
        recipient_kind: to.kind,
        recipient_id: to.id,
        kind: send.kind,
        user_order_id: send.user_order_id,
        ...text,
        order_event_id: null,
        read_at: null,
        created_at: at,
      })
      .returning('notice_id')
      .executeTakeFirstOrThrow();
    if (to.kind !== 'customer') return false;
    const address = await customerAddress(trx, to.id);
    if (!address) return false;
    await queueNoticeEmail(trx, { notice_id, to_address: address, ...noticeEmail(text) }, at);
    return true;
  }

  /** Records the reminder and writes its notices in one transaction; false when it was sent before (by anyone). */
  async function send(item: Send): Promise<{ sent: boolean; queued: boolean }> {
    const at = now();
    return db.transaction().execute(async (trx) => {
      const recorded = await trx
        .insertInto('reminder_sent')
        .values({ kind: item.kind, user_order_id: item.user_order_id, applicant_id: item.applicant_id, occasion: item.occasion, sent_at: at })
        .onConflict((oc) => oc.columns(['kind', 'user_order_id', 'applicant_id', 'occasion']).doNothing())
        .returning('reminder_sent_id')
        .executeTakeFirst();
      if (!recorded) return { sent: false, queued: false };
      let queued = false;
      for (const notice of item.notices) queued = (await insertNotice(trx, item, notice.to, notice.text, at)) || queued;
      return { sent: true, queued };
    });
  }

  /** Sends each (skipping those recorded already); pokes the outbox once if any queued an e-mail; returns how many were sent. */
  async function sendAll(kind: ReminderKind, items: Send[]): Promise<number> {
    const known = await alreadySent(kind, [...new Set(items.map((item) => item.user_order_id))]);
    let sent = 0;
    let queued = false;
    for (const item of items) {
      if (known.has(`${item.user_order_id}:${item.applicant_id}:${item.occasion}`)) continue;
      const result = await send(item);
      if (result.sent) sent += 1;
      queued ||= result.queued;
    }
    if (queued) deps.pokeOutbox();
    if (sent > 0) deps.log?.info?.({ kind, sent }, 'reminders sent');
    return sent;
  }

  /** Unpaid orders whose automatic cancellation is less than EXPIRY_WARNING_MS away. */
  async function expiryWarnings(): Promise<number> {
    const at = now();
    const rows = await db
      .selectFrom('user_order')
      .select(['user_order_id', 'order_no', 'created_at', 'product_title', 'account_id', 'expires_at'])
      .where('status', 'in', ['draft', 'pending_payment'])
      .where('expires_at', '>', at)
      .where('expires_at', '<=', at + EXPIRY_WARNING_MS)
      .execute();
    return sendAll(
      'expiry_warning',
      rows.map((row) => ({
        kind: 'expiry_warning',
        user_order_id: row.user_order_id,
        applicant_id: 0,
        occasion: String(row.expires_at),
        notices: [{ to: { kind: 'customer', id: row.account_id }, text: expiryWarning(orderOf(row), Number(row.expires_at), at) }],
      })),
    );
  }

  /** Appointments tomorrow (China time) of applicants of processing orders; from INTERVIEW_REMINDER_FROM_HOUR. */
  async function interviewReminders(): Promise<number> {
    const at = now();
    const hour = new Date(at + CHINA_OFFSET_MS).getUTCHours();
    if (hour < INTERVIEW_REMINDER_FROM_HOUR) return 0;
    const tomorrow = addDays(chinaDate(at), 1);
    const rows = await db
      .selectFrom('interview_notice')
      .innerJoin('user_order', 'user_order.user_order_id', 'interview_notice.user_order_id')
      .innerJoin('order_applicant', 'order_applicant.applicant_id', 'interview_notice.applicant_id')
      .select([
        'user_order.user_order_id',
        'user_order.order_no',
        'user_order.created_at',
        'user_order.product_title',
        'user_order.account_id',
        'interview_notice.applicant_id',
        'order_applicant.name as applicant_name',
        'interview_notice.interview_date',
        'interview_notice.start_time',
        'interview_notice.end_time',
        'interview_notice.consulate_name',
        'interview_notice.consulate_address',
        'interview_notice.telephone',
      ])
      .where('interview_notice.interview_date', '=', tomorrow)
      .where('user_order.status', '=', 'processing')
      // An applicant with a result (issued, refused) has no appointment left to keep.
      .where('order_applicant.status', '=', 'pending')
      .orderBy('interview_notice.interview_notice_id')
      .execute();
    return sendAll(
      'interview_tomorrow',
      rows.map((row) => ({
        kind: 'interview_tomorrow',
        user_order_id: row.user_order_id,
        applicant_id: row.applicant_id,
        occasion: `${row.interview_date} ${row.start_time}`,
        notices: [{ to: { kind: 'customer', id: row.account_id }, text: interviewTomorrow(orderOf(row), row) }],
      })),
    );
  }

  /** Processing orders whose departure date is at risk: the customer, and the assignee or the supervisors. */
  async function departureReminders(): Promise<number> {
    const at = now();
    const today = chinaDate(at);
    const longest = await db
      .selectFrom('visa_product')
      .select((eb) => eb.fn.max('need_days').as('n'))
      .executeTakeFirst();
    // Working days → calendar days, with room for the longest holiday (Golden Week): past this no order can be at risk.
    const horizon = addDays(today, Number(longest?.n ?? 0) * 2 + 21);
    const rows = await db
      .selectFrom('user_order')
      .innerJoin('visa_product', 'visa_product.visa_product_id', 'user_order.visa_product_id')
      .select([
        'user_order.user_order_id',
        'user_order.order_no',
        'user_order.created_at',
        'user_order.product_title',
        'user_order.account_id',
        'user_order.assignee_operator_id',
        'user_order.status',
        'user_order.step',
        'user_order.departure_date',
        'user_order.step_entered_at',
        'visa_product.need_days',
      ])
      .where('user_order.status', '=', 'processing')
      .where('user_order.step', 'is not', null)
      .where('user_order.departure_date', '>=', today)
      .where('user_order.departure_date', '<=', horizon)
      .orderBy('user_order.user_order_id')
      .execute();
    const atRisk = rows.flatMap((row) => {
      const risk = departureRisk({ ...row, step: row.step as OrderStep }, row.need_days, at);
      return risk ? [{ row, risk: { ...risk, departure_date: row.departure_date } }] : [];
    });
    if (atRisk.length === 0) return 0;
    const supervisors = atRisk.some(({ row }) => row.assignee_operator_id === null)
      ? (await db.selectFrom('operator').select('id').where('role', '=', 'supervisor').where('status', '=', 'active').orderBy('id').execute()).map((r) => r.id)
      : [];
    return sendAll(
      'departure_at_risk',
      atRisk.map(({ row, risk }) => {
        const order = orderOf(row);
        const operators = row.assignee_operator_id !== null ? [row.assignee_operator_id] : supervisors;
        return {
          kind: 'departure_at_risk',
          user_order_id: row.user_order_id,
          applicant_id: 0,
          occasion: row.departure_date,
          notices: [
            { to: { kind: 'customer', id: row.account_id }, text: departureAtRiskCustomer(order, risk) },
            ...operators.map((id) => ({ to: { kind: 'operator' as const, id }, text: departureAtRiskOperator(order, risk) })),
          ],
        };
      }),
    );
  }

  return {
    expiryWarnings,
    interviewReminders,
    departureReminders,
    /** The three jobs of the app's runner. */
    jobs(): JobSpec[] {
      return [
        // Every minute, like the expiry sweep: the warning is never late by more than a minute of its 30.
        { name: REMINDER_JOBS.expiry, intervalMs: 60_000, run: expiryWarnings },
        { name: REMINDER_JOBS.interview, intervalMs: 10 * 60_000, run: interviewReminders },
        { name: REMINDER_JOBS.departure, intervalMs: 60 * 60_000, run: departureReminders },
      ];
    },
  };
}

export type Reminders = ReturnType<typeof createReminders>;
