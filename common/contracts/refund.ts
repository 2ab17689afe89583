// Refunds (退款, issue 11): the refund as the customer's order detail shows
// it, and the back office's refund panel calls (`/admin-api/order/refund_…`,
// operator sessions; creating refunds is for supervisors only). Refunds of
// refused applicants are created by the visa result itself. Rules:
// docs/order-rules.md, "Refunds".
import { z } from 'zod';
import { ORDER_STATUS_VALUES, ORDER_STEP_VALUES } from '../order.ts';
import { REFUND_KIND_VALUES, REFUND_STATUS_VALUES } from '../refund.ts';
import { defineContract, type ResultOf } from './define.ts';
import { rowId } from './fields.ts';

export const refundView = z.object({
  refund_id: z.number(),
  applicant_id: z.number().nullable().describe('拒签退款的申请人；整单退款为 null'),
  applicant_name: z.string().nullable(),
  kind: z.enum(REFUND_KIND_VALUES).describe('rejection 拒签退款，manual 手动退款，close 全额退款并关闭订单'),
  kind_label: z.string(),
  amount: z.number().describe('金额（分）'),
  reason: z.string(),
  status: z.enum(REFUND_STATUS_VALUES).describe('pending 待提交支付服务商，processing 退款中，succeeded 已退款，failed 退款失败'),
  status_label: z.string().describe('退款中 / 已退款 / 退款失败'),
  created_at: z.number(),
  refunded_at: z.number().nullable().describe('退款到账时间'),
});

const version = z.number().int().min(0).describe('打开工作台时订单的 version；订单已变化则拒绝（2208）');
const reason = z.string().max(1000).describe('原因，2–200 字');

const panel = z.object({
  user_order_id: z.number(),
  status: z.enum(ORDER_STATUS_VALUES),
  step: z.enum(ORDER_STEP_VALUES).nullable(),
  version: z.number(),
  last_refund_id: z.number().describe('最新一笔退款的 refund_id（没有为 0）；手动退款时带回，防止重复提交'),
  paid_total: z.number().describe('已支付合计（分）：订单支付加已支付的补差价'),
  refunded_total: z.number().describe('已退和退款中的合计（分，不含失败的）'),
  refundable: z.number().describe('还可退的金额（分）'),
  can_refund: z.boolean().describe('主管可以手动退款：订单办理中或已完成，且还有可退金额'),
  can_close: z.boolean().describe('主管可以全额退款并关闭订单：递交使馆之前'),
  list: z.array(refundView.extend({ created_by: z.string().describe('发起人：主管姓名或“系统”') })).describe('最新的在前'),
});

export const adminRefundList = defineContract({
  path: '/admin-api/order/refund_list',
  payload: z.object({ user_order_id: rowId }),
  result: panel,
});

export const adminRefundCreate = defineContract({
  path: '/admin-api/order/refund_create',
  payload: z.object({
    user_order_id: rowId,
    version,
    last_refund_id: z.number().int().min(0).optional().describe('打开面板时最新一笔退款的 refund_id；之后又有退款则拒绝（2208），防止重复提交'),
    amount: z.number().describe('金额（分），不超过可退金额'),
    reason,
  }),
  multiline: ['reason'],
  result: panel,
});

export const adminRefundClose = defineContract({
  path: '/admin-api/order/close_refund',
  payload: z.object({ user_order_id: rowId, version, reason }),
  multiline: ['reason'],
  result: panel,
});

/**
 * The 工作台's alert: how many failed refunds are still to redo (their money
 * not refunded again since), and on how many orders — the orders of the
 * queue's 退款失败 filter (`refund=failed`). Rule: decision 0026.
 */
export const adminRefundFailedCount = defineContract({
  path: '/admin-api/order/refund_failed_count',
  payload: z.object({}),
  result: z.object({
    refund_count: z.number().describe('退款失败、款项尚未重新退回的退款笔数'),
    order_count: z.number().describe('这些退款所属的订单数（即订单队列“退款失败”筛选的订单数）'),
  }),
});

export const REFUND_CONTRACTS = [adminRefundList, adminRefundCreate, adminRefundClose, adminRefundFailedCount] as const;

export type RefundView = z.output<typeof refundView>;
export type RefundPanel = ResultOf<typeof adminRefundList>;
export type RefundFailedCount = ResultOf<typeof adminRefundFailedCount>;
