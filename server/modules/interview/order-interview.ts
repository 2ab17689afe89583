// What other modules need from the interview step: the applicants' chosen
// times for the order detail, and who still has to choose (the confirm step's
// guard). Giving places back when an order ends unpaid is the lifecycle's own
// (order/interview-places.ts).
import type { Kysely, Transaction } from 'kysely';
import type { ApplicantInterview } from '../../../common/contracts/order.ts';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

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
