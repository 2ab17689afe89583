// The customer's notice calls (消息通知). Each needs a session and touches only
// the caller's own notices.
import { noticeList, noticeRead, noticeReadAll, noticeUnreadCount } from '../../../common/contracts/notice.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { NoticeService } from './notice.service.ts';

const TAG = '消息通知';

export function noticeOperations(service: NoticeService) {
  return [
    defineOperation({
      ...noticeList,
      tag: TAG,
      summary: '消息列表：当前账号的通知，最新在前，每页 10 条，附未读数',
      description: '订单需要客户处理（如资料审核未通过需重新上传）或有进展（如资料审核通过）时，系统在同一事务中写入通知；link 为去处理的站内页面。',
      auth: 'customer',
      errors: [],
      handle: ({ page }, context) => service.list(context.caller, page),
    }),
    defineOperation({
      ...noticeUnreadCount,
      tag: TAG,
      summary: '未读消息数（页头铃铛的数字）',
      auth: 'customer',
      errors: [],
      handle: async (_payload, context) => ({ unread_count: await service.unreadCount(context.caller) }),
    }),
    defineOperation({
      ...noticeRead,
      tag: TAG,
      summary: '标记一条消息为已读（已读的再次标记不改变已读时间）',
      auth: 'customer',
      errors: [ErrorCode.NOTICE_NOT_FOUND],
      handle: ({ notice_id }, context) => service.markRead(context.caller, notice_id),
    }),
    defineOperation({
      ...noticeReadAll,
      tag: TAG,
      summary: '全部标为已读',
      auth: 'customer',
      errors: [],
      handle: (_payload, context) => service.markAllRead(context.caller),
    }),
  ];
}
