// Payload and result schemas of the payment calls. channel is a plain string
// in the payload so that a wrong one gets its own Chinese error (1885).
import { z } from 'zod';
import { ORDER_STATUS_VALUES, ORDER_STEP_VALUES, type OrderStatus, type OrderStep } from '../../../common/order.ts';
import type { PaymentCreateResult, PaymentQueryResult } from '../../../common/payment.ts';
import { idField } from '../catalogue/catalogue.schemas.ts';

const outTradeNo = z.string().min(1).max(40).describe('商户订单号（支付单号）');

const paymentState = z.object({
  out_trade_no: z.string(),
  channel: z.enum(['wechat', 'alipay']),
  channel_label: z.string().describe('微信支付 / 支付宝'),
  amount: z.number().describe('金额（分）'),
  status: z.enum(['pending', 'paid', 'closed', 'refund_pending']).describe('pending 待支付，paid 已支付，closed 已关闭，refund_pending 待退款'),
  status_label: z.string(),
  created_at: z.number(),
  paid_at: z.number().nullable(),
  expires_at: z.number().describe('二维码失效时间（毫秒时间戳）；不晚于订单的自动取消时间'),
});

export const paymentCreatePayload = z.object({
  user_order_id: idField,
  channel: z.string().max(20).describe('wechat 微信支付，alipay 支付宝'),
});

export const paymentCreateResult = paymentState.extend({
  code_url: z.string().describe('二维码内容（支付服务商的支付页地址）'),
  qrcode: z.string().describe('code_url 的二维码图片，data:image/png;base64,…'),
  provider: z.string().describe('支付服务商；sandbox 为沙箱'),
  reused: z.boolean().describe('true：沿用了同一支付方式、同一金额且仍有效的二维码'),
}) satisfies z.ZodType<PaymentCreateResult>;

export const paymentQueryPayload = z.object({
  user_order_id: idField,
  out_trade_no: outTradeNo.nullish().describe('要查询的支付；省略时为该订单最近一笔支付'),
});

export const paymentQueryResult = z.object({
  user_order_id: z.number(),
  order_status: z.enum(ORDER_STATUS_VALUES as [OrderStatus, ...OrderStatus[]]),
  order_status_label: z.string(),
  step: z.enum(ORDER_STEP_VALUES as [OrderStep, ...OrderStep[]]).nullable(),
  order_paid: z.boolean().describe('订单已支付（本笔或另一笔支付）'),
  paid_at: z.number().nullable(),
  payment: paymentState.nullable(),
}) satisfies z.ZodType<PaymentQueryResult>;
