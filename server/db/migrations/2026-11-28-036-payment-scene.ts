// Frozen in time: never import application code here.
// Where a payment was opened (issue 25, decision 0036): 'qr' — a desktop
// browser showed the QR code of code_url; 'phone' — a phone browser was sent
// to the wallet, and code_url holds that wallet page's URL (WeChat Pay's
// h5_url, Alipay's WAP URL). Every payment before this one was a QR code.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('payment')
    .addColumn('scene', 'varchar(10)', (col) => col.notNull().defaultTo('qr'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment').dropColumn('scene').execute();
}
