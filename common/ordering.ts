// What the ordering steps share: where a draft order resumes, and the payment
// channels and statuses. The snapshots an order keeps (insurance, return
// address, payments) are in common/contracts/order.ts; the rules are in
// docs/order-rules.md.

/** The ordering flow's steps, in order (the process line of the ordering pages). */
export const ORDERING_STEPS = {
  create: '填写订单',
  upload: '上传资料',
  interview: '选择面试时间',
  confirm: '确认订单',
  pay: '支付',
} as const;
export type OrderingStep = keyof typeof ORDERING_STEPS;
export const ORDERING_STEP_VALUES = Object.keys(ORDERING_STEPS) as [OrderingStep, ...OrderingStep[]];

/** Where a draft order's "continue" leads: the first step not done yet. */
export function orderingPath(userOrderId: number, step: OrderingStep): string {
  switch (step) {
    case 'upload':
      return `/ordering/upload/${userOrderId}`;
    case 'interview':
      return `/ordering/choose-interview-time/${userOrderId}`;
    case 'confirm':
    case 'pay':
      return `/ordering/order-confirm/${userOrderId}`;
    case 'create':
      return '/ordering/create-order';
  }
}

/** Steps shown on the process line for an order: the interview step only when the product needs one. */
export function orderingSteps(needInterview: boolean): OrderingStep[] {
  return needInterview ? ['create', 'upload', 'interview', 'confirm', 'pay'] : ['create', 'upload', 'confirm', 'pay'];
}

export const PAYMENT_CHANNELS = { wechat: '微信支付', alipay: '支付宝' } as const;
export type PaymentChannel = keyof typeof PAYMENT_CHANNELS;
export const PAYMENT_CHANNEL_VALUES = Object.keys(PAYMENT_CHANNELS) as [PaymentChannel, ...PaymentChannel[]];
export const PAYMENT_STATUSES = { pending: '待支付', paid: '已支付', closed: '已关闭', refund_pending: '待退款' } as const;
export type PaymentStatus = keyof typeof PAYMENT_STATUSES;
export const PAYMENT_STATUS_VALUES = Object.keys(PAYMENT_STATUSES) as [PaymentStatus, ...PaymentStatus[]];
