// The interview places an order's applicants hold, and giving them back when
// the order ends unpaid (expire, cancel, close_refund). Part of the engine:
// an ended order releases its places in the same transaction as its change,
// so the lifecycle does it itself instead of importing the interview module
// (issue 24: order/ sits at the bottom). The interview module books places
// with the same counter (interview.repository.ts applySlotChanges).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

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
 * update, slots by ascending id (the same lock order as choosing a time:
 * order first, then slots); the lifecycle clears the applicants' choices in it too.
 */
export async function giveBackInterviewSlots(trx: Db, held: Array<{ interview_slot_id: number }>): Promise<void> {
  const perSlot = new Map<number, number>();
  for (const row of held) perSlot.set(row.interview_slot_id, (perSlot.get(row.interview_slot_id) ?? 0) + 1);
  for (const [interviewSlotId, count] of [...perSlot].sort(([a], [b]) => a - b)) {
    await trx
      .updateTable('interview_slot')
      .set((eb) => ({ booked: eb('booked', '-', count) }))
      .where('interview_slot_id', '=', interviewSlotId)
      .where('booked', '>=', count)
      .execute();
  }
}
