// Test fixtures of the confirm step: what the upload and interview steps
// would have stored, written straight into the database so these tests do
// not depend on those steps. Not a test file itself.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { missingMaterials } from '../material/material-progress.ts';

let files = 0;
let slots = 0;

/** One stored file for every required electronic material and photo still missing. */
export async function completeMaterials(db: Kysely<Database>, userOrderId: number, accountId: number): Promise<number> {
  const missing = await missingMaterials(db, userOrderId);
  for (const item of missing) {
    files += 1;
    await db
      .insertInto('order_material_file')
      .values({
        user_order_id: userOrderId,
        applicant_id: item.applicant_id,
        material_id: item.material_id,
        kind: item.material_id === null ? 'photo' : 'material',
        storage_key: `test/${userOrderId}/${item.applicant_id}/${files}-${Math.random().toString(36).slice(2)}`,
        file_name: `${item.name}.jpg`,
        content_type: 'image/jpeg',
        size_bytes: 1024,
        sha256: '0'.repeat(64),
        account_id: accountId,
        created_at: 0,
      })
      .execute();
  }
  return missing.length;
}

/** A slot of the order's consulate on `slotDate`, taken by every applicant. */
export async function bookInterviews(db: Kysely<Database>, userOrderId: number, slotDate: string): Promise<number> {
  const order = await db
    .selectFrom('user_order')
    .select(['consular_district_id', 'applicant_count'])
    .where('user_order_id', '=', userOrderId)
    .executeTakeFirstOrThrow();
  if (order.consular_district_id === null) throw new Error('the order has no consular district');
  // A start time of its own: (district, date, start) is unique.
  slots += 1;
  const startTime = `${String(8 + Math.floor(slots / 60)).padStart(2, '0')}:${String(slots % 60).padStart(2, '0')}`;
  const { interview_slot_id } = await db
    .insertInto('interview_slot')
    .values({
      consular_district_id: order.consular_district_id,
      slot_date: slotDate,
      start_time: startTime,
      end_time: '17:00',
      capacity: 20,
      booked: order.applicant_count,
    })
    .returning('interview_slot_id')
    .executeTakeFirstOrThrow();
  await db.updateTable('order_applicant').set({ interview_slot_id }).where('user_order_id', '=', userOrderId).execute();
  return interview_slot_id;
}
