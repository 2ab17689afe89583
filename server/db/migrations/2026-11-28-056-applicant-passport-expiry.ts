// Frozen in time: never import application code here.
// The applicant's passport expiry (issue 28): read from a confirmed passport
// scan, taken from a saved traveller or typed, so the confirm page and the
// order detail can warn when the passport runs out less than six months
// after the departure date (most consulates refuse such an application).
// 'YYYY-MM-DD' or null; the same column type as traveller.passport_expiry.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_applicant').addColumn('passport_expiry', 'varchar(10)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_applicant').dropColumn('passport_expiry').execute();
}
