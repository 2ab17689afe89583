// Interview queries. Reads are scoped to the caller's enterprise through the
// order; the booking itself is one transaction that first takes the order row
// (version bump, still a draft) and then changes the slots' counters in
// ascending slot id order, so two bookings never wait on each other in a cycle.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { slotRows } from './slot-plan.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface SlotChange {
  /** Booked places to add (positive) or give back (negative). */
  delta: number;
  interviewSlotId: number;
}

export function createInterviewRepository(db: Kysely<Database>) {
  return {
    district(consularDistrictId: number) {
      return db.selectFrom('consular_district').selectAll().where('consular_district_id', '=', consularDistrictId).executeTakeFirst();
    },

    /** 'MM-DD' → name of the days the country's missions are closed. */
    async nationalDays(visaCountryId: number): Promise<Map<string, string>> {
      const rows = await db.selectFrom('country_national_day').select(['month_day', 'name']).where('visa_country_id', '=', visaCountryId).execute();
      return new Map(rows.map((row) => [row.month_day, row.name]));
    },

    /**
     * The days the district's consulate is closed: the country's national days
     * ('MM-DD', every year) and the district's own closures ('YYYY-MM-DD',
     * set in the back office), as consulateDay reads them.
     */
    async closedDays(district: { consular_district_id: number; visa_country_id: number }): Promise<Map<string, string>> {
      const days = await this.nationalDays(district.visa_country_id);
      const closures = await db
        .selectFrom('interview_closure')
        .select(['closure_date', 'reason'])
        .where('consular_district_id', '=', district.consular_district_id)
        .execute();
      for (const row of closures) days.set(row.closure_date, row.reason);
      return days;
    },

    /** The order's applicants with their current slot (if any). */
    applicants(userOrderId: number) {
      return db
        .selectFrom('order_applicant')
        .leftJoin('interview_slot', 'interview_slot.interview_slot_id', 'order_applicant.interview_slot_id')
        .select([
          'order_applicant.applicant_id',
          'order_applicant.name',
          'order_applicant.interview_slot_id',
          'interview_slot.slot_date',
          'interview_slot.start_time',
          'interview_slot.end_time',
        ])
        .where('order_applicant.user_order_id', '=', userOrderId)
        .orderBy('order_applicant.sort')
        .orderBy('order_applicant.applicant_id')
        .execute();
    },

    /**
     * Makes sure the district has its slots on these days. Only days without
     * any slot are generated; ON CONFLICT DO NOTHING lets a concurrent
     * generator of the same day win quietly.
     */
    async ensureSlots(consularDistrictId: number, dates: string[]): Promise<void> {
      if (dates.length === 0) return;
      const existing = await db
        .selectFrom('interview_slot')
        .select('slot_date')
        .distinct()
        .where('consular_district_id', '=', consularDistrictId)
        .where('slot_date', 'in', dates)
        .execute();
      const have = new Set(existing.map((row) => row.slot_date));
      const rows = dates.filter((date) => !have.has(date)).flatMap((date) => slotRows(consularDistrictId, date));
      for (let i = 0; i < rows.length; i += 200) {
        await db
          .insertInto('interview_slot')
          .values(rows.slice(i, i + 200))
          .onConflict((oc) => oc.columns(['consular_district_id', 'slot_date', 'start_time']).doNothing())
          .execute();
      }
    },

    slotsBetween(consularDistrictId: number, from: string, to: string) {
      return db
        .selectFrom('interview_slot')
        .selectAll()
        .where('consular_district_id', '=', consularDistrictId)
        .where('slot_date', '>=', from)
        .where('slot_date', '<=', to)
        .orderBy('slot_date')
        .orderBy('start_time')
        .execute();
    },

    slotsById(ids: number[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('interview_slot').selectAll().where('interview_slot_id', 'in', ids).execute();
    },
  };
}

/**
 * Applies the counter changes in ascending slot id order. A positive change
 * only happens while the places last (`booked + n <= capacity`: the row lock
 * of the UPDATE serialises concurrent bookings of one slot, and the loser
 * re-reads the row before deciding); returns the first slot that had no room,
 * or null. A negative change never goes below zero.
 */
export async function applySlotChanges(trx: Db, changes: SlotChange[]): Promise<number | null> {
  const sorted = changes.filter((change) => change.delta !== 0).sort((a, b) => a.interviewSlotId - b.interviewSlotId);
  for (const { interviewSlotId, delta } of sorted) {
    let update = trx
      .updateTable('interview_slot')
      .set((eb) => ({ booked: eb('booked', '+', delta) }))
      .where('interview_slot_id', '=', interviewSlotId);
    update = delta > 0 ? update.where((eb) => eb(eb('booked', '+', delta), '<=', eb.ref('capacity'))) : update.where('booked', '>=', -delta);
    const result = await update.executeTakeFirst();
    if (delta > 0 && Number(result.numUpdatedRows) !== 1) return interviewSlotId;
  }
  return null;
}

export type InterviewRepository = ReturnType<typeof createInterviewRepository>;
