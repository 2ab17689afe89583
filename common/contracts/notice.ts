// The customer's notices (消息通知): what the order lifecycle told the
// logged-in account — list (newest first, paged), unread count, mark one or
// all read. Only the caller's own notices: another account's notice answers
// exactly like a missing one (2021).
import { z } from 'zod';
import { defineContract } from './define.ts';
import { noPayload, pageField, rowId } from './fields.ts';

/** Notices per page of the list. */
export const NOTICE_PAGE_SIZE = 10;

export const noticeView = z.object({
  notice_id: z.number(),
  kind: z.string().describe('通知类型，如 material_review_failed（需要重新上传资料）'),
  user_order_id: z.number().nullable(),
  order_no: z.string().nullable().describe('订单号（给人看的）'),
  title: z.string(),
  body: z.string(),
  link: z.string().describe('站内路径：去处理的页面，如 /order/order-reupload/12'),
  read: z.boolean(),
  read_at: z.number().nullable(),
  created_at: z.number(),
});
export type NoticeView = z.infer<typeof noticeView>;

export const noticeList = defineContract({
  path: '/www/notice/notice_list',
  payload: z.object({ page: pageField }),
  result: z.object({ page_data: z.array(noticeView), total_count: z.number(), unread_count: z.number() }),
});
export type NoticeListResult = z.infer<typeof noticeList.result>;

export const noticeUnreadCount = defineContract({
  path: '/www/notice/notice_unread_count',
  payload: noPayload,
  result: z.object({ unread_count: z.number() }),
});

export const noticeRead = defineContract({
  path: '/www/notice/notice_read',
  payload: z.object({ notice_id: rowId }),
  result: z.object({ notice_id: z.number(), read_at: z.number(), unread_count: z.number() }),
});

export const noticeReadAll = defineContract({
  path: '/www/notice/notice_read_all',
  payload: noPayload,
  result: z.object({ marked: z.number().describe('本次标为已读的条数'), unread_count: z.number() }),
});

export const NOTICE_CONTRACTS = [noticeList, noticeUnreadCount, noticeRead, noticeReadAll] as const;
