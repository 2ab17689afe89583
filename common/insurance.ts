// Travel insurance plans offered at the confirm step, and the arithmetic the
// server and the page must agree on (the page shows the price the server
// will charge). Rules: docs/order-rules.md ("Addresses, insurance and
// confirming"). The call and the order's InsuranceSnapshot are contracts
// (common/contracts/insurance.ts, order.ts).
import type { InsuranceItem } from './contracts/order.ts';
import { addDays, daysBetween, isCalendarDate } from './order.ts';

/**
 * The Schengen states (2025: 29 countries), by the Chinese names the
 * catalogue uses: their visas require travel medical insurance of at least
 * €30,000 valid in every Schengen state, which the page says.
 */
export const SCHENGEN_COUNTRIES: ReadonlySet<string> = new Set([
  '奥地利',
  '比利时',
  '保加利亚',
  '克罗地亚',
  '捷克',
  '丹麦',
  '爱沙尼亚',
  '芬兰',
  '法国',
  '德国',
  '希腊',
  '匈牙利',
  '冰岛',
  '意大利',
  '拉脱维亚',
  '列支敦士登',
  '立陶宛',
  '卢森堡',
  '马耳他',
  '荷兰',
  '挪威',
  '波兰',
  '葡萄牙',
  '罗马尼亚',
  '斯洛伐克',
  '斯洛文尼亚',
  '西班牙',
  '瑞典',
  '瑞士',
]);

/** When the product's stay is open-ended (studies: stay_days 0), a month is suggested. */
export const DEFAULT_TRIP_DAYS = 30;

/**
 * Until the customer says when they come back, the trip is taken as a week
 * (or the product's stay when shorter). The product's stay is the most a visa
 * allows (often 90 or 180 days), not the trip: suggesting it priced the cover
 * above the visas themselves.
 */
export const ASSUMED_TRIP_DAYS = 7;

/** The longest trip the cover is priced for (the longest plan's years' worth). */
export const TRIP_DAYS_MAX = 365;

/** The stay the product allows (a month when open-ended). */
export function tripDays(stayDays: number): number {
  return stayDays > 0 ? stayDays : DEFAULT_TRIP_DAYS;
}

/** The trip assumed before the customer gives a return date. */
export function assumedTripDays(stayDays: number): number {
  return Math.min(ASSUMED_TRIP_DAYS, tripDays(stayDays));
}

/** Days of a trip from departure to return, both counted (back the same day: 1). */
export function tripDaysUntil(departureDate: string, returnDate: string): number {
  return daysBetween(departureDate, returnDate) + 1;
}

/** The return date of a trip of `days` days from the departure date. */
export function tripReturnDate(departureDate: string, days: number): string {
  return addDays(departureDate, days - 1);
}

/** Why a return date cannot price the cover, in the words the page and the call show; null when it can. */
export function returnDateProblem(departureDate: string, returnDate: string): string | null {
  if (!isCalendarDate(returnDate)) return '回程日期格式应为 YYYY-MM-DD';
  const days = tripDaysUntil(departureDate, returnDate);
  if (days < 1) return `回程日期不能早于出发日期 ${departureDate}`;
  if (days > TRIP_DAYS_MAX) return `行程最长 ${TRIP_DAYS_MAX} 天，回程日期不能晚于 ${tripReturnDate(departureDate, TRIP_DAYS_MAX)}`;
  return null;
}

export function clampDays(days: number, plan: { min_days: number; max_days: number }): number {
  return Math.min(plan.max_days, Math.max(plan.min_days, days));
}

/** cents */
export function insuranceAmount(pricePerDay: number, days: number, insuredCount: number): number {
  return pricePerDay * days * insuredCount;
}

/** The last covered day: the start day counts as the first. */
export function insuranceEndDate(startDate: string, days: number): string {
  return addDays(startDate, days - 1);
}

/**
 * The 《保险条款》 text the protocol checkbox refers to, from the plan's own
 * figures so it never disagrees with what is sold.
 */
export function insuranceTerms(plan: { name: string; company: string; min_days: number; max_days: number; items: InsuranceItem[] }): string[] {
  return [
    `一、承保机构：本保险由${plan.company}承保，易签通仅协助投保，保险合同以保险公司出具的电子保单为准。`,
    plan.min_days === plan.max_days
      ? `二、保险期间：自出发日期零时起，连续 ${plan.min_days} 天；签证拒签且在保险生效前申请的，可全额退保。`
      : `二、保险期间：自出发日期零时起，连续 ${plan.min_days}–${plan.max_days} 天，以投保时选择的天数为准；签证拒签且在保险生效前申请的，可全额退保。`,
    `三、保障项目及保险金额：${plan.items.map((item) => `${item.name} ${item.amount}`).join('；')}。`,
    '四、境外医疗：被保险人在境外因意外伤害或突发急性病发生的必要、合理的医疗费用，在保险金额内按实际支出赔付，无免赔额；符合申根国家对旅行医疗保险的要求（保额不低于 3 万欧元，覆盖全部申根国家，含紧急医疗转运和身故遗体送返）。',
    '五、责任免除：投保前已患有的疾病、故意行为、醉酒或药物滥用、战争及核辐射、从事潜水及攀岩等高风险运动、妊娠及分娩（意外导致的除外）等不在保障范围内。',
    '六、被保险人：须为本订单的申请人，年龄 0–80 周岁；未成年人的意外身故保险金额按国家金融监督管理总局的规定限额执行。',
    '七、理赔：出险后请于 48 小时内拨打保险公司 24 小时救援电话报案，并保留医疗单据、诊断证明和出入境记录，回国后 30 日内提交理赔申请。',
    '八、投保人确认已阅读并理解以上条款，尤其是责任免除部分，同意以本订单申请人作为被保险人投保。',
  ];
}
