// The page check (核页, issue 10): the operator uploads each applicant's filled-in
// application pages (PDF or images) and publishes them; the customer reads
// them and, per applicant, confirms or asks for corrections with a comment on
// the page concerned; the operator republishes; once every applicant is
// confirmed the order moves on (interview, or waits for submit). The operator's
// `submit` (递交使馆) with the embassy submission date. Rules: docs/order-rules.md
// ("Page check"), decision 0022.
import { z } from 'zod';
import { ORDER_EVENT_VALUES, ORDER_STEP_VALUES } from '../order.ts';
import { defineContract, type ResultOf } from './define.ts';
import { dateText, rowId } from './fields.ts';

export const PAGE_CHECK_STATUS_VALUES = ['none', 'draft', 'published', 'correction', 'confirmed'] as const;
export type PageCheckApplicantStatus = (typeof PAGE_CHECK_STATUS_VALUES)[number];

export const PAGE_CHECK_STATUS_LABELS: Record<PageCheckApplicantStatus, string> = {
  none: '未上传',
  draft: '待发布',
  published: '待确认',
  correction: '申请修改',
  confirmed: '已确认',
};

export const PAGE_CHECK_LIMITS = {
  maxPagesPerApplicant: 30,
  commentMaxLength: 500,
  maxCommentsPerRequest: 20,
} as const;

const page = z.object({
  page_id: z.number(),
  file_name: z.string(),
  content_type: z.string().describe('application/pdf、image/jpeg 或 image/png（按文件内容判断）'),
  size: z.number(),
  url: z.string().describe('文件地址：客户为 /files/page-check/{page_id}，后台为 /admin-files/page-check/{page_id}'),
  created_at: z.number(),
});

const comment = z.object({
  comment_id: z.number(),
  page_id: z.number(),
  page_label: z.string().describe('意见所指页面（文件名，PDF 含第几页）'),
  page_no: z.number().nullable().describe('PDF 的第几页；图片为 null'),
  round: z.number(),
  comment: z.string(),
  created_at: z.number(),
});

const applicant = z.object({
  applicant_id: z.number(),
  name: z.string(),
  status: z.enum(PAGE_CHECK_STATUS_VALUES),
  status_label: z.string(),
  round: z.number().describe('发布轮次：首次发布为 1，每次重新发布加 1'),
  published_at: z.number().nullable(),
  confirmed_at: z.number().nullable(),
  pages: z.array(page).describe('客户只能看到已发布的页面'),
  comments: z.array(comment).describe('客户的修改意见，最新轮次在前'),
  allowed_events: z
    .array(z.enum(ORDER_EVENT_VALUES))
    .describe('按订单生命周期表（含该申请人核对页的状态），调用者此刻对该申请人可以发起的核对页事件：客户为确认/申请修改，后台为发布'),
});

const view = z.object({
  user_order_id: z.number(),
  product_title: z.string(),
  step: z.enum(ORDER_STEP_VALUES).nullable(),
  step_label: z.string(),
  version: z.number().describe('确认、申请修改、发布、递交时带上，订单已变化则拒绝（2032）'),
  need_interview: z.boolean(),
  all_confirmed: z.boolean(),
  submitted_date: z.string().nullable(),
  applicants: z.array(applicant),
});

export type PageCheckView = z.output<typeof view>;
export type PageCheckApplicantView = PageCheckView['applicants'][number];

// ── Customer (/www) ────────────────────────────────────────────────────────

export const pageCheckDetail = defineContract({
  path: '/www/order/page_check_detail',
  payload: z.object({ user_order_id: rowId }),
  result: view,
});

const decided = z.object({
  applicant_id: z.number(),
  status: z.enum(PAGE_CHECK_STATUS_VALUES),
  version: z.number(),
  step: z.enum(ORDER_STEP_VALUES).nullable(),
  step_label: z.string(),
  all_confirmed: z.boolean(),
});

export const pageCheckConfirm = defineContract({
  path: '/www/order/page_check_confirm',
  payload: z.object({ user_order_id: rowId, applicant_id: rowId, version: z.number().int().min(0) }),
  result: decided,
});

export const pageCheckCorrection = defineContract({
  path: '/www/order/page_check_correction',
  payload: z.object({
    user_order_id: rowId,
    applicant_id: rowId,
    version: z.number().int().min(0),
    comments: z
      .array(
        z.object({
          page_id: rowId,
          page_no: z.number().int().min(1).max(999).nullish().describe('PDF 的第几页'),
          comment: z.string().max(PAGE_CHECK_LIMITS.commentMaxLength),
        }),
      )
      .max(PAGE_CHECK_LIMITS.maxCommentsPerRequest),
  }),
  multiline: ['comments[].comment'],
  result: decided,
});

// ── Back office (/admin-api) ───────────────────────────────────────────────

export const adminPageCheckDetail = defineContract({
  path: '/admin-api/page_check/detail',
  payload: z.object({ user_order_id: rowId }),
  result: view.extend({
    can_edit: z.boolean().describe('订单在“待确认核对页”且调用者是办理人员或主管'),
    can_submit: z.boolean().describe('可以递交使馆：核对页已全部确认、无未支付的补差价、有面试时面试通知已全部发布'),
    submit_blocked_reason: z.string().nullable().describe('订单步骤允许递交使馆但尚不能递交的原因（如仍有申请人未确认核对页）；可以递交或步骤不允许时为 null'),
    paid_date: z.string().nullable(),
  }),
});

/** The upload's text fields (strings on the wire, before the file). */
export const adminPageCheckUpload = defineContract({
  path: '/admin-api/page_check/upload',
  body: 'multipart',
  payload: z.object({ user_order_id: rowId, applicant_id: rowId }),
  result: page.extend({ applicant_id: z.number(), status: z.enum(PAGE_CHECK_STATUS_VALUES) }),
});

export const adminPageCheckPageDelete = defineContract({
  path: '/admin-api/page_check/page_delete',
  payload: z.object({ user_order_id: rowId, page_id: rowId }),
  result: z.object({ page_id: z.number() }),
});

export const adminPageCheckPublish = defineContract({
  path: '/admin-api/page_check/publish',
  payload: z.object({ user_order_id: rowId, applicant_id: rowId, version: z.number().int().min(0) }),
  result: z.object({ applicant_id: z.number(), round: z.number(), version: z.number() }),
});

export const adminOrderSubmit = defineContract({
  path: '/admin-api/order/submit',
  payload: z.object({ user_order_id: rowId, version: z.number().int().min(0), submitted_date: dateText.describe('递交使馆的日期 YYYY-MM-DD') }),
  result: z.object({
    user_order_id: z.number(),
    step: z.enum(ORDER_STEP_VALUES).nullable(),
    step_label: z.string(),
    version: z.number(),
    submitted_date: z.string(),
  }),
});

export const PAGE_CHECK_CONTRACTS = [pageCheckDetail, pageCheckConfirm, pageCheckCorrection] as const;
export const ADMIN_PAGE_CHECK_CONTRACTS = [
  adminPageCheckDetail,
  adminPageCheckUpload,
  adminPageCheckPageDelete,
  adminPageCheckPublish,
  adminOrderSubmit,
] as const;

export type AdminPageCheckView = ResultOf<typeof adminPageCheckDetail>;
export type PageCheckDecided = ResultOf<typeof pageCheckConfirm>;
