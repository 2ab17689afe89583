// Interview notice queries (migration 014): the published notices of an
// order, its change requests, the applicants with their current slot and the
// checklist's bring-to-the-consulate items (attr 2) per identity.
import type { Kysely, Transaction } from 'kysely';
import { fromJson, toJson } from '../../db/json.ts';
import type { Database, InterviewChangeStatus } from '../../db/schema.ts';
import { subFrom } from '../order/lifecycle.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface NoticeWrite {
  user_order_id: number;
  applicant_id: number;
  interview_date: string;
  start_time: string;
  end_time: string;
  consulate_name: string;
  consulate_address: string;
  process: string;
  attention: string;
  telephone: string;
  materials: string[];
  published_by: number;
  at: number;
}

export function createInterviewNoticeRepository(db: Kysely<Database>) {
  return {
    /** The order's applicants (in the order's sequence) with their current slot. */
    applicants(userOrderId: number) {
      return db
        .selectFrom('order_applicant')
        .leftJoin('interview_slot', 'interview_slot.interview_slot_id', 'order_applicant.interview_slot_id')
        .select([
          'order_applicant.applicant_id',
          'order_applicant.name',
          'order_applicant.identity_id',
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

    async notices(userOrderId: number) {
      const rows = await db.selectFrom('interview_notice').selectAll().where('user_order_id', '=', userOrderId).execute();
      return rows.map((row) => ({ ...row, materials: fromJson(row.materials) }));
    },

    /** Every change request of the order with its target slot, newest first. */
    requests(userOrderId: number) {
      return db
        .selectFrom('interview_change_request as r')
        .innerJoin('interview_slot as s', 's.interview_slot_id', 'r.to_slot_id')
        .select([
          'r.change_request_id',
          'r.applicant_id',
          'r.from_slot_id',
          'r.to_slot_id',
          'r.reason',
          'r.status',
          'r.decline_reason',
          'r.created_at',
          'r.decided_at',
          's.slot_date',
          's.start_time',
          's.end_time',
          's.capacity',
          's.booked',
        ])
        .where('r.user_order_id', '=', userOrderId)
        .orderBy('r.change_request_id', 'desc')
        .execute();
    },

    /** The order's bring-to-the-consulate items (attr 2) of these identities, in the checklist's order. */
    async bringItems(userOrderId: number): Promise<Map<number, string[]>> {
      const rows = await db
        .selectFrom('order_checklist_item')
        .select(['identity_id', 'name'])
        .where('user_order_id', '=', userOrderId)
        .where('attr', '=', 2)
        .orderBy('sort')
        .orderBy('material_id')
        .execute();
      const byIdentity = new Map<number, string[]>();
      for (const row of rows) byIdentity.set(row.identity_id, [...(byIdentity.get(row.identity_id) ?? []), row.name]);
      return byIdentity;
    },

    /** Publishes (or republishes) an applicant's notice; returns its id. */
    async upsertNotice(trx: Db, notice: NoticeWrite): Promise<number> {
      const { at, materials, ...fields } = notice;
      const values = { ...fields, materials: toJson(materials), published_at: at, updated_at: at };
      const row = await trx
        .insertInto('interview_notice')
        .values(values)
        .onConflict((oc) =>
          oc.column('applicant_id').doUpdateSet({
            interview_date: fields.interview_date,
            start_time: fields.start_time,
            end_time: fields.end_time,
            consulate_name: fields.consulate_name,
            consulate_address: fields.consulate_address,
            process: fields.process,
            attention: fields.attention,
            telephone: fields.telephone,
            materials: toJson(materials),
            published_by: fields.published_by,
            updated_at: at,
          }),
        )
        .returning('interview_notice_id')
        .executeTakeFirstOrThrow();
      return row.interview_notice_id;
    },

    /** The notice follows an accepted change: the new slot's date and time. */
    async moveNotice(trx: Db, applicantId: number, slot: { slot_date: string; start_time: string; end_time: string }, at: number) {
      await trx
        .updateTable('interview_notice')
        .set({ interview_date: slot.slot_date, start_time: slot.start_time, end_time: slot.end_time, updated_at: at })
        .where('applicant_id', '=', applicantId)
        .execute();
    },

    async insertRequest(
      trx: Db,
      request: { user_order_id: number; applicant_id: number; from_slot_id: number | null; to_slot_id: number; reason: string | null; at: number },
    ): Promise<number> {
      const { at, ...fields } = request;
      const row = await trx
        .insertInto('interview_change_request')
        .values({ ...fields, status: 'open', created_at: at })
        .returning('change_request_id')
        .executeTakeFirstOrThrow();
      return row.change_request_id;
    },

    /** Closes an open request; false when it was no longer open. */
    async decide(trx: Db, changeRequestId: number, decision: { status: InterviewChangeStatus; by: number; at: number; declineReason?: string | null }) {
      const result = await trx
        .updateTable('interview_change_request')
        .set({ status: decision.status, decided_by: decision.by, decided_at: decision.at, decline_reason: decision.declineReason ?? null })
        .where('change_request_id', '=', changeRequestId)
        .where('status', 'in', subFrom('interview_change', decision.status === 'accepted' ? 'accept' : 'decline'))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
