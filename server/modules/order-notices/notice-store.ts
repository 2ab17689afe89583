// Storing the notices of an order event, inside the lifecycle's transaction:
// the notice rows (once per event and recipient: the unique index makes a
// second insert a no-op) and, for a customer whose account has an e-mail
// address, the outbox row the worker sends after the commit (outbox.ts).
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { NoticeDraft } from './notice-kinds.ts';

/** An address the mailer can use: one @, no spaces, no line breaks (the account form checks more). */
const ADDRESS = /^[^\s@]+@[^\s@]+$/;

/** The e-mail address notices of a customer account go to, or null (then the in-app notice only). */
export async function customerAddress(trx: Transaction<Database>, accountId: number): Promise<string | null> {
  const row = await trx.selectFrom('account').select('email').where('id', '=', accountId).executeTakeFirst();
  const email = row?.email?.trim() ?? '';
  return ADDRESS.test(email) && email.length <= 254 ? email : null;
}

/** The e-mail of one notice, queued for the outbox worker to send after the commit (at once, then its retries). */
export async function queueNoticeEmail(
  trx: Transaction<Database>,
  email: { notice_id: number; to_address: string; subject: string; text: string; html: string },
  at: number,
): Promise<void> {
  await trx
    .insertInto('notice_email')
    .values({ ...email, status: 'pending', next_attempt_at: at, claimed_until: null, claim_token: null, last_error: null, sent_at: null, created_at: at })
    .execute();
}

/** Inserts the notices and their outbox rows; returns how many e-mails were queued. */
export async function storeNotices(trx: Transaction<Database>, drafts: readonly NoticeDraft[]): Promise<number> {
  let queued = 0;
  for (const { email, ...notice } of drafts) {
    const inserted = await trx
      .insertInto('notice')
      .values({ ...notice, read_at: null })
      .onConflict((oc) => oc.columns(['order_event_id', 'recipient_kind', 'recipient_id']).doNothing())
      .returning('notice_id')
      .executeTakeFirst();
    if (!inserted || !email || notice.recipient_kind !== 'customer') continue;
    const address = await customerAddress(trx, notice.recipient_id);
    if (!address) continue;
    await queueNoticeEmail(trx, { notice_id: inserted.notice_id, to_address: address, ...email }, notice.created_at);
    queued += 1;
  }
  return queued;
}
