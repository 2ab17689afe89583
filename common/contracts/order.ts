// The order calls: create, detail, list, departure date, cancel, confirm; and
// the snapshots an order keeps of its insurance, return address and payments.
// Payloads are loose where the service gives a more precise Chinese error of
// its own (dates, names, phone numbers, the number of applicants: rules.ts).
import { z } from 'zod';
import { ADDRESS_KIND_VALUES } from '../address.ts';
import { ORDER_ACTIONS, ORDER_EVENT_VALUES, ORDER_LIST_TAB_KEYS, ORDER_STATUS_VALUES, ORDER_STEP_VALUES } from '../order.ts';
import { ORDERING_STEP_VALUES, PAYMENT_CHANNEL_VALUES, PAYMENT_STATUS_VALUES } from '../ordering.ts';
import { visaResultView } from './visa-result.ts';
import { defineContract, type ParsedPayloadOf, type ResultOf } from './define.ts';
import { dateText, idField, pageField } from './fields.ts';
import { priceDifferenceView } from './price-difference.ts';
import { refundView } from './refund.ts';
import { EMAIL_MAX_LENGTH, ORDER_LIMITS } from './rules.ts';

// ── What an order keeps ───────────────────────────────────────────────────

export const insuranceItem = z.object({ name: z.string(), amount: z.string().describe("保额，如 '30万'") });

/** The insurance plan as the order keeps it (confirm). */
const insuranceSnapshot = z.object({
  insurance_plan_id: z.number(),
  name: z.string(),
  company: z.string(),
  items: z.array(insuranceItem),
  price_per_day: z.number().describe('分 / 人 / 天'),
  days: z.number(),
  start_date: z.string().describe('出发日期'),
  end_date: z.string().describe('start_date + days − 1'),
  insured_count: z.number(),
  amount: z.number().describe('分：price_per_day × days × insured_count'),
});

/** The return address as the order keeps it (names resolved when it was chosen). */
const returnAddressSnapshot = z.object({
  address_id: z.number().describe('复制自的地址簿条目（之后可能已修改或删除）'),
  kind: z.enum(ADDRESS_KIND_VALUES),
  company_name: z.string().nullable(),
  name: z.string(),
  mobile_phone: z.string(),
  province_code: z.string(),
  city_code: z.string(),
  county_code: z.string(),
  province_name: z.string(),
  city_name: z.string(),
  county_name: z.string(),
  detail: z.string(),
});

export const paymentView = z.object({
  out_trade_no: z.string(),
  channel: z.enum(PAYMENT_CHANNEL_VALUES),
  channel_label: z.string().describe('微信支付 / 支付宝'),
  amount: z.number().describe('金额（分）'),
  status: z.enum(PAYMENT_STATUS_VALUES).describe('pending 待支付，paid 已支付，closed 已关闭，refund_pending 待退款'),
  status_label: z.string(),
  created_at: z.number(),
  paid_at: z.number().nullable(),
  price_difference_id: z.number().nullable().describe('补差价的支付：所付的补差价；订单本身的支付为 null'),
});

const applicantInterview = z.object({
  interview_slot_id: z.number(),
  slot_date: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  consulate_name: z.string(),
  consulate_address: z.string(),
});

// ── Create ────────────────────────────────────────────────────────────────

const departureWarning = z
  .object({
    message: z.string(),
    working_days: z.number().describe('办理日期至出发前一天的工作日数'),
    need_days: z.number(),
    earliest_departure_date: z.string().describe('留足 need_days 个工作日的最早出发日期'),
  })
  .nullable()
  .describe('出发日期距办理日期的工作日少于产品通常所需时给出提醒（不阻止下单）');

export const orderCreate = defineContract({
  path: '/www/order/order_create',
  payload: z.object({
    visa_product_id: idField,
    consular_district_id: idField.nullish().describe('领区；产品指定了领区时可省略，传入时必须与之一致'),
    departure_date: dateText.describe(`出发日期 YYYY-MM-DD，不得早于今天（北京时间），不得晚于 ${ORDER_LIMITS.maxDepartureDaysAhead} 天后`),
    order_date: dateText.nullish().describe('办理（递交）日期 YYYY-MM-DD，默认今天；不得早于今天、不得晚于出发日期'),
    applicants: z
      .array(
        z.object({
          name: z.string().max(200).describe(`去除首尾空白后 1–${ORDER_LIMITS.applicantNameMaxLength} 个字`),
          identity_id: z.number().int().min(0).max(4).describe('0 在职，1 自由职业，2 退休，3 在校学生，4 学龄前儿童'),
          mobile_phone: z.string().max(40).describe('中国大陆手机号 1[3-9]xxxxxxxxx'),
          email: z.string().max(EMAIL_MAX_LENGTH).nullish(),
          passport_no: z.string().max(40).nullish().describe('护照号码（选填）：5–20 位字母或数字，不区分大小写；可由护照识别填入，须经客户确认'),
          passport_expiry: z
            .string()
            .max(32)
            .nullish()
            .describe('护照有效期至（选填）YYYY-MM-DD：不得早于出发日期；不足行程结束后 6 个月时订单详情给出提醒 passport_warning（common/passport.ts）'),
        }),
      )
      .max(100)
      .describe(`${ORDER_LIMITS.minApplicants}–${ORDER_LIMITS.maxApplicants} 位申请人`),
  }),
  result: z.object({
    user_order_id: z.number(),
    expires_at: z.number().describe('未支付订单的自动取消时间（毫秒时间戳）'),
    departure_warning: departureWarning,
  }),
});

// ── Detail and list ───────────────────────────────────────────────────────

const applicantSummary = z.object({
  applicant_id: z.number(),
  name: z.string(),
  identity_id: z.number(),
  identity_label: z.string(),
  status: z.string(),
  status_label: z.string(),
  // Visa results (issue 11): the issued visa's dates, for the list card.
  visa_valid_from: z.string().nullable().describe('已出签：签证有效期起（yyyy-mm-dd）'),
  visa_valid_to: z.string().nullable().describe('已出签：签证有效期止（yyyy-mm-dd）'),
});

const summaryFields = {
  user_order_id: z.number(),
  order_no: z.string().describe('订单号（给人看的，如 YD20261128000042）；接口仍以 user_order_id 指定订单'),
  group_name: z.string().nullable().describe('出行团组（order_group_set）；没有为 null'),
  status: z.enum(ORDER_STATUS_VALUES).describe('draft 草稿，pending_payment 待支付，processing 办理中，completed 已完成，cancelled 已取消，refunded 已退款'),
  status_label: z.string(),
  step: z.enum(ORDER_STEP_VALUES).nullable().describe('办理中的子步骤'),
  step_label: z.string().nullable(),
  visa_product_id: z.number(),
  product_title: z.string().describe('下单时的产品标题（快照）'),
  country: z.string(),
  visa_type: z.string(),
  consular_district: z.object({ consular_district_id: z.number(), name: z.string() }).nullable(),
  departure_date: z.string(),
  order_date: z.string(),
  unit_price: z.number().describe('分，下单时的单价（快照）'),
  applicant_count: z.number(),
  total_amount: z.number().describe('分'),
  created_at: z.number(),
  expires_at: z.number().nullable().describe('未支付订单的自动取消时间；已支付或已关闭为 null'),
  departure_date_past: z.boolean().describe('出发日期已过且尚未递交使馆：需要重新选择出发日期'),
  needs_action: z.boolean().describe('属于“需要处理”'),
  actions: z.array(z.enum(ORDER_ACTIONS)).describe('客户可以或需要进行的操作'),
};

const orderSummary = z.object({ ...summaryFields, applicants: z.array(applicantSummary) });

const orderApplicant = applicantSummary.extend({
  mobile_phone: z.string(),
  email: z.string().nullable(),
  passport_no: z.string().nullable(),
  passport_expiry: z.string().nullable().describe('护照有效期至 YYYY-MM-DD；未填写为 null'),
  passport_warning: z
    .string()
    .nullable()
    .describe('护照有效期不足行程结束（出发日期加订单所购签证的停留天数）后 6 个月时的提醒（可能被拒签），含有效期、行程结束日与所需日期；足够或未填写为 null'),
  insured: z.boolean().describe('是否为被保险人'),
  interview: applicantInterview.nullable().describe('已选的面试/录指纹时间'),
  material_file_count: z.number().describe('已上传的文件数（资料和照片）'),
});

export const missingMaterial = z.object({
  applicant_id: z.number(),
  applicant_name: z.string(),
  material_id: z.number().nullable().describe('null 为签证照片'),
  name: z.string(),
});

const orderDetail = z.object({
  ...summaryFields,
  visa_country_id: z.number(),
  need_interview: z.boolean(),
  reject_refund: z.boolean(),
  updated_at: z.number(),
  cancelled_at: z.number().nullable(),
  cancel_reason: z.string().nullable(),
  version: z.number().describe('每次状态变化加一（乐观并发）'),
  allowed_events: z.array(z.enum(ORDER_EVENT_VALUES)).describe('按订单生命周期表，客户此刻可以发起的事件（页面只显示这些操作）'),
  applicants: z.array(orderApplicant),
  events: z
    .array(
      z.object({
        event: z.string(),
        event_label: z.string(),
        actor: z.enum(['customer', 'operator', 'system']),
        actor_name: z.string().nullable().describe('客户操作的成员姓名（issue 29）；签证顾问和系统为 null'),
        from_status: z.string().nullable(),
        to_status: z.string().nullable(),
        created_at: z.number(),
      }),
    )
    .describe('办理进度（事件记录），最早在前'),
  schedule: z
    .object({
      reached: z
        .array(z.object({ key: z.string(), label: z.string(), reached_at: z.number() }))
        .describe('已到达的办理节点及时间，最早在前（重新上传后再次审核会出现两次）'),
      upcoming: z.array(z.object({ key: z.string(), label: z.string() })).describe('按该订单的常规流程尚未到达的节点'),
    })
    .describe('办理进度的节点（由事件记录得出）'),
  effect_date: z.string().nullable().describe('签证生效日期；null 表示从出发日期起'),
  product_amount: z.number().describe('分，单价 × 申请人数'),
  insurance_amount: z.number().describe('分'),
  discount_amount: z.number().describe('分'),
  insurance: insuranceSnapshot.nullable().describe('确认订单时的保险方案快照'),
  return_address: returnAddressSnapshot.nullable().describe('确认订单时的回寄地址快照'),
  payments: z.array(paymentView),
  confirmed_at: z.number().nullable(),
  paid_at: z.number().nullable(),
  ordering_step: z.enum(ORDERING_STEP_VALUES).nullable().describe('草稿订单“继续办理”的下一步；待支付为 pay'),
  missing_materials: z.array(missingMaterial).describe('尚未上传的必需电子资料（含签证照片）'),
  // Price differences (issue 10).
  price_differences: z.array(priceDifferenceView).describe('补差价，最新的在前'),
  price_difference_due: z.number().describe('待支付的补差价（分）；没有为 0'),
  price_difference_paid: z.number().describe('已支付的补差价合计（分）'),
  paid_total: z.number().describe('实付合计（分）：已支付的订单金额加已支付的补差价'),
  // Visa results (issue 11).
  visa_results: z.array(visaResultView).describe('每位申请人的签证结果（签证信息、拒签原因）'),
  // Refunds (issue 11).
  refunds: z.array(refundView).describe('退款，最新的在前'),
});

export const orderDetailGet = defineContract({ path: '/www/order/order_detail_get', payload: z.object({ user_order_id: idField }), result: orderDetail });

export const orderList = defineContract({
  path: '/www/order/order_list',
  payload: z.object({
    tab: z
      .enum(ORDER_LIST_TAB_KEYS)
      .default('all')
      .describe('all 全部，unpaid 待支付，action 需要处理，processing 办理中，completed 已完成，closed 已取消/已退款'),
    page: pageField,
    scope: z.enum(['all', 'mine']).default('all').describe('all 企业的全部订单，mine 我下的订单（issue 29）'),
  }),
  result: z.object({ page_data: z.array(orderSummary), total_count: z.number() }),
});

// ── Changes ───────────────────────────────────────────────────────────────

export const orderDepartureDateUpdate = defineContract({
  path: '/www/order/order_departure_date_update',
  payload: z.object({
    user_order_id: idField,
    departure_date: dateText.describe('新的出发日期 YYYY-MM-DD，不得早于今天（北京时间）'),
  }),
  result: z.object({ user_order_id: z.number(), departure_date: z.string(), departure_warning: departureWarning }),
});

export const orderCancel = defineContract({
  path: '/www/order/order_cancel',
  payload: z.object({
    user_order_id: idField,
    reason: z.string().max(ORDER_LIMITS.cancelReasonMaxLength).nullish().describe('取消原因（可选）'),
  }),
  result: z.object({ user_order_id: z.number(), status: z.literal('cancelled') }),
});

export const orderConfirm = defineContract({
  path: '/www/order/order_confirm',
  payload: z.object({
    user_order_id: idField,
    address_id: idField.describe('回寄地址：企业地址簿中的回寄地址或同行地址'),
    insurance_plan_id: idField.nullable().describe('保险方案；null 表示不购买保险'),
    insurance_days: z.number().min(0).max(100_000).nullish().describe('保险天数，须在方案的最少与最多天数之间'),
    insured_applicant_ids: z.array(idField).max(100).optional().describe('被保险的申请人（本订单的申请人），选择方案时至少一位'),
    protocol_agreed: z.boolean().optional().describe('已阅读并同意《保险条款》；选择方案时必须为 true'),
  }),
  result: z.object({
    user_order_id: z.number(),
    status: z.literal('pending_payment'),
    product_amount: z.number().describe('分：单价 × 申请人数'),
    insurance_amount: z.number().describe('分：每人每天价格 × 天数 × 被保险人数'),
    discount_amount: z.number(),
    total_amount: z.number().describe('分：product_amount + insurance_amount − discount_amount，即应付金额'),
    expires_at: z.number().nullable().describe('自动取消时间（创建 + 24 小时），确认不会延长'),
  }),
});

export const ORDER_CONTRACTS = [orderCreate, orderDetailGet, orderList, orderDepartureDateUpdate, orderCancel, orderConfirm] as const;

export type OrderCreateInput = ParsedPayloadOf<typeof orderCreate>;
export type OrderCreatePayload = z.input<typeof orderCreate.payload>;
export type OrderCreateResult = ResultOf<typeof orderCreate>;
export type DepartureWarning = NonNullable<OrderCreateResult['departure_warning']>;
export type OrderSummary = z.output<typeof orderSummary>;
export type OrderApplicantSummary = z.output<typeof applicantSummary>;
export type OrderApplicant = z.output<typeof orderApplicant>;
export type OrderDetail = ResultOf<typeof orderDetailGet>;
export type OrderListResult = ResultOf<typeof orderList>;
export type OrderConfirmInput = ParsedPayloadOf<typeof orderConfirm>;
export type OrderConfirmResult = ResultOf<typeof orderConfirm>;
export type InsuranceItem = z.output<typeof insuranceItem>;
export type InsuranceSnapshot = z.output<typeof insuranceSnapshot>;
export type ReturnAddressSnapshot = z.output<typeof returnAddressSnapshot>;
export type ApplicantInterview = z.output<typeof applicantInterview>;
export type PaymentView = z.output<typeof paymentView>;
export type MissingMaterialView = z.output<typeof missingMaterial>;

/** The order list's 全部 / 我的订单 (issue 29). */
export type OrderListScope = 'all' | 'mine';
