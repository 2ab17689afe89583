// The back office's order calls (/admin-api/order/…, operator sessions only):
// the queue and its filters, take, assign (supervisors), each file's review,
// and the file access log (supervisors). The workbench is order-view's
// (server/modules/order-view/workbench.routes.ts).
import {
  adminFileAccessLog,
  adminFileReview,
  adminOrderAssign,
  adminOrderAssignMany,
  adminOrderQueue,
  adminOrderTake,
  adminOrderTakeMany,
  adminQueueFilters,
  adminQueueView,
  adminQueueViewSave,
} from '../../../common/contracts/admin-order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { AdminFileAccessLog } from '../../../common/contracts/admin-order.ts';
import type { ReviewQueue } from './queue.ts';
import type { ReviewService } from './review.service.ts';

const TAG = '后台 · 订单审核';
export function reviewOperations(deps: {
  review: ReviewService;
  queue: ReviewQueue;
  accessLog: (input: { operator_id?: number; user_order_id?: number; page: number }) => Promise<AdminFileAccessLog>;
}) {
  const { review, queue, accessLog } = deps;
  return [
    defineOperation({
      ...adminOrderQueue,
      tag: TAG,
      summary: '工作队列：已支付的办理中订单，按步骤、国家、领区、办理人员筛选，按订单号、申请人姓名或手机号搜索；已逾期的在前',
      description: '每行的停留时长、到期时间（中国工作日）、是否逾期、出发日期是否有风险均由服务器按数据库中的时间计算。',
      auth: 'operator',
      errors: [],
      handle: (payload, { caller }) => queue.queue(caller, payload),
    }),
    defineOperation({
      ...adminQueueFilters,
      tag: TAG,
      summary: '工作队列的筛选项：步骤、国家、领区、在职人员',
      auth: 'operator',
      errors: [],
      handle: () => queue.filters(),
    }),
    defineOperation({
      ...adminOrderTake,
      tag: TAG,
      summary: '领取订单（分配给自己）：只能领取未分配的订单；已是自己的订单不变',
      auth: 'operator',
      errors: [ErrorCode.ORDER_NOT_FOUND, ErrorCode.ORDER_STATE_INVALID, ErrorCode.REVIEW_ALREADY_TAKEN, ErrorCode.ORDER_CONFLICT],
      handle: ({ user_order_id }, { caller }) => review.take(caller, user_order_id),
    }),
    defineOperation({
      ...adminOrderAssign,
      tag: TAG,
      summary: '分配订单给一位在职人员（主管）',
      auth: 'supervisor',
      errors: [ErrorCode.ORDER_NOT_FOUND, ErrorCode.ORDER_STATE_INVALID, ErrorCode.REVIEW_OPERATOR_NOT_FOUND, ErrorCode.ORDER_CONFLICT],
      handle: ({ user_order_id, operator_id }, { caller }) => review.assign(caller, user_order_id, operator_id),
    }),
    defineOperation({
      ...adminOrderTakeMany,
      tag: TAG,
      summary: '批量领取：逐单领取，每单的结果（成功，或该单单独领取时的错误码和中文原因）分别返回',
      description: '每单各自一个事务：某单失败（已被他人领取、不存在、不在办理中）不影响其他订单。',
      auth: 'operator',
      errors: [],
      handle: ({ user_order_ids }, { caller }) => review.takeMany(caller, user_order_ids),
    }),
    defineOperation({
      ...adminOrderAssignMany,
      tag: TAG,
      summary: '批量分配给一位在职人员（主管）：逐单分配，每单的结果分别返回',
      auth: 'supervisor',
      errors: [ErrorCode.REVIEW_ASSIGN_FORBIDDEN, ErrorCode.REVIEW_OPERATOR_NOT_FOUND],
      handle: ({ user_order_ids, operator_id }, { caller }) => review.assignMany(caller, user_order_ids, operator_id),
    }),
    defineOperation({
      ...adminQueueView,
      tag: TAG,
      summary: '本人上次选择的队列视图（我的待办、即将超时、全部）',
      auth: 'operator',
      errors: [],
      handle: (_payload, { caller }) => queue.view(caller),
    }),
    defineOperation({
      ...adminQueueViewSave,
      tag: TAG,
      summary: '记住本人选择的队列视图，下次打开队列时恢复',
      auth: 'operator',
      errors: [],
      handle: ({ view }, { caller }) => queue.saveView(caller, view),
    }),
    defineOperation({
      ...adminFileReview,
      tag: TAG,
      summary: '审核一个文件：通过，或不通过（常见原因和/或说明）；本轮最后一个待审核文件审核后自动结束本轮',
      description:
        '只能在“资料审核中”由办理人员或主管审核；带上打开工作台时的 version，订单已变化则拒绝（2032），两人同时审核只有一人成功。' +
        '本轮结束：有任何未通过 → 待重新上传资料；全部通过 → 有邮寄资料时待邮寄资料，否则待确认核对页。',
      auth: 'operator',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_STATE_INVALID,
        ErrorCode.REVIEW_NOT_ASSIGNEE,
        ErrorCode.REVIEW_ORDER_STALE,
        ErrorCode.REVIEW_FILE_NOT_FOUND,
        ErrorCode.REVIEW_FILE_NOT_PENDING,
        ErrorCode.REVIEW_NO_PASS_REASON_REQUIRED,
        ErrorCode.ORDER_CONFLICT,
      ],
      handle: (payload, { caller }) => review.reviewFile(caller, payload),
    }),
    defineOperation({
      ...adminFileAccessLog,
      tag: TAG,
      summary: '文件访问日志（主管）：哪位人员何时打开了哪个客户文件，最新的在前',
      auth: 'supervisor',
      errors: [],
      handle: (payload) => accessLog(payload),
    }),
  ];
}
