// Payload and result schemas of the order calls. Payloads are loose where the
// service gives a more precise Chinese error of its own (dates, names, phone
// numbers, the number of applicants); results are checked against the types
// of common/order.ts at compile time.
import { z } from 'zod';
import {
  ORDER_LIMITS,
  ORDER_LIST_TAB_KEYS,
  ORDER_STATUS_VALUES,
  ORDER_STEP_VALUES,
  type OrderCreateResult,
  type OrderDetail,
  type OrderListResult,
  type OrderStatus,
  type OrderStep,
} from '../../../common/order.ts';
import { idField } from '../catalogue/catalogue.schemas.ts';

const dateText = z.string().max(32).describe('YYYY-MM-DD（北京时间）');

export const orderCreatePayload = z.object({
  visa_product_id: idField,
  consular_district_id: idField.nullish().describe('领区；产品指定了领区时可省略，传入时必须与之一致'),
  departure_date: dateText.describe('出发日期 YYYY-MM-DD，不得早于今天（北京时间）'),
  order_date: dateText.nullish().describe('办理（递交）日期 YYYY-MM-DD，默认今天；不得早于今天、不得晚于出发日期'),
  applicants: z
    .array(
      z.object({
        name: z.string().max(200).describe('去除首尾空白后 1–30 个字'),
        identity_id: z.number().int().min(0).max(4).describe('0 在职，1 自由职业，2 退休，3 在校学生，4 学龄前儿童'),
        mobile_phone: z.string().max(40).describe('中国大陆手机号 1[3-9]xxxxxxxxx'),
        email: z.string().max(100).nullish(),
      }),
    )
    .max(100)
    .describe(`1–${ORDER_LIMITS.maxApplicants} 位申请人`),
});

export const orderCreateResult = z.object({
  user_order_id: z.number(),
  expires_at: z.number().describe('未支付订单的自动取消时间（毫秒时间戳）'),
  departure_warning: z
    .object({
      message: z.string(),
      working_days: z.number(),
      need_days: z.number(),
      earliest_departure_date: z.string(),
    })
    .nullable()
    .describe('出发日期距办理日期的工作日少于产品通常所需时给出提醒（不阻止下单）'),
}) satisfies z.ZodType<OrderCreateResult>;

export const orderIdPayload = z.object({ user_order_id: idField });

export const orderCancelPayload = z.object({
  user_order_id: idField,
  reason: z.string().max(ORDER_LIMITS.cancelReasonMaxLength).nullish().describe('取消原因（可选）'),
});

export const orderDepartureDatePayload = z.object({
  user_order_id: idField,
  departure_date: dateText.describe('新的出发日期 YYYY-MM-DD，不得早于今天（北京时间）'),
});

export const orderDepartureDateResult = z.object({
  user_order_id: z.number(),
  departure_date: z.string(),
  departure_warning: orderCreateResult.shape.departure_warning,
});

export const orderListPayload = z.object({
  tab: z
    .enum(ORDER_LIST_TAB_KEYS)
    .default('all')
    .describe('all 全部，unpaid 待支付，action 需要处理，processing 办理中，completed 已完成，closed 已取消/已退款'),
  page: z.number().int().min(1).max(100_000).default(1),
});

const status = z.enum(ORDER_STATUS_VALUES as [OrderStatus, ...OrderStatus[]]);
const step = z.enum(ORDER_STEP_VALUES as [OrderStep, ...OrderStep[]]);
const action = z.enum(['continue', 'pay', 'cancel', 'choose_departure_date', 'reupload', 'mail_materials', 'confirm_page_check']);

const applicantSummary = z.object({
  applicant_id: z.number(),
  name: z.string(),
  identity_id: z.number(),
  identity_label: z.string(),
  status: z.string(),
  status_label: z.string(),
});

const summaryFields = {
  user_order_id: z.number(),
  status: status.describe('draft 草稿，pending_payment 待支付，processing 办理中，completed 已完成，cancelled 已取消，refunded 已退款'),
  status_label: z.string(),
  step: step.nullable().describe('办理中的子步骤'),
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
  actions: z.array(action).describe('客户可以或需要进行的操作'),
};

export const orderSummarySchema = z.object({ ...summaryFields, applicants: z.array(applicantSummary) });

export const orderListResult = z.object({
  page_data: z.array(orderSummarySchema),
  total_count: z.number(),
}) satisfies z.ZodType<OrderListResult>;

export const orderDetailResult = z.object({
  ...summaryFields,
  visa_country_id: z.number(),
  need_interview: z.boolean(),
  reject_refund: z.boolean(),
  updated_at: z.number(),
  cancelled_at: z.number().nullable(),
  cancel_reason: z.string().nullable(),
  version: z.number(),
  applicants: z.array(
    applicantSummary.extend({
      mobile_phone: z.string(),
      email: z.string().nullable(),
      passport_no: z.string().nullable(),
      insured: z.boolean().describe('是否为被保险人'),
      interview: z
        .object({
          interview_slot_id: z.number(),
          slot_date: z.string(),
          start_time: z.string(),
          end_time: z.string(),
          consulate_name: z.string(),
          consulate_address: z.string(),
        })
        .nullable()
        .describe('已选的面试/录指纹时间'),
      material_file_count: z.number().describe('已上传的文件数（资料和照片）'),
    }),
  ),
  events: z.array(
    z.object({
      event: z.string(),
      event_label: z.string(),
      actor: z.enum(['customer', 'operator', 'system']),
      from_status: z.string().nullable(),
      to_status: z.string().nullable(),
      created_at: z.number(),
    }),
  ),
  effect_date: z.string().nullable().describe('签证生效日期；null 表示从出发日期起'),
  product_amount: z.number().describe('分，单价 × 申请人数'),
  insurance_amount: z.number().describe('分'),
  discount_amount: z.number().describe('分'),
  insurance: z
    .object({
      insurance_plan_id: z.number(),
      name: z.string(),
      company: z.string(),
      items: z.array(z.object({ name: z.string(), amount: z.string() })),
      price_per_day: z.number(),
      days: z.number(),
      start_date: z.string(),
      end_date: z.string(),
      insured_count: z.number(),
      amount: z.number(),
    })
    .nullable()
    .describe('确认订单时的保险方案快照'),
  return_address: z
    .object({
      address_id: z.number(),
      kind: z.enum(['return', 'peer']),
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
    })
    .nullable()
    .describe('确认订单时的回寄地址快照'),
  payments: z.array(
    z.object({
      out_trade_no: z.string(),
      channel: z.enum(['wechat', 'alipay']),
      channel_label: z.string(),
      amount: z.number(),
      status: z.enum(['pending', 'paid', 'closed', 'refund_pending']),
      status_label: z.string(),
      created_at: z.number(),
      paid_at: z.number().nullable(),
    }),
  ),
  confirmed_at: z.number().nullable(),
  paid_at: z.number().nullable(),
  ordering_step: z.enum(['create', 'upload', 'interview', 'confirm', 'pay']).nullable().describe('草稿订单“继续办理”的下一步；待支付为 pay'),
  missing_materials: z
    .array(z.object({ applicant_id: z.number(), applicant_name: z.string(), material_id: z.number().nullable(), name: z.string() }))
    .describe('尚未上传的必需电子资料（含签证照片）'),
}) satisfies z.ZodType<OrderDetail>;

export const orderCancelResult = z.object({ user_order_id: z.number(), status: z.literal('cancelled') });
