// The customer's notices: list, unread count, mark read. Every read and write
// is scoped to the caller's own account (recipient_kind 'customer',
// recipient_id = account id): another account's notice is 2021 like a missing
// one. The operators' notices are the same table with recipient_kind 'operator'.
import type { Kysely } from 'kysely';
import { NOTICE_PAGE_SIZE, type NoticeListResult, type NoticeView } from '../../../common/contracts/notice.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { orderNumber } from '../../../common/order-number.ts';
import type { Database, NoticeRecipientKind } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Customer } from '../../platform/principal.ts';

interface Recipient {
  kind: NoticeRecipientKind;
  id: number;
}

const ofCustomer = (caller: Customer): Recipient => ({ kind: 'customer', id: caller.accountId });

export function createNoticeService(db: Kysely<Database>, deps: { now: () => number }) {
  const mine = (recipient: Recipient) => db.selectFrom('notice').where('recipient_kind', '=', recipient.kind).where('recipient_id', '=', recipient.id);

  async function unreadCount(recipient: Recipient): Promise<number> {
    const row = await mine(recipient)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  return {
    async list(caller: Customer, page: number): Promise<NoticeListResult> {
      const recipient = ofCustomer(caller);
      const [rows, total, unread] = await Promise.all([
        mine(recipient)
          .selectAll()
          .orderBy('notice_id', 'desc')
          .limit(NOTICE_PAGE_SIZE)
          .offset((page - 1) * NOTICE_PAGE_SIZE)
          .execute(),
        mine(recipient)
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .executeTakeFirstOrThrow(),
        unreadCount(recipient),
      ]);
      const orderIds = [...new Set(rows.flatMap((row) => (row.user_order_id === null ? [] : [row.user_order_id])))];
      const orders = orderIds.length
        ? await db.selectFrom('user_order').select(['user_order_id', 'order_no', 'created_at']).where('user_order_id', 'in', orderIds).execute()
        : [];
      const orderNoOf = new Map(orders.map((o) => [o.user_order_id, o.order_no ?? orderNumber(o.user_order_id, o.created_at)]));
      return {
        page_data: rows.map((row): NoticeView => ({
          notice_id: row.notice_id,
          kind: row.kind,
          user_order_id: row.user_order_id,
          order_no: row.user_order_id === null ? null : (orderNoOf.get(row.user_order_id) ?? null),
          title: row.title,
          body: row.body,
          link: row.link,
          read: row.read_at !== null,
          read_at: row.read_at,
          created_at: row.created_at,
        })),
        total_count: Number(total.count),
        unread_count: unread,
      };
    },

    unreadCount: (caller: Customer) => unreadCount(ofCustomer(caller)),

    /** Marks one of the caller's notices read (again: keeps the first time). */
    async markRead(caller: Customer, noticeId: number) {
      const recipient = ofCustomer(caller);
      const at = deps.now();
      await db
        .updateTable('notice')
        .set({ read_at: at })
        .where('notice_id', '=', noticeId)
        .where('recipient_kind', '=', recipient.kind)
        .where('recipient_id', '=', recipient.id)
        .where('read_at', 'is', null)
        .execute();
      const row = await mine(recipient).select('read_at').where('notice_id', '=', noticeId).executeTakeFirst();
      if (!row || row.read_at === null) throw new AppError(ErrorCode.NOTICE_NOT_FOUND);
      return { notice_id: noticeId, read_at: row.read_at, unread_count: await unreadCount(recipient) };
    },

    async markAllRead(caller: Customer) {
      const recipient = ofCustomer(caller);
      const result = await db
        .updateTable('notice')
        .set({ read_at: deps.now() })
        .where('recipient_kind', '=', recipient.kind)
        .where('recipient_id', '=', recipient.id)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      return { marked: Number(result.numUpdatedRows), unread_count: await unreadCount(recipient) };
    },
  };
}

export type NoticeService = ReturnType<typeof createNoticeService>;
