// What other modules need from the interview step: the places to give back
// when an order ends unpaid, the applicants' chosen times for the order detail,
// and who still has to choose (the confirm step's guard).
import type { Kysely, Transaction } from 'kysely';
import type { ApplicantInterview } from '../../../common/contracts/order.ts';
import type { Database } from '../../db/schema.ts';
import { applySlotChanges } from './interview.repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The interview places an order's applicants hold (to give back when the order ends unpaid). */
export function heldInterviewSlots(db: Db, userOrderId: number): Promise<Array<{ applicant_id: number; interview_slot_id: number }>> {
  return db
    .selectFrom('order_applicant')
    .select(['applicant_id', 'interview_slot_id'])
    .where('user_order_id', '=', userOrderId)
    .where('interview_slot_id', 'is not', null)
    .orderBy('applicant_id')
    .execute() as Promise<Array<{ applicant_id: number; interview_slot_id: number }>>;
}

/**
 * Gives the places back to their slots (never below zero). Runs inside the
 * transaction that cancels or expires the order, after the order row's
 * update (the same lock order as choosing a time: order first, then slots by
 * ascending id); the lifecycle clears the applicants' choices in it too.
 */
export async function giveBackInterviewSlots(trx: Db, held: Array<{ interview_slot_id: number }>): Promise<void> {
  const perSlot = new Map<number, number>();
  for (const row of held) perSlot.set(row.interview_slot_id, (perSlot.get(row.interview_slot_id) ?? 0) + 1);
  await applySlotChanges(
    trx,
    [...perSlot].map(([interviewSlotId, count]) => ({ interviewSlotId, delta: -count })),
  );
}

/** applicant_id → the chosen time and consulate, for the applicants of these orders that have one. */
export async function applicantInterviews(db: Db, userOrderIds: number[]): Promise<Map<number, ApplicantInterview>> {
  if (userOrderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('order_applicant')
    .innerJoin('interview_slot', 'interview_slot.interview_slot_id', 'order_applicant.interview_slot_id')
    .innerJoin('consular_district', 'consular_district.consular_district_id', 'interview_slot.consular_district_id')
    .select([
      'order_applicant.applicant_id',
      'interview_slot.interview_slot_id',
      'interview_slot.slot_date',
      'interview_slot.start_time',
      'interview_slot.end_time',
      'consular_district.consulate_name',
      'consular_district.address as consulate_address',
    ])
    .where('order_applicant.user_order_id', 'in', userOrderIds)
    .execute();
  return new Map(rows.map(({ applicant_id, ...interview }) => [applicant_id, interview]));
}

/** The order's applicants without an interview time (names in the order's sequence); empty when all have one. */
export async function applicantsWithoutInterview(db: Db, userOrderId: number): Promise<Array<{ applicant_id: number; name: string }>> {
  return db
    .selectFrom('order_applicant')
    .select(['applicant_id', 'name'])
    .where('user_order_id', '=', userOrderId)
    .where('interview_slot_id', 'is', null)
    .orderBy('sort')
    .orderBy('applicant_id')
    .execute();
}
