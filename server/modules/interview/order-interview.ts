// What other modules need from the interview step: the applicants' chosen
// times for the order detail, and who still has to choose (the confirm step's
// guard). Giving places back when an order ends unpaid is the lifecycle's own
// (order/interview-places.ts).
import type { Kysely, Transaction } from 'kysely';
import type { ApplicantInterview } from '../../../common/contracts/order.ts';
import { interviewPlaceName } from '../../../common/interview-place.ts';
import type { Database } from '../../db/schema.ts';
import { interviewPlaceKinds } from './interview-place.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** applicant_id → the chosen time and place (the product's: a visa centre or the consulate), for the applicants of these orders that have one. */
export async function applicantInterviews(db: Db, userOrderIds: number[]): Promise<Map<number, ApplicantInterview>> {
  if (userOrderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('order_applicant')
    .innerJoin('interview_slot', 'interview_slot.interview_slot_id', 'order_applicant.interview_slot_id')
    .innerJoin('consular_district', 'consular_district.consular_district_id', 'interview_slot.consular_district_id')
    .innerJoin('user_order', 'user_order.user_order_id', 'order_applicant.user_order_id')
    .select([
      'order_applicant.applicant_id',
      'interview_slot.interview_slot_id',
      'interview_slot.slot_date',
      'interview_slot.start_time',
      'interview_slot.end_time',
      'consular_district.consulate_name',
      'consular_district.city',
      'consular_district.address as consulate_address',
      'user_order.visa_product_id',
      'user_order.country',
    ])
    .where('order_applicant.user_order_id', 'in', userOrderIds)
    .execute();
  // The place the product names (a visa centre or the consulate).
  const kinds = await interviewPlaceKinds(
    db,
    rows.map((row) => row.visa_product_id),
  );
  return new Map(
    rows.map(({ applicant_id, city, visa_product_id, country, consulate_name, ...interview }) => [
      applicant_id,
      { ...interview, consulate_name: interviewPlaceName(kinds.get(visa_product_id) ?? 'consulate', { consulate_name, city }, country) },
    ]),
  );
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
