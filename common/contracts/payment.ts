// The payment calls: a QR code for a payable order, and the result. channel
// is a plain string in the payload so that a wrong one gets its own Chinese
// error (1885).
import { z } from 'zod';
import { ORDER_STATUS_VALUES, ORDER_STEP_VALUES } from '../order.ts';
import { defineContract, type ParsedPayloadOf, type ResultOf } from './define.ts';
import { idField } from './fields.ts';
import { PRICE_DIFFERENCE_STATUS_VALUES } from '../price-difference.ts';
import { PAYMENT_SCENES } from '../payment.ts';
import { paymentView } from './order.ts';

/** One payment as the dialog follows it. */
const paymentState = paymentView.extend({
  expires_at: z.number().describe('二维码失效时间（毫秒时间戳）；不晚于订单的自动取消时间'),
  scene: z.enum(PAYMENT_SCENES).describe('qr 电脑浏览器扫码支付；phone 手机浏览器跳转钱包支付（微信 H5 / 支付宝手机网站）'),
});

export const paymentCreate = defineContract({
  path: '/www/payment/payment_create',
  payload: z.object({
    user_order_id: idField,
    channel: z.string().max(20).describe('wechat 微信支付，alipay 支付宝'),
    price_difference_id: idField.optional().describe('支付订单的一笔待支付补差价（订单须在办理中）；省略时支付订单本身'),
    scene: z.enum(PAYMENT_SCENES).optional().describe('qr 显示二维码；phone 跳转手机钱包（微信 H5 / 支付宝手机网站）；省略时服务器按 User-Agent 判断'),
  }),
  result: paymentState.extend({
    code_url: z.string().nullable().describe('二维码内容（支付服务商的支付页地址）；scene 为 phone 时为 null'),
    qrcode: z.string().nullable().describe('code_url 的二维码图片，data:image/png;base64,…；scene 为 phone 时为 null'),
    redirect_url: z
      .string()
      .nullable()
      .describe('scene 为 phone 时浏览器要打开的钱包支付页（微信 h5_url / 支付宝手机网站支付地址），支付后回到订单详情页；scene 为 qr 时为 null'),
    provider: z.string().describe('支付服务商；sandbox 为沙箱'),
    reused: z.boolean().describe('true：沿用了同一支付方式、同一金额且仍有效的二维码'),
  }),
});

export const paymentQuery = defineContract({
  path: '/www/payment/payment_query',
  payload: z.object({
    user_order_id: idField,
    out_trade_no: z.string().min(1).max(40).nullish().describe('要查询的支付（商户订单号）；省略时为该订单最近一笔支付'),
  }),
  result: z.object({
    user_order_id: z.number(),
    order_status: z.enum(ORDER_STATUS_VALUES),
    order_status_label: z.string(),
    step: z.enum(ORDER_STEP_VALUES).nullable(),
    order_paid: z.boolean().describe('订单已支付（本笔或另一笔支付）'),
    paid_at: z.number().nullable(),
    payment: paymentState.nullable(),
    price_difference: z
      .object({ price_difference_id: z.number(), status: z.enum(PRICE_DIFFERENCE_STATUS_VALUES), status_label: z.string() })
      .nullable()
      .describe('该笔支付所付的补差价（补差价支付时）；为 paid 表示补差价已付清'),
  }),
});

export const PAYMENT_CONTRACTS = [paymentCreate, paymentQuery] as const;

export type PaymentState = z.output<typeof paymentState>;
export type PaymentCreateInput = ParsedPayloadOf<typeof paymentCreate>;
export type PaymentCreateResult = ResultOf<typeof paymentCreate>;
export type PaymentQueryInput = ParsedPayloadOf<typeof paymentQuery>;
export type PaymentQueryResult = ResultOf<typeof paymentQuery>;
