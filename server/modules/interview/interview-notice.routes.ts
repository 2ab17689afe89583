// The interview notice calls: the customer's (/www: read, free times, ask for
// another time) and the back office's (/admin-api: panel, publish, accept,
// decline). Another enterprise's order answers like a missing one.
import {
  adminInterviewChangeAccept,
  adminInterviewChangeDecline,
  adminInterviewNoticePublish,
  adminInterviewPanel,
  interviewChangeRequest,
  interviewChangeSlots,
  interviewNoticeDetail,
} from '../../../common/contracts/interview-notice.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { InterviewNoticeService } from './interview-notice.service.ts';

const TAG = '面试/录指纹通知';
const ADMIN_TAG = '后台 · 面试/录指纹通知';

export function interviewNoticeOperations(service: InterviewNoticeService) {
  return [
    defineOperation({
      ...interviewNoticeDetail,
      tag: TAG,
      summary: '面试/录指纹通知：每位申请人已发布的通知（时间、领馆地址、流程、注意事项、电话注意事项、需携带资料）、最近的改期申请和领馆的指引视频',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND, ErrorCode.INTERVIEW_NOT_NEEDED],
      handle: ({ user_order_id }, { caller }) => service.detail(caller, user_order_id),
    }),
    defineOperation({
      ...interviewChangeSlots,
      tag: TAG,
      summary: '改期可选的时间：订单领区的领馆在可预约范围内（明天起至出发日期前一天）每个办公日的时段及剩余名额',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND, ErrorCode.ORDER_STATE_INVALID, ErrorCode.INTERVIEW_NO_DISTRICT],
      handle: ({ user_order_id }, { caller }) => service.changeSlots(caller, user_order_id),
    }),
    defineOperation({
      ...interviewChangeRequest,
      tag: TAG,
      summary: '申请修改面试时间：为一位已发布通知的申请人选择另一个有名额的时段（每人同时只能有一个待处理的申请），由办理人员接受或拒绝',
      description:
        '规则与下单时选择时间相同：时段属于订单的领区，日期在可预约范围内且领馆办公，仍有名额。申请不占用名额；接受时才占用（数据库约束 booked ≤ capacity）。',
      auth: 'customer',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_STATE_INVALID,
        ErrorCode.ORDER_CONFLICT,
        ErrorCode.INTERVIEW_NO_DISTRICT,
        ErrorCode.INTERVIEW_NOTICE_APPLICANT_NOT_FOUND,
        ErrorCode.INTERVIEW_NOTICE_NOT_PUBLISHED,
        ErrorCode.INTERVIEW_CHANGE_ALREADY_OPEN,
        ErrorCode.INTERVIEW_CHANGE_SAME_TIME,
        ErrorCode.INTERVIEW_SLOT_NOT_FOUND,
        ErrorCode.INTERVIEW_SLOT_UNAVAILABLE,
        ErrorCode.INTERVIEW_SLOT_FULL,
      ],
      handle: (payload, { caller }) => service.requestChange(caller, payload),
    }),
    defineOperation({
      ...adminInterviewPanel,
      tag: ADMIN_TAG,
      summary: '面试面板：每位申请人的通知（已发布的内容，或默认值：客户选择的时间、领馆、清单中的赴馆资料）和待处理的改期申请',
      auth: 'operator',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => service.panel(caller, user_order_id),
    }),
    defineOperation({
      ...adminInterviewNoticePublish,
      tag: ADMIN_TAG,
      summary: '发布（或更新）一位申请人的面试/录指纹通知；客户收到站内消息和邮件',
      description: '只能在“待面试/录指纹”由办理人员或主管发布；带上打开面板时的 version。日期须在今天至出发日期前一天之间。',
      auth: 'operator',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_STATE_INVALID,
        ErrorCode.ORDER_CONFLICT,
        ErrorCode.INTERVIEW_NOTICE_NOT_ASSIGNEE,
        ErrorCode.INTERVIEW_NOTICE_STALE,
        ErrorCode.INTERVIEW_NOTICE_APPLICANT_NOT_FOUND,
        ErrorCode.INTERVIEW_NOTICE_INVALID,
      ],
      handle: (payload, { caller }) => service.publish(caller, payload),
    }),
    defineOperation({
      ...adminInterviewChangeAccept,
      tag: ADMIN_TAG,
      summary: '接受改期申请：申请人的名额移到新时段（新时段 +1、原时段 −1，同一事务），通知的日期时间随之更新；客户收到通知',
      auth: 'operator',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_STATE_INVALID,
        ErrorCode.ORDER_CONFLICT,
        ErrorCode.INTERVIEW_NOTICE_NOT_ASSIGNEE,
        ErrorCode.INTERVIEW_NOTICE_STALE,
        ErrorCode.INTERVIEW_CHANGE_NOT_FOUND,
        ErrorCode.INTERVIEW_CHANGE_SLOT_FULL,
        ErrorCode.INTERVIEW_SLOT_UNAVAILABLE,
      ],
      handle: (payload, { caller }) => service.accept(caller, payload),
    }),
    defineOperation({
      ...adminInterviewChangeDecline,
      tag: ADMIN_TAG,
      summary: '拒绝改期申请（可附原因）：时间不变；客户收到通知',
      auth: 'operator',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_STATE_INVALID,
        ErrorCode.ORDER_CONFLICT,
        ErrorCode.INTERVIEW_NOTICE_NOT_ASSIGNEE,
        ErrorCode.INTERVIEW_NOTICE_STALE,
        ErrorCode.INTERVIEW_CHANGE_NOT_FOUND,
      ],
      handle: (payload, { caller }) => service.decline(caller, payload),
    }),
  ];
}
