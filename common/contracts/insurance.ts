// The insurance plans call of the confirm step.
import { z } from 'zod';
import { defineContract, type ResultOf } from './define.ts';
import { dateText, idField } from './fields.ts';
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
  per_person_amount: z.number().describe('分：每人保费 = price_per_day × suggested_days'),
  amount: z.number().describe('分：price_per_day × suggested_days × 申请人数'),
});

export const insurancePlanList = defineContract({
  path: '/www/order/insurance_plan_list',
  payload: z.object({
    user_order_id: idField,
    return_date: dateText.nullish().describe('回程日期（含当天）；与 trip_days 同时给出时以回程日期为准'),
    trip_days: z.number().nullish().describe('行程天数 1–365（含出发和回程当天）'),
  }),
  result: z.object({
    start_date: z.string().describe('保障开始日期 = 出发日期'),
    return_date: z.string().describe('回程日期：客户给出的，或按行程天数推算的'),
    trip_days: z.number().describe('行程天数：客户给出的回程日期或天数；未给出时按 7 天（产品停留期更短时按停留期）'),
    trip_assumed: z.boolean().describe('true：客户尚未给出回程日期，行程天数为估算'),
    applicant_count: z.number(),
    plans: z.array(plan),
  }),
});

export const INSURANCE_CONTRACTS = [insurancePlanList] as const;

export type InsurancePlanView = z.output<typeof plan>;
export type InsurancePlanListResult = ResultOf<typeof insurancePlanList>;
