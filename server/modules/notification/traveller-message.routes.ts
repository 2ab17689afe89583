// The back office's read of an order's traveller messages (issue 29, part 4).
import { adminTravellerMessages } from '../../../common/contracts/traveller-message.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { TravellerMessageService } from './traveller-message.service.ts';

export function travellerMessageOperations(service: TravellerMessageService) {
  return [
    defineOperation({
      ...adminTravellerMessages,
      tag: '后台 · 申请人短信与邮件',
      summary: '申请人本人收到的短信与邮件：模板、内容、状态（已发送、待发送、发送失败、未发送）与原因',
      description:
        '面试/录指纹预约与改期、核对页待确认、签证结果、护照寄回时，系统在同一事务中为每位相关申请人写入短信（其手机号）和邮件（填写了邮箱时），提交后发送；失败按退避重试，服务商拒绝时记下错误码；夜间 22:00–08:00 除当天改期外顺延到 08:00；已退订的号码不发短信。',
      auth: 'operator',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => service.list(caller, user_order_id),
    }),
  ];
}
