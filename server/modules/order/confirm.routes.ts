// The confirm call of the ordering flow (its rules: confirm.ts).
import { orderConfirm } from '../../../common/contracts/order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { OrderConfirm } from './confirm.ts';

export function confirmOperations(confirm: OrderConfirm) {
  return [
    defineOperation({
      ...orderConfirm,
      tag: '订单',
      summary: '确认订单：选择回寄地址和保险（可不买），草稿 → 待支付',
      description:
        '条件：订单为草稿；出发日期不早于今天；所有申请人的必需电子资料和签证照片已上传；产品需要面试时每位申请人已选择面试时间；' +
        '地址属于本企业；所选保险方案在售、天数在方案范围内、被保险人为本订单申请人且至少一位、已同意《保险条款》。' +
        '订单保存地址（含省市区名称）和保险方案的快照，之后修改或删除地址、停售方案都不影响本订单。' +
        '总价 = 产品费用 + 保险费 − 优惠。24 小时自动取消的时间不变。并发确认只有一个成功，另一个返回 1871。',
      auth: 'customer',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_ALREADY_CANCELLED,
        ErrorCode.ORDER_CONFLICT,
        ErrorCode.ADDRESS_NOT_FOUND,
        ErrorCode.ORDER_ALREADY_CONFIRMED,
        ErrorCode.ORDER_CONFIRM_DEPARTURE_PAST,
        ErrorCode.ORDER_MATERIALS_INCOMPLETE,
        ErrorCode.ORDER_INTERVIEW_NOT_CHOSEN,
        ErrorCode.INSURANCE_PLAN_NOT_FOUND,
        ErrorCode.INSURANCE_DAYS_INVALID,
        ErrorCode.INSURANCE_INSURED_INVALID,
        ErrorCode.INSURANCE_PROTOCOL_NOT_AGREED,
      ],
      handle: (payload, { caller }) => confirm.confirm(caller, payload),
    }),
  ];
}
