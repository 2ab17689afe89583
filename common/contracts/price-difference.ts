// The price difference's back-office calls (`/admin-api/order/price_difference_…`,
// operator sessions): ask the customer for an amount with a reason, cancel an
// unpaid one, and the panel's list. The customer pays through the payment
// calls (payment_create with price_difference_id). Rules: docs/order-rules.md,
// "Price difference".
import { z } from 'zod';
import { ORDER_STATUS_VALUES, ORDER_STEP_VALUES } from '../order.ts';
import { PRICE_DIFFERENCE_STATUS_VALUES } from '../price-difference.ts';
import { defineContract, type ResultOf } from './define.ts';
import { rowId } from './fields.ts';

export const priceDifferenceView = z.object({
  price_difference_id: z.number(),
  amount: z.number().describe('金额（分）'),
  reason: z.string(),
  status: z.enum(PRICE_DIFFERENCE_STATUS_VALUES).describe('open 待支付，paid 已支付，cancelled 已取消'),
  status_label: z.string(),
  created_at: z.number(),
  paid_at: z.number().nullable(),
  cancelled_at: z.number().nullable(),
});

const version = z.number().int().min(0).describe('打开工作台时订单的 version；订单已变化则拒绝（2166）');

const panel = z.object({
  user_order_id: z.number(),
  status: z.enum(ORDER_STATUS_VALUES),
  step: z.enum(ORDER_STEP_VALUES).nullable(),
  version: z.number(),
  total_amount: z.number().describe('订单金额（分，不含补差价）'),
  price_difference_due: z.number().describe('待支付的补差价（分）；没有为 0'),
  price_difference_paid: z.number().describe('已支付的补差价合计（分）'),
  can_request: z.boolean().describe('订单办理中且没有待支付的补差价'),
  list: z.array(priceDifferenceView.extend({ requested_by: z.string().describe('发起人员的姓名') })).describe('最新的在前'),
});

export const adminPriceDifferenceList = defineContract({
  path: '/admin-api/order/price_difference_list',
  payload: z.object({ user_order_id: rowId }),
  result: panel,
});

export const adminPriceDifferenceRequest = defineContract({
  path: '/admin-api/order/price_difference_request',
  payload: z.object({
    user_order_id: rowId,
    version,
    amount: z.number().describe('金额（分），1 分到 10 万元'),
    reason: z.string().max(1000).describe('原因，2–200 字，例如“使馆签证费上调”'),
  }),
  multiline: ['reason'],
  result: panel,
});

export const adminPriceDifferenceCancel = defineContract({
  path: '/admin-api/order/price_difference_cancel',
  payload: z.object({ user_order_id: rowId, price_difference_id: rowId, version }),
  result: panel,
});

export const PRICE_DIFFERENCE_CONTRACTS = [adminPriceDifferenceList, adminPriceDifferenceRequest, adminPriceDifferenceCancel] as const;

export type PriceDifferenceView = z.output<typeof priceDifferenceView>;
export type PriceDifferencePanel = ResultOf<typeof adminPriceDifferenceList>;
