// The interview calls: the free times of the order's consulate, and choosing
// one per applicant. Another enterprise's order answers like a missing one.
import { interviewSlotList, interviewTimeChoose } from '../../../common/contracts/interview.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { InterviewService } from './interview.service.ts';

const TAG = '面试预约';

export function interviewOperations(service: InterviewService) {
  return [
    defineOperation({
      ...interviewSlotList,
      tag: TAG,
      summary: '面试/录指纹可预约时间：订单领区的领馆、可预约日期和每个时段的剩余名额，以及每位申请人当前的选择',
      description:
        '可预约日期：明天（或办理日期，取较晚者）至出发日期前一天，最多 60 天内；只含领馆办公日（周一至周五，不含中国法定节假日及调休、' +
        '调休上班的周末和目的地国家的国庆日）。chinese-days 尚无数据的年份按法定节假日推算，日期标记 provisional。时段按需生成：上午 09:00–12:00、' +
        '下午 14:00–16:00，每半小时一档，每档 3–6 个名额。已约满的时段也会列出（full 为 true）。',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND, ErrorCode.INTERVIEW_NOT_NEEDED, ErrorCode.INTERVIEW_NO_DISTRICT],
      handle: ({ user_order_id }, context) => service.list(context.caller, user_order_id),
    }),
    defineOperation({
      ...interviewTimeChoose,
      tag: TAG,
      summary: '为每位申请人选择面试/录指纹时间（全部成功或全部不生效）',
      description:
        '仅草稿订单。须包含订单的每位申请人，每人一个时段；时段须属于订单的领区，日期须在可预约范围内且当天领馆办公（提交时重新检查）。' +
        '在一个事务中：释放申请人原来的时段，占用新的时段（名额用完返回 1846，整个选择不生效）；写入“选择面试时间”记录。',
      auth: 'customer',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_ALREADY_CANCELLED,
        ErrorCode.ORDER_CONFLICT,
        ErrorCode.INTERVIEW_NOT_NEEDED,
        ErrorCode.INTERVIEW_ORDER_LOCKED,
        ErrorCode.INTERVIEW_NO_DISTRICT,
        ErrorCode.INTERVIEW_SLOT_NOT_FOUND,
        ErrorCode.INTERVIEW_SLOT_UNAVAILABLE,
        ErrorCode.INTERVIEW_SLOT_FULL,
        ErrorCode.INTERVIEW_APPLICANT_NOT_FOUND,
        ErrorCode.INTERVIEW_CHOICES_INCOMPLETE,
      ],
      handle: (payload, context) => service.choose(context.caller, payload),
    }),
  ];
}
