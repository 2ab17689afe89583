// The confirm call of the ordering flow (its rules: confirm.ts).
import { z } from 'zod';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { OrderConfirmResult } from '../../../common/order-confirm.ts';
import { AppError } from '../../platform/errors.ts';
import { defineOperation } from '../../platform/operation.ts';
import { idField } from '../catalogue/catalogue.schemas.ts';
import type { OrderConfirm } from './confirm.ts';

const orderConfirmPayload = z.object({
  user_order_id: idField,
  address_id: idField.describe('回寄地址：企业地址簿中的回寄地址或同行地址'),
  insurance_plan_id: idField.nullable().describe('保险方案；null 表示不购买保险'),
  insurance_days: z.number().min(0).max(100_000).nullish().describe('保险天数，须在方案的最少与最多天数之间'),
  insured_applicant_ids: z.array(idField).max(100).optional().describe('被保险的申请人（本订单的申请人），选择方案时至少一位'),
  protocol_agreed: z.boolean().optional().describe('已阅读并同意《保险条款》；选择方案时必须为 true'),
});

const orderConfirmResult = z.object({
  user_order_id: z.number(),
  status: z.literal('pending_payment'),
  product_amount: z.number().describe('分：单价 × 申请人数'),
  insurance_amount: z.number().describe('分：每人每天价格 × 天数 × 被保险人数'),
  discount_amount: z.number(),
  total_amount: z.number().describe('分：product_amount + insurance_amount − discount_amount，即应付金额'),
  expires_at: z.number().nullable().describe('自动取消时间（创建 + 24 小时），确认不会延长'),
}) satisfies z.ZodType<OrderConfirmResult>;

export function confirmOperations(confirm: OrderConfirm) {
  return [
    defineOperation({
      path: '/www/order/order_confirm',
      tag: '订单',
      summary: '确认订单：选择回寄地址和保险（可不买），草稿 → 待支付',
      description:
        '条件：订单为草稿；出发日期不早于今天；所有申请人的必需电子资料和签证照片已上传；产品需要面试时每位申请人已选择面试时间；' +
        '地址属于本企业；所选保险方案在售、天数在方案范围内、被保险人为本订单申请人且至少一位、已同意《保险条款》。' +
        '订单保存地址（含省市区名称）和保险方案的快照，之后修改或删除地址、停售方案都不影响本订单。' +
        '总价 = 产品费用 + 保险费 − 优惠。24 小时自动取消的时间不变。并发确认只有一个成功，另一个返回 1871。',
      auth: 'customer',
      payload: orderConfirmPayload,
      result: orderConfirmResult,
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
