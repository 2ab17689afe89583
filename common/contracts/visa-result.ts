// Visa results (issue 11): the back office records a result per applicant
// while the order is at the embassy (`/admin-api/result/…`), the customer
// reads them in the order detail (`visa_results`) and e-mails the visa infos
// (`/www/order/visa_info_send`). Files (e-visa, embassy letter) are uploaded
// first (multipart) and attached by the result's call. Rules:
// docs/order-rules.md, "Results".
import { z } from 'zod';
import { type ApplicantStatus, ORDER_STATUS_VALUES, ORDER_STEP_VALUES } from '../order.ts';
import { VISA_RESULT_FILE_KIND_VALUES } from '../visa-result.ts';
import { defineContract, type ResultOf } from './define.ts';
import { dateText, rowId } from './fields.ts';

const APPLICANT_STATUS_VALUES = ['pending', 'issued', 'rejected'] as const satisfies readonly ApplicantStatus[];

const resultFile = z.object({
  file_id: z.number(),
  kind: z.enum(VISA_RESULT_FILE_KIND_VALUES).describe('evisa 电子签证，letter 使馆拒签信'),
  file_name: z.string(),
  content_type: z.string(),
  size: z.number(),
  url: z.string().describe('下载地址（客户：只限本企业订单；后台：每次打开都记录）'),
});

/** One applicant's result as the customer sees it (the order detail's visa infos). */
export const visaResultView = z.object({
  applicant_id: z.number(),
  applicant_name: z.string(),
  status: z.enum(APPLICANT_STATUS_VALUES).describe('pending 办理中，issued 已出签，rejected 已拒签'),
  status_label: z.string(),
  visa_no: z.string().nullable(),
  valid_from: z.string().nullable().describe('yyyy-mm-dd'),
  valid_to: z.string().nullable().describe('yyyy-mm-dd'),
  entries: z.string().nullable().describe('单次 / 两次 / 多次'),
  stay_days: z.number().nullable(),
  has_evisa: z.boolean(),
  evisa: resultFile.nullable().describe('电子签证文件（已出签且有文件时）'),
  letter: resultFile.nullable().describe('使馆拒签信（拒签且有附件时）'),
  reject_reasons: z.array(z.string()).describe('常见拒签原因的代码'),
  reject_reason: z.string().nullable().describe('拒签原因（常见原因和说明合成的文字）'),
  recorded_at: z.number().nullable(),
});

const version = z.number().int().min(0).describe('打开工作台时订单的 version；订单已变化则拒绝（2182）');

const adminView = z.object({
  user_order_id: z.number(),
  status: z.enum(ORDER_STATUS_VALUES),
  step: z.enum(ORDER_STEP_VALUES).nullable(),
  version: z.number(),
  submitted_date: z.string().nullable(),
  is_evisa: z.boolean().describe('电子签产品：出签须上传电子签证'),
  can_record: z.boolean().describe('订单已递交使馆且调用者是办理人员或主管'),
  applicants: z.array(
    visaResultView.extend({
      identity_label: z.string(),
      recorded_by: z.string().nullable().describe('录入人员的姓名'),
    }),
  ),
});

export const adminResultDetail = defineContract({
  path: '/admin-api/result/detail',
  payload: z.object({ user_order_id: rowId }),
  result: adminView,
});

/** The upload's text fields (strings on the wire, before the file). */
export const adminResultFileUpload = defineContract({
  path: '/admin-api/result/file_upload',
  body: 'multipart',
  payload: z.object({ user_order_id: rowId, applicant_id: rowId, kind: z.enum(VISA_RESULT_FILE_KIND_VALUES) }),
  result: resultFile.extend({ applicant_id: z.number() }),
});

const recorded = z.object({ applicant_id: z.number(), status: z.enum(APPLICANT_STATUS_VALUES), version: z.number() });

export const adminResultIssue = defineContract({
  path: '/admin-api/result/issue',
  payload: z.object({
    user_order_id: rowId,
    applicant_id: rowId,
    version,
    visa_no: z.string().max(100),
    valid_from: dateText,
    valid_to: dateText,
    entries: z.string().max(20).describe('单次 / 两次 / 多次'),
    stay_days: z.number().describe('停留天数 1–3650'),
    evisa_file_id: rowId.nullable().optional().describe('已上传的电子签证（电子签产品必填）'),
  }),
  result: recorded,
});

export const adminResultReject = defineContract({
  path: '/admin-api/result/reject',
  payload: z.object({
    user_order_id: rowId,
    applicant_id: rowId,
    version,
    reasons: z.array(z.string().max(40)).max(20).default([]).describe('常见拒签原因的代码（common/visa-result.ts）'),
    note: z.string().max(2000).default('').describe('说明，0–500 字'),
    letter_file_id: rowId.nullable().optional().describe('已上传的使馆拒签信（可选）'),
  }),
  multiline: ['note'],
  result: recorded,
});

export const visaInfoSend = defineContract({
  path: '/www/order/visa_info_send',
  payload: z.object({
    user_order_id: rowId,
    email: z.string().max(200),
    applicant_id: rowId.nullable().optional().describe('只发送这位申请人；不传则发送全部已出签的申请人'),
  }),
  result: z.object({ sent: z.number().describe('邮件中的签证数') }),
});

export const VISA_RESULT_CONTRACTS = [visaInfoSend] as const;
export const ADMIN_VISA_RESULT_CONTRACTS = [adminResultDetail, adminResultFileUpload, adminResultIssue, adminResultReject] as const;

export type VisaResultView = z.output<typeof visaResultView>;
export type VisaResultFile = z.output<typeof resultFile>;
export type AdminResultView = ResultOf<typeof adminResultDetail>;
