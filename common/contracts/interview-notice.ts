// The interview / fingerprint notice (issue 10): the customer reads the
// notice of each applicant, asks for another time (a free slot of the same
// consulate), and the back office publishes the notices and accepts or
// declines the requests. Rules: docs/order-rules.md ("Interview notice").
import { z } from 'zod';
import { defineContract, type ParsedPayloadOf, type ResultOf } from './define.ts';
import { rowId } from './fields.ts';

export const INTERVIEW_NOTICE_LIMITS = { textMax: 2000, materialsMax: 30, materialMax: 100, reasonMax: 200 } as const;

const chinaText = (max: number) => z.string().trim().min(1).max(max);

/** What the operator writes and the customer reads. */
const noticeFields = z.object({
  interview_date: z.string().max(10).describe('YYYY-MM-DD（北京时间）'),
  start_time: z.string().max(5).describe('HH:MM'),
  end_time: z.string().max(5).describe('HH:MM'),
  consulate_name: chinaText(100),
  consulate_address: chinaText(300),
  process: chinaText(INTERVIEW_NOTICE_LIMITS.textMax).describe('办理流程（每行一步）'),
  attention: chinaText(INTERVIEW_NOTICE_LIMITS.textMax).describe('注意事项（每行一条）'),
  telephone: chinaText(INTERVIEW_NOTICE_LIMITS.textMax).describe('电话注意事项'),
  materials: z.array(chinaText(INTERVIEW_NOTICE_LIMITS.materialMax)).min(1).max(INTERVIEW_NOTICE_LIMITS.materialsMax).describe('需携带的资料'),
});

/** The panel's form before a notice is published: prefilled where the order knows (its slot, consulate, checklist), blank where it does not. */
const draftText = (max: number) => z.string().max(max);
const noticeDraft = noticeFields.extend({
  consulate_name: draftText(100),
  consulate_address: draftText(300),
  process: draftText(INTERVIEW_NOTICE_LIMITS.textMax),
  attention: draftText(INTERVIEW_NOTICE_LIMITS.textMax),
  telephone: draftText(INTERVIEW_NOTICE_LIMITS.textMax),
  materials: z.array(draftText(INTERVIEW_NOTICE_LIMITS.materialMax)).max(INTERVIEW_NOTICE_LIMITS.materialsMax),
});

const notice = noticeFields.extend({ interview_notice_id: z.number(), published_at: z.number(), updated_at: z.number() });

const slotTime = z.object({ interview_slot_id: z.number(), slot_date: z.string(), start_time: z.string(), end_time: z.string() });

const changeRequest = z.object({
  change_request_id: z.number(),
  applicant_id: z.number(),
  status: z.enum(['open', 'accepted', 'declined']),
  to: slotTime,
  reason: z.string().nullable(),
  decline_reason: z.string().nullable(),
  created_at: z.number(),
  decided_at: z.number().nullable(),
});

const slot = z.object({ interview_slot_id: z.number(), start_time: z.string(), end_time: z.string(), remaining: z.number(), full: z.boolean() });
const freeDate = z.object({ date: z.string(), weekday: z.string(), provisional: z.boolean(), slots: z.array(slot) });

// ── The customer's calls (/www) ───────────────────────────────────────────

export const interviewNoticeDetail = defineContract({
  path: '/www/order/interview_notice_detail',
  payload: z.object({ user_order_id: rowId }),
  result: z.object({
    user_order_id: z.number(),
    order_no: z.string().describe('订单号（给人看的）'),
    product_title: z.string(),
    country: z.string(),
    status: z.string(),
    step: z.string().nullable(),
    in_interview_step: z.boolean().describe('订单在“待面试/录指纹”步骤：可以申请修改时间'),
    departure_date: z.string(),
    consulate: z
      .object({
        name: z.string().describe('面试/录指纹地点：产品写明签证中心时为该国签证申请中心，否则为领馆'),
        address: z.string(),
        city: z.string(),
        place_kind: z.enum(['visa_centre', 'consulate']).describe('visa_centre 签证中心；consulate 领馆'),
      })
      .nullable(),
    video: z.object({ url: z.string(), title: z.string() }).describe('该领馆的面试指引视频（未单独配置时为默认视频）'),
    applicants: z.array(
      z.object({
        applicant_id: z.number(),
        name: z.string(),
        chosen: slotTime.nullable().describe('下单时选择（或改期后）的时段'),
        notice: notice.nullable().describe('已发布的面试通知；未发布为 null'),
        change_request: changeRequest.nullable().describe('最近一次改期申请'),
      }),
    ),
  }),
});

export const interviewChangeSlots = defineContract({
  path: '/www/order/interview_change_slots',
  payload: z.object({ user_order_id: rowId }),
  result: z.object({
    window: z.object({ from: z.string(), to: z.string() }).nullable(),
    dates: z.array(freeDate),
    notice: z.string().nullable(),
  }),
});

export const interviewChangeRequest = defineContract({
  path: '/www/order/interview_change_request',
  payload: z.object({
    user_order_id: rowId,
    applicant_id: rowId,
    interview_slot_id: rowId,
    reason: z.string().trim().max(INTERVIEW_NOTICE_LIMITS.reasonMax).optional(),
  }),
  multiline: ['reason'],
  result: z.object({ change_request_id: z.number(), version: z.number() }),
});

export const INTERVIEW_NOTICE_CONTRACTS = [interviewNoticeDetail, interviewChangeSlots, interviewChangeRequest] as const;

// ── The back office's calls (/admin-api) ──────────────────────────────────

export const adminInterviewPanel = defineContract({
  path: '/admin-api/order/interview_panel',
  payload: z.object({ user_order_id: rowId }),
  result: z.object({
    user_order_id: z.number(),
    step: z.string().nullable(),
    version: z.number(),
    can_act: z.boolean().describe('订单在“待面试/录指纹”且调用者是办理人员或主管'),
    applicants: z.array(
      z.object({
        applicant_id: z.number(),
        name: z.string(),
        chosen: slotTime.nullable(),
        published: z.boolean(),
        form: noticeDraft.describe('已发布的内容，未发布时为默认值（客户选择的时间、领馆、清单中的赴馆资料；未知的留空）'),
        open_request: changeRequest.extend({ to_full: z.boolean() }).nullable(),
      }),
    ),
  }),
});

export const adminInterviewNoticePublish = defineContract({
  path: '/admin-api/order/interview_notice_publish',
  payload: noticeFields.extend({ user_order_id: rowId, applicant_id: rowId, version: z.number().int().min(0) }),
  multiline: ['process', 'attention', 'telephone'],
  result: z.object({ interview_notice_id: z.number(), version: z.number() }),
});

export const adminInterviewChangeAccept = defineContract({
  path: '/admin-api/order/interview_change_accept',
  payload: z.object({ user_order_id: rowId, change_request_id: rowId, version: z.number().int().min(0) }),
  result: z.object({ version: z.number() }),
});

export const adminInterviewChangeDecline = defineContract({
  path: '/admin-api/order/interview_change_decline',
  payload: z.object({
    user_order_id: rowId,
    change_request_id: rowId,
    version: z.number().int().min(0),
    reason: z.string().trim().max(INTERVIEW_NOTICE_LIMITS.reasonMax).optional(),
  }),
  result: z.object({ version: z.number() }),
});

export const ADMIN_INTERVIEW_CONTRACTS = [adminInterviewPanel, adminInterviewNoticePublish, adminInterviewChangeAccept, adminInterviewChangeDecline] as const;

export type InterviewNoticeFields = z.output<typeof noticeFields>;
export type InterviewNoticeView = z.output<typeof notice>;
export type InterviewChangeView = z.output<typeof changeRequest>;
export type InterviewNoticeDetail = ResultOf<typeof interviewNoticeDetail>;
export type InterviewChangeSlots = ResultOf<typeof interviewChangeSlots>;
export type AdminInterviewPanel = ResultOf<typeof adminInterviewPanel>;
export type InterviewPublishInput = ParsedPayloadOf<typeof adminInterviewNoticePublish>;
export type InterviewChangeRequestInput = ParsedPayloadOf<typeof interviewChangeRequest>;
