// The insurance plans call of the confirm step.
import { z } from 'zod';
import { defineContract, type ResultOf } from './define.ts';
import { idField } from './fields.ts';
import { insuranceItem } from './order.ts';

const plan = z.object({
  insurance_plan_id: z.number(),
  name: z.string(),
  company: z.string().describe('承保保险公司'),
  description: z.string(),
  price_per_day: z.number().describe('分 / 人 / 天'),
  min_days: z.number(),
  max_days: z.number(),
  items: z.array(insuranceItem),
  suggested_days: z.number().describe('建议天数：行程天数，限制在方案的最少与最多天数之间'),
  amount: z.number().describe('分：price_per_day × suggested_days × 申请人数'),
});

export const insurancePlanList = defineContract({
  path: '/www/order/insurance_plan_list',
  payload: z.object({ user_order_id: idField }),
  result: z.object({
    start_date: z.string().describe('保障开始日期 = 出发日期'),
    trip_days: z.number().describe('行程天数（产品的停留天数；不限停留时按 30 天）'),
    applicant_count: z.number(),
    plans: z.array(plan),
  }),
});

export const INSURANCE_CONTRACTS = [insurancePlanList] as const;

export type InsurancePlanView = z.output<typeof plan>;
export type InsurancePlanListResult = ResultOf<typeof insurancePlanList>;
