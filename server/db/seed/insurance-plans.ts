// The travel insurance plans offered at the confirm step. Every plan meets
// the Schengen rule for travel medical insurance (at least €30,000 of
// medical cover including repatriation, valid in every Schengen state): 30万
// yuan is well above €30,000. Prices are cents per insured person per day.
// Idempotent: does nothing once the table has rows, so plans edited or
// withdrawn later are never brought back.
import type { Kysely } from 'kysely';
import type { InsuranceItem } from '../../../common/contracts/order.ts';
import type { Database } from '../schema.ts';
import { toJson } from '../json.ts';

interface PlanSeed {
  name: string;
  company: string;
  description: string;
  price_per_day: number;
  min_days: number;
  max_days: number;
  items: InsuranceItem[];
}

export const INSURANCE_PLANS: readonly PlanSeed[] = [
  {
    name: '基础款',
    company: '中国平安财产保险',
    description: '境外医疗 30 万元，满足申根签证的保险要求，适合短途观光',
    price_per_day: 450,
    min_days: 1,
    max_days: 180,
    items: [
      { name: '意外身故/伤残', amount: '10万' },
      { name: '境外意外及疾病医疗', amount: '30万' },
      { name: '紧急医疗转运及送返', amount: '30万' },
      { name: '身故遗体送返', amount: '5万' },
      { name: '24小时中文救援热线', amount: '全程' },
    ],
  },
  {
    name: '标准款',
    company: '中国人民财产保险',
    description: '境外医疗 50 万元，含行李和航班延误补偿，多数客户的选择',
    price_per_day: 800,
    min_days: 1,
    max_days: 180,
    items: [
      { name: '意外身故/伤残', amount: '30万' },
      { name: '境外意外及疾病医疗', amount: '50万' },
      { name: '紧急救援及转运', amount: '不限额' },
      { name: '行李延误', amount: '1000元' },
      { name: '航班延误', amount: '600元' },
      { name: '个人随身财物', amount: '2000元' },
    ],
  },
  {
    name: '尊享款',
    company: '安联财产保险（中国）',
    description: '境外医疗 100 万元，含个人责任和旅程取消，适合商务和家庭出行',
    price_per_day: 1500,
    min_days: 1,
    max_days: 180,
    items: [
      { name: '意外身故/伤残', amount: '50万' },
      { name: '境外意外及疾病医疗', amount: '100万' },
      { name: '紧急救援及转运', amount: '不限额' },
      { name: '旅程取消', amount: '5000元' },
      { name: '行李延误', amount: '2000元' },
      { name: '个人责任', amount: '50万' },
      { name: '旅行证件遗失', amount: '3000元' },
    ],
  },
  {
    name: '长期多次款',
    company: '美亚财产保险',
    description: '31–365 天长期保障，适合多次往返签证和探亲访友',
    price_per_day: 380,
    min_days: 31,
    max_days: 365,
    items: [
      { name: '意外身故/伤残', amount: '20万' },
      { name: '境外意外及疾病医疗', amount: '30万' },
      { name: '紧急医疗转运及送返', amount: '30万' },
      { name: '个人责任', amount: '20万' },
    ],
  },
];

export async function seedInsurancePlans(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('insurance_plan').select('insurance_plan_id').limit(1).executeTakeFirst();
    if (existing) return 0;
    await trx
      .insertInto('insurance_plan')
      .values(INSURANCE_PLANS.map((plan, sort) => ({ ...plan, items: toJson(plan.items), sort, status: 0 })))
      .execute();
    return INSURANCE_PLANS.length;
  });
}
