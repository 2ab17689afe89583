// The back office's order calls (`/admin-api/…`, operator sessions only): the
// work queue, taking and assigning an order, the workbench, each file's
// review, and the file access log (supervisors). Rules: docs/order-rules.md
// ("Work queue and service levels", "Material review"). The workbench is the
// operator's one view of an order (decision 0035): every panel's data comes
// in its answer, each as the panel's own call answers it.
import { z } from 'zod';
import { MATERIAL_CONTENT_TYPES, MATERIAL_REVIEW_STATUS_VALUES } from '../material.ts';
import { ORDER_EVENT_VALUES, ORDER_STATUS_VALUES, ORDER_STEP_VALUES } from '../order.ts';
import {
  QUEUE_BULK_MAX,
  QUEUE_COURIER_FILTER_VALUES,
  QUEUE_REFUND_FILTER_VALUES,
  QUEUE_SORT_VALUES,
  QUEUE_VIEW_VALUES,
  REVIEW_LIMITS,
  REVIEW_REASON_VALUES,
} from '../review.ts';
import { defineContract, type ResultOf } from './define.ts';
import { pageField, rowId } from './fields.ts';
import { adminInterviewPanel } from './interview-notice.ts';
import { adminMailGet } from './mail.ts';
import { adminPageCheckDetail } from './page-check.ts';
import { adminPriceDifferenceList } from './price-difference.ts';
import { adminRefundList } from './refund.ts';
import { adminShipBackGet } from './ship-back.ts';
import { adminTravellerMessages } from './traveller-message.ts';
import { adminResultDetail } from './visa-result.ts';

// ── Queue ─────────────────────────────────────────────────────────────────

const queueRow = z.object({
  user_order_id: z.number(),
  order_no: z.string().describe('订单号（给人看的）'),
  step: z.enum(ORDER_STEP_VALUES).nullable().describe('办理步骤；已完成的订单（只在“退款失败”筛选中出现）为 null'),
  step_label: z.string().describe('步骤名称；没有步骤时为订单状态（如“已完成”）'),
  product_title: z.string(),
  country: z.string(),
  consular_district: z.string().nullable(),
  applicant_count: z.number(),
  applicant_names: z.array(z.string()).describe('前几位申请人的姓名'),
  departure_date: z.string(),
  paid_at: z.number().nullable(),
  step_entered_at: z.number().nullable(),
  time_in_step_ms: z.number().describe('在当前步骤停留的时长（毫秒，服务器时间计算）'),
  step_due_at: z.number().nullable().describe('当前步骤的到期时间（按中国工作日计算）；没有时限的步骤为 null'),
  overdue: z.boolean(),
  departure_at_risk: z.boolean().describe('距出发日期的工作日少于产品剩余的办理工作日'),
  courier_attention: z.boolean().describe('有物流异常的快递（决策 0039）'),
  assignee: z.object({ operator_id: z.number(), name: z.string() }).nullable(),
  version: z.number(),
});

export const adminOrderQueue = defineContract({
  path: '/admin-api/order/queue',
  payload: z.object({
    step: z.enum(ORDER_STEP_VALUES).optional().describe('办理步骤；不传为全部'),
    visa_country_id: rowId.optional(),
    consular_district_id: rowId.optional(),
    assignee: z
      .union([z.enum(['all', 'none', 'me']), rowId])
      .default('all')
      .describe('all 全部，none 未分配，me 我的，或人员 id'),
    q: z.string().max(REVIEW_LIMITS.searchMaxLength).optional().describe('订单号、申请人姓名或手机号（精确匹配）'),
    refund: z
      .enum(QUEUE_REFUND_FILTER_VALUES)
      .optional()
      .describe('failed 退款失败：有退款失败、款项尚未重新退回的订单（办理中和已完成的订单；规则见决策 0026）'),
    courier: z
      .enum(QUEUE_COURIER_FILTER_VALUES)
      .optional()
      .describe('attention 物流异常：有快递最新轨迹为派送不成功、滞留或退回，或超过 COURIER_ATTENTION_DAYS 天仍未签收的订单（决策 0039）'),
    due_soon: z.boolean().optional().describe('true 只看即将超时：当前步骤 24 小时内到期或已逾期'),
    sort: z.enum(QUEUE_SORT_VALUES).default('due_asc').describe('due_asc 到期时间从早到晚（已逾期的在前），due_desc 从晚到早；没有时限的总在最后'),
    page: pageField,
    page_size: z.number().int().min(1).max(REVIEW_LIMITS.queueMaxPageSize).default(REVIEW_LIMITS.queuePageSize),
  }),
  result: z.object({
    list: z.array(queueRow).describe('按 sort 排列（默认已逾期的在前），再按订单号'),
    total: z.number().describe('符合条件的订单数，最多计到 1000'),
    total_exact: z.boolean().describe('false 表示超过 1000 个（显示为 1000+）'),
    page: z.number(),
    page_size: z.number(),
    now: z.number().describe('服务器时间（毫秒）'),
  }),
});

export const adminQueueFilters = defineContract({
  path: '/admin-api/order/queue_filters',
  payload: z.object({}),
  result: z.object({
    steps: z.array(z.object({ value: z.enum(ORDER_STEP_VALUES), label: z.string() })),
    countries: z.array(z.object({ visa_country_id: z.number(), name: z.string() })),
    districts: z.array(z.object({ consular_district_id: z.number(), visa_country_id: z.number(), name: z.string() })),
    operators: z.array(z.object({ operator_id: z.number(), name: z.string() })),
  }),
});

// ── Take and assign ───────────────────────────────────────────────────────

const assigned = z.object({ user_order_id: z.number(), assignee_operator_id: z.number(), version: z.number() });

export const adminOrderTake = defineContract({
  path: '/admin-api/order/take',
  payload: z.object({ user_order_id: rowId }),
  result: assigned,
});

export const adminOrderAssign = defineContract({
  path: '/admin-api/order/assign',
  payload: z.object({ user_order_id: rowId, operator_id: rowId }),
  result: assigned,
});

// ── Bulk take and assign (issue 27) ────────────────────────────────────────

const bulkOrderIds = z
  .array(rowId)
  .min(1)
  .max(QUEUE_BULK_MAX)
  .refine((ids) => new Set(ids).size === ids.length, { message: '订单不能重复' })
  .describe(`订单 id，1–${QUEUE_BULK_MAX} 个，不重复`);

const bulkResult = z.object({
  results: z
    .array(
      z.object({
        user_order_id: z.number(),
        order_no: z.string().nullable().describe('订单号（YD…，给人看的）；没有这个 id 的订单为 null'),
        ret: z.number().describe('0 成功；否则为这一单单独调用时的错误码'),
        msg: z.string().describe('成功为空；否则为这一单的中文原因'),
        version: z.number().nullable(),
      }),
    )
    .describe('每个订单的结果，顺序同请求'),
  succeeded: z.number(),
  failed: z.number(),
});

export const adminOrderTakeMany = defineContract({
  path: '/admin-api/order/take_many',
  payload: z.object({ user_order_ids: bulkOrderIds }),
  result: bulkResult,
});

export const adminOrderAssignMany = defineContract({
  path: '/admin-api/order/assign_many',
  payload: z.object({ user_order_ids: bulkOrderIds, operator_id: rowId }),
  result: bulkResult,
});

// ── Saved views (issue 27) ────────────────────────────────────────────────

export const adminQueueView = defineContract({
  path: '/admin-api/order/queue_view',
  payload: z.object({}),
  result: z.object({ view: z.enum(QUEUE_VIEW_VALUES).describe('本人上次选择的队列视图；从未选择过为 all（全部）') }),
});

export const adminQueueViewSave = defineContract({
  path: '/admin-api/order/queue_view_save',
  payload: z.object({ view: z.enum(QUEUE_VIEW_VALUES) }),
  result: z.object({ view: z.enum(QUEUE_VIEW_VALUES) }),
});

// ── Workbench ─────────────────────────────────────────────────────────────

const reviewFile = z.object({
  file_id: z.number(),
  kind: z.enum(['material', 'photo']),
  file_name: z.string(),
  content_type: z.enum(MATERIAL_CONTENT_TYPES),
  size: z.number(),
  url: z.string().describe('/admin-files/material/{file_id}：每次打开都写入访问日志'),
  review_status: z.enum(MATERIAL_REVIEW_STATUS_VALUES),
  review_status_label: z.string(),
  review_reasons: z.array(z.enum(REVIEW_REASON_VALUES)),
  no_pass_memo: z.string().nullable(),
  reviewed_by: z.object({ operator_id: z.number(), name: z.string() }).nullable(),
  reviewed_at: z.number().nullable(),
  review_round: z.number().nullable(),
  created_at: z.number(),
  reused_from_traveller: z.boolean().describe('客户从常用出行人保存的证件中选用（同一文件）：审核界面标注“来自常用出行人”'),
  photo_check: z.string().nullable().describe('签证照片的自动检测结论（一行中文，issue 28）；其他资料或未检测为 null'),
});

const workbenchItem = z.object({
  material_id: z.number().nullable().describe('签证照片为 null'),
  name: z.string(),
  attention: z.string(),
  sample: z.string().nullable().describe('样例图片地址（审核时与文件并排显示）；签证照片为 null'),
  required: z.boolean(),
  files: z.array(reviewFile),
});

export const adminOrderWorkbench = defineContract({
  path: '/admin-api/order/workbench',
  payload: z.object({ user_order_id: rowId }),
  result: z.object({
    order: z.object({
      user_order_id: z.number(),
      order_no: z.string().describe('订单号（给人看的）'),
      status: z.enum(ORDER_STATUS_VALUES),
      status_label: z.string(),
      step: z.enum(ORDER_STEP_VALUES).nullable(),
      step_label: z.string().nullable(),
      version: z.number(),
      allowed_events: z.array(z.enum(ORDER_EVENT_VALUES)).describe('按订单生命周期表，当前操作员此刻可以发起的事件'),
      blocked_events: z
        .array(z.object({ event: z.enum(ORDER_EVENT_VALUES), reason: z.string() }))
        .describe('当前状态下本可发起、但此刻被规则拒绝的事件及拒绝原因（按钮旁显示原因）'),
      review_round: z.number(),
      enterprise_name: z.string(),
      account_name: z.string(),
      departure_date: z.string(),
      order_date: z.string(),
      effect_date: z.string().nullable(),
      step_entered_at: z.number().nullable(),
      step_due_at: z.number().nullable(),
      overdue: z.boolean(),
      departure_at_risk: z.boolean(),
      assignee: z.object({ operator_id: z.number(), name: z.string() }).nullable(),
      total_amount: z.number(),
      paid_at: z.number().nullable(),
    }),
    product: z.object({
      visa_product_id: z.number(),
      title: z.string(),
      country: z.string(),
      visa_type: z.string(),
      consular_district: z.string().nullable(),
      need_interview: z.boolean(),
      need_days: z.number(),
      unit_price: z.number(),
      mailed_materials: z.boolean().describe('产品有需邮寄的纸质资料（审核通过后进入待邮寄资料）'),
    }),
    applicants: z.array(
      z.object({
        applicant_id: z.number(),
        name: z.string(),
        identity_label: z.string(),
        mobile_phone: z.string(),
        email: z.string().nullable(),
        passport_no: z.string().nullable(),
        passport_expiry: z.string().nullable().describe('护照有效期至 YYYY-MM-DD；未填写为 null'),
        passport_warning: z
          .string()
          .nullable()
          .describe('护照有效期不足行程结束后 6 个月时的提醒，与客户看到的相同（common/passport.ts）；足够或未填写为 null'),
        interview: z.object({ date: z.string(), start_time: z.string(), end_time: z.string() }).nullable(),
        items: z.array(workbenchItem).describe('电子资料和签证照片，每项的文件'),
      }),
    ),
    return_address: z
      .object({ name: z.string(), mobile_phone: z.string(), region: z.string(), detail: z.string() })
      .nullable()
      .describe('回寄地址（下单时的快照）'),
    payments: z.array(
      z.object({
        out_trade_no: z.string(),
        channel: z.string(),
        amount: z.number(),
        status: z.string(),
        created_at: z.number(),
        paid_at: z.number().nullable(),
        price_difference_id: z.number().nullable().describe('补差价的支付：所付的补差价；订单本身的支付为 null'),
      }),
    ),
    events: z.array(
      z.object({
        event_id: z.number(),
        event: z.string(),
        event_label: z.string(),
        actor: z.string(),
        actor_name: z.string().nullable(),
        from_step: z.string().nullable(),
        to_step: z.string().nullable(),
        detail: z.string().nullable().describe('记录的内容（简述）'),
        created_at: z.number(),
      }),
    ),
    pending_count: z.number().describe('本轮尚待审核的文件数'),
    can_review: z.boolean().describe('当前人员现在可以审核（资料审核中，且为办理人员或主管）'),
    panels: z
      .object({
        page_check: adminPageCheckDetail.result.nullable().describe('核对页与递交（同 /admin-api/page_check/detail）'),
        mail: adminMailGet.result.nullable().describe('邮寄资料（同 /admin-api/order/mail）'),
        ship_back: adminShipBackGet.result.nullable().describe('护照寄回与完成（同 /admin-api/order/ship_back）'),
        interview: adminInterviewPanel.result.nullable().describe('面试/录指纹通知（同 /admin-api/order/interview_panel）；产品不需要面试时为 null'),
        price_difference: adminPriceDifferenceList.result.nullable().describe('补差价（同 /admin-api/order/price_difference_list）'),
        refund: adminRefundList.result.nullable().describe('退款（同 /admin-api/order/refund_list）'),
        result: adminResultDetail.result.nullable().describe('签证结果（同 /admin-api/result/detail）'),
        traveller_messages: adminTravellerMessages.result.nullable().describe('申请人本人收到的短信与邮件（同 /admin-api/order/traveller_messages）'),
      })
      .describe('工作台各面板的数据，与各面板自己的查询一次读出；某个面板的查询被拒绝时为 null'),
  }),
});

// ── Per-file review ───────────────────────────────────────────────────────

export const adminFileReview = defineContract({
  path: '/admin-api/order/file_review',
  payload: z.object({
    user_order_id: rowId,
    file_id: rowId,
    version: z.number().int().min(0).describe('打开工作台时订单的 version；订单已变化则拒绝（2032）'),
    result: z.enum(['pass', 'no_pass']),
    reasons: z.array(z.enum(REVIEW_REASON_VALUES)).max(REVIEW_REASON_VALUES.length).default([]),
    memo: z.string().max(REVIEW_LIMITS.memoMaxLength).nullable().optional(),
  }),
  multiline: ['memo'],
  result: z.object({
    file_id: z.number(),
    review_status: z.enum(MATERIAL_REVIEW_STATUS_VALUES),
    version: z.number().describe('订单的新 version'),
    pending_count: z.number(),
    round_result: z.enum(['passed', 'failed']).nullable().describe('本轮最后一个文件审核后自动结束：passed 进入下一步，failed 待重新上传'),
    step: z.enum(ORDER_STEP_VALUES).nullable(),
    step_label: z.string().nullable(),
  }),
});

// ── Access log (supervisors) ──────────────────────────────────────────────

export const adminFileAccessLog = defineContract({
  path: '/admin-api/file_access_log',
  payload: z.object({ operator_id: rowId.optional(), user_order_id: rowId.optional(), page: pageField }),
  result: z.object({
    list: z.array(
      z.object({
        file_access_log_id: z.number(),
        operator_id: z.number(),
        operator_name: z.string(),
        file_kind: z.string(),
        file_id: z.number(),
        file_name: z.string().nullable().describe('文件已被替换或删除时为 null'),
        user_order_id: z.number(),
        ip: z.string().nullable(),
        accessed_at: z.number(),
      }),
    ),
    total: z.number(),
    page: z.number(),
    page_size: z.number(),
  }),
});

export const ADMIN_ORDER_CONTRACTS = [
  adminOrderQueue,
  adminQueueFilters,
  adminOrderTake,
  adminOrderAssign,
  adminOrderTakeMany,
  adminOrderAssignMany,
  adminQueueView,
  adminQueueViewSave,
  adminOrderWorkbench,
  adminFileReview,
  adminFileAccessLog,
] as const;

export type AdminQueueResult = ResultOf<typeof adminOrderQueue>;
export type AdminQueueRow = AdminQueueResult['list'][number];
export type AdminQueueFilters = ResultOf<typeof adminQueueFilters>;
export type AdminBulkResult = ResultOf<typeof adminOrderTakeMany>;
export type AdminWorkbench = ResultOf<typeof adminOrderWorkbench>;
export type AdminWorkbenchPanels = AdminWorkbench['panels'];
export type AdminReviewFile = AdminWorkbench['applicants'][number]['items'][number]['files'][number];
export type AdminFileReviewResult = ResultOf<typeof adminFileReview>;
export type AdminFileAccessLog = ResultOf<typeof adminFileAccessLog>;
