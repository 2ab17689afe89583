// The sandbox courier's own records (table courier_sandbox_waybill, migration
// 008): what SF knows about each waybill. In the database, not in memory, so
// it survives restarts and every app instance sees the same ledger; the pusher
// claims each sending with a conditional update, so two instances never push
// the same event as one (repeats are sent on purpose, see sandbox-pusher.ts).
import { randomInt } from 'node:crypto';
import type { Generated, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SANDBOX_EVENT_COUNT, sandboxTimeline } from './sandbox-tracking.ts';

export type SandboxWaybillTable = {
  waybill_no: string;
  order_id: string;
  request: string;
  origin_city: string;
  destination_city: string;
  created_at: number;
  step_ms: number;
  cancelled_at: number | null;
  next_event: Generated<number>;
  next_push_at: number | null;
  push_attempts: Generated<number>;
  pushes_sent: Generated<number>;
};

/** The sandbox's table; our own schema.ts does not know it (it belongs to the "courier company"). */
export type SandboxCourierTables = {
  courier_sandbox_waybill: SandboxWaybillTable;
};

export type SandboxWaybill = Selectable<SandboxWaybillTable>;

/** SF + 13 digits, like SF's current waybill numbers. */
export function newSandboxWaybillNo(): string {
  return `SF${Array.from({ length: 13 }, () => randomInt(10)).join('')}`;
}

export function createSandboxLedger(database: Kysely<Database>) {
  const db = database.withTables<SandboxCourierTables>();
  const waybills = () => db.selectFrom('courier_sandbox_waybill').selectAll();

  return {
    find(waybillNo: string): Promise<SandboxWaybill | undefined> {
      return waybills().where('waybill_no', '=', waybillNo).executeTakeFirst();
    },

    byOrderId(orderId: string): Promise<SandboxWaybill | undefined> {
      return waybills().where('order_id', '=', orderId).executeTakeFirst();
    },

    /**
     * Opens a waybill with its first push due at the first event. The same
     * order id again answers the waybill it already has (SF's 重复下单), so a
     * retried booking never makes two.
     */
    async open(row: Omit<SandboxWaybill, 'next_event' | 'next_push_at' | 'push_attempts' | 'pushes_sent' | 'cancelled_at'>): Promise<SandboxWaybill> {
      const first = sandboxTimeline({ ...row, cancelled_at: null })[0]!;
      await db
        .insertInto('courier_sandbox_waybill')
        .values({ ...row, cancelled_at: null, next_push_at: first.at })
        .onConflict((oc) => oc.column('order_id').doNothing())
        .execute();
      return (await this.byOrderId(row.order_id))!;
    },

    /** Calls a booking off while nothing has happened to the parcel yet; false otherwise. */
    async cancel(orderId: string, at: number): Promise<boolean> {
      const waybill = await this.byOrderId(orderId);
      if (!waybill) return false;
      if (waybill.cancelled_at !== null) return true;
      const first = sandboxTimeline(waybill)[0]!;
      if (first.at <= at) return false;
      const result = await db
        .updateTable('courier_sandbox_waybill')
        .set({ cancelled_at: at, next_push_at: null })
        .where('order_id', '=', orderId)
        .where('cancelled_at', 'is', null)
        .where('next_event', '=', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Waybills with a push due, soonest first. */
    due(at: number, limit: number): Promise<SandboxWaybill[]> {
      return waybills().where('next_push_at', '<=', at).where('cancelled_at', 'is', null).orderBy('next_push_at').limit(limit).execute();
    },

    /** When the next push of any waybill is due (null: none pending). */
    async nextDueAt(): Promise<number | null> {
      const row = await db
        .selectFrom('courier_sandbox_waybill')
        .select((eb) => eb.fn.min('next_push_at').as('at'))
        .where('cancelled_at', 'is', null)
        .executeTakeFirst();
      return row?.at === null || row?.at === undefined ? null : Number(row.at);
    },

    /**
     * Takes the sending of the waybill's current event for `leaseMs`: true for
     * exactly one claimer of the state it read.
     */
    async claim(waybill: SandboxWaybill, at: number, leaseMs: number): Promise<boolean> {
      if (waybill.next_push_at === null) return false;
      const result = await db
        .updateTable('courier_sandbox_waybill')
        .set({ next_push_at: at + leaseMs })
        .where('waybill_no', '=', waybill.waybill_no)
        .where('next_event', '=', waybill.next_event)
        .where('next_push_at', '=', waybill.next_push_at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * After a sending: delivered (or given up) → on to the next event, due at
     * its time; failed → the same event again at `retryAt`.
     */
    async recordSending(waybill: SandboxWaybill, outcome: { moveOn: true; sent: number } | { moveOn: false; sent: number; retryAt: number }): Promise<void> {
      const timeline = sandboxTimeline(waybill);
      const next = waybill.next_event + 1;
      await db
        .updateTable('courier_sandbox_waybill')
        .set((eb) =>
          outcome.moveOn
            ? {
                next_event: next,
                next_push_at: next < SANDBOX_EVENT_COUNT ? timeline[next]!.at : null,
                push_attempts: 0,
                pushes_sent: eb('pushes_sent', '+', outcome.sent),
              }
            : { next_push_at: outcome.retryAt, push_attempts: eb('push_attempts', '+', 1), pushes_sent: eb('pushes_sent', '+', outcome.sent) },
        )
        .where('waybill_no', '=', waybill.waybill_no)
        .where('next_event', '=', waybill.next_event)
        .execute();
    },
  };
}

export type SandboxLedger = ReturnType<typeof createSandboxLedger>;
