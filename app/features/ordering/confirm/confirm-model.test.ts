import { describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../../../common/contracts/order';
import { confirmBlockers, priceParts, priceText } from './confirm-model';

const order = { unit_price: 59_900, applicant_count: 2, product_amount: 119_800, discount_amount: 0 };

describe('confirm page price', () => {
  it('adds the insurance for the insured applicants and takes off the discount', () => {
    const parts = priceParts(order, { price_per_day: 450 }, 10, 2);
    expect(parts).toMatchObject({ insuranceAmount: 9_000, totalAmount: 128_800 });
    expect(priceText(parts)).toBe('产品费用 ￥599 × 2 + 保险 ￥90 = 合计 ￥1288');
    expect(priceText(priceParts({ ...order, discount_amount: 1_000 }, null, 10, 2))).toBe('产品费用 ￥599 × 2 − 优惠 ￥10 = 合计 ￥1188');
    expect(priceText(priceParts(order, { price_per_day: 450 }, 3, 1))).toBe('产品费用 ￥599 × 2 + 保险 ￥13.50 = 合计 ￥1211.50');
  });
});

describe('confirm blockers', () => {
  const base = {
    user_order_id: 7,
    departure_date: '2026-12-28',
    departure_date_past: false,
    need_interview: true,
    missing_materials: [
      { applicant_id: 1, applicant_name: '张三', material_id: 3, name: '护照首页' },
      { applicant_id: 1, applicant_name: '张三', material_id: null, name: '签证照片' },
    ],
    applicants: [
      { name: '张三', interview: null },
      { name: '李四', interview: { slot_date: '2026-12-10' } },
    ],
  } as unknown as OrderDetail;

  it('names what is missing and where to fix it', () => {
    const blockers = confirmBlockers(base);
    expect(blockers.map((b) => b.key)).toEqual(['materials', 'interview']);
    expect(blockers[0]).toMatchObject({ message: '资料尚未上传完整：张三（护照首页、签证照片）', action: { to: '/ordering/upload/7' } });
    expect(blockers[1]).toMatchObject({ message: '请为申请人张三选择面试时间', action: { to: '/ordering/choose-interview-time/7' } });
    expect(confirmBlockers({ ...base, missing_materials: [], need_interview: false })).toEqual([]);
    expect(confirmBlockers({ ...base, missing_materials: [], need_interview: false, departure_date_past: true })[0]!.key).toBe('departure');
  });
});
