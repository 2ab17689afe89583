// Pure rules of the confirm page: what stops a draft from being confirmed,
// and the footer's price text. The server decides again on confirm
// (server/modules/order/confirm.ts); these only say it first.
import type { OrderDetail } from '../../../../common/contracts/order';
import { formatPrice } from '../../../../common/format';
import { insuranceAmount } from '../../../../common/insurance';
import { orderingPath } from '../../../../common/ordering';

export interface Blocker {
  key: 'departure' | 'materials' | 'interview';
  message: string;
  action: { label: string; to: string };
}

/** Why this draft cannot be confirmed yet, in the order the customer should fix them. */
export function confirmBlockers(order: OrderDetail): Blocker[] {
  const blockers: Blocker[] = [];
  if (order.departure_date_past) {
    blockers.push({
      key: 'departure',
      message: `出发日期 ${order.departure_date} 已过，请先修改出发日期`,
      action: { label: '修改出发日期', to: `/order/order-detail/${order.user_order_id}` },
    });
  }
  if (order.missing_materials.length > 0) {
    const byApplicant = new Map<string, string[]>();
    for (const item of order.missing_materials) byApplicant.set(item.applicant_name, [...(byApplicant.get(item.applicant_name) ?? []), item.name]);
    const text = [...byApplicant].map(([name, items]) => `${name}（${items.join('、')}）`).join('；');
    blockers.push({ key: 'materials', message: `资料尚未上传完整：${text}`, action: { label: '去上传资料', to: orderingPath(order.user_order_id, 'upload') } });
  }
  if (order.need_interview) {
    const without = order.applicants.filter((applicant) => applicant.interview === null).map((applicant) => applicant.name);
    if (without.length > 0) {
      blockers.push({
        key: 'interview',
        message: `请为申请人${without.join('、')}选择面试时间`,
        action: { label: '选择面试时间', to: orderingPath(order.user_order_id, 'interview') },
      });
    }
  }
  return blockers;
}

export interface PriceParts {
  unitPrice: number;
  applicantCount: number;
  productAmount: number;
  insuranceAmount: number;
  discountAmount: number;
  totalAmount: number;
}

/** What the order will cost with this plan choice (cents); the server computes the same. */
export function priceParts(
  order: Pick<OrderDetail, 'unit_price' | 'applicant_count' | 'product_amount' | 'discount_amount'>,
  plan: { price_per_day: number } | null,
  days: number,
  insuredCount: number,
): PriceParts {
  const insurance = plan ? insuranceAmount(plan.price_per_day, days, insuredCount) : 0;
  return {
    unitPrice: order.unit_price,
    applicantCount: order.applicant_count,
    productAmount: order.product_amount,
    insuranceAmount: insurance,
    discountAmount: order.discount_amount,
    totalAmount: order.product_amount + insurance - order.discount_amount,
  };
}

/** '产品费用 ￥x × n + 保险 ￥y − 优惠 ￥d = 合计 ￥z' (insurance and discount only when there are some). */
export function priceText(parts: PriceParts): string {
  let text = `产品费用 ${formatPrice(parts.unitPrice)} × ${parts.applicantCount}`;
  if (parts.insuranceAmount > 0) text += ` + 保险 ${formatPrice(parts.insuranceAmount)}`;
  if (parts.discountAmount > 0) text += ` − 优惠 ${formatPrice(parts.discountAmount)}`;
  return `${text} = 合计 ${formatPrice(parts.totalAmount)}`;
}
