// The insurance plans call of the confirm step.
import { z } from 'zod';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { InsurancePlanListResult } from '../../../common/insurance.ts';
import { AppError } from '../../platform/errors.ts';
import { defineOperation } from '../../platform/operation.ts';
import { idField } from '../catalogue/catalogue.schemas.ts';
import type { InsuranceService } from './insurance.service.ts';

export const insuranceItemSchema = z.object({ name: z.string(), amount: z.string().describe("保额，如 '30万'") });

const planListResult = z.object({
  start_date: z.string().describe('保障开始日期 = 出发日期'),
  trip_days: z.number().describe('行程天数（产品的停留天数；不限停留时按 30 天）'),
  applicant_count: z.number(),
  plans: z.array(
    z.object({
      insurance_plan_id: z.number(),
      name: z.string(),
      company: z.string().describe('承保保险公司'),
      description: z.string(),
      price_per_day: z.number().describe('分 / 人 / 天'),
      min_days: z.number(),
      max_days: z.number(),
      items: z.array(insuranceItemSchema),
      suggested_days: z.number().describe('建议天数：行程天数，限制在方案的最少与最多天数之间'),
      amount: z.number().describe('分：price_per_day × suggested_days × 申请人数'),
    }),
  ),
}) satisfies z.ZodType<InsurancePlanListResult>;

export function insuranceOperations(service: InsuranceService) {
  return [
    defineOperation({
      path: '/www/order/insurance_plan_list',
      tag: '订单',
      summary: '订单可选的旅行保险方案（在售），含建议天数和全部申请人的保费',
      auth: 'customer',
      payload: z.object({ user_order_id: idField }),
      result: planListResult,
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => service.planList(caller, user_order_id),
    }),
  ];
}
