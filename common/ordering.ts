// What the ordering steps share: where a draft order resumes, and the
// snapshots an order keeps of its insurance and return address. Each step's
// own shapes live beside it (common/material.ts, interview.ts, address.ts,
// insurance.ts, payment.ts); the rules are in docs/order-rules.md.

/** The ordering flow's steps, in order (the process line of the ordering pages). */
export const ORDERING_STEPS = {
  create: '填写订单',
  upload: '上传资料',
  interview: '选择面试时间',
  confirm: '确认订单',
  pay: '支付',
} as const;
export type OrderingStep = keyof typeof ORDERING_STEPS;

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

/** The return address as the order keeps it (names resolved when it was chosen). */
export interface ReturnAddressSnapshot {
  /** The address-book entry it was copied from (may since have been edited or deleted). */
  address_id: number;
  kind: 'return' | 'peer';
  company_name: string | null;
  name: string;
  mobile_phone: string;
  province_code: string;
  city_code: string;
  county_code: string;
  province_name: string;
  city_name: string;
  county_name: string;
  detail: string;
}

export interface InsuranceItem {
  name: string;
  /** As printed on the policy, e.g. '30万'. */
  amount: string;
}

/** The insurance plan as the order keeps it. */
export interface InsuranceSnapshot {
  insurance_plan_id: number;
  name: string;
  company: string;
  items: InsuranceItem[];
  /** cents per insured person per day */
  price_per_day: number;
  days: number;
  /** 'YYYY-MM-DD': the departure date. */
  start_date: string;
  /** 'YYYY-MM-DD': start_date + days − 1. */
  end_date: string;
  insured_count: number;
  /** price_per_day × days × insured_count */
  amount: number;
}

/** Interview time of one applicant, as the order detail shows it. */
export interface ApplicantInterview {
  interview_slot_id: number;
  slot_date: string;
  start_time: string;
  end_time: string;
  consulate_name: string;
  consulate_address: string;
}

export interface PaymentView {
  out_trade_no: string;
  channel: 'wechat' | 'alipay';
  channel_label: string;
  amount: number;
  status: 'pending' | 'paid' | 'closed' | 'refund_pending';
  status_label: string;
  created_at: number;
  paid_at: number | null;
}

export const PAYMENT_CHANNELS = { wechat: '微信支付', alipay: '支付宝' } as const;
export type PaymentChannel = keyof typeof PAYMENT_CHANNELS;
export const PAYMENT_STATUSES = { pending: '待支付', paid: '已支付', closed: '已关闭', refund_pending: '待退款' } as const;
