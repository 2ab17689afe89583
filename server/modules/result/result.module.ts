// Wires the visa results into the app: the service (over the stored files'
// storage and size limit), its JSON operations for /admin-api (the panel,
// 录入出签, 录入拒签) and /www (e-mailing the visa infos), the operator's
// multipart file upload inside the signed scope, and the two file routes of
// the stored-file module: /files/visa-result/:fileId (the order's customer,
// files attached to a result only) and /admin-files/visa-result/:fileId
// (operators, every open logged).
import type { Kysely } from 'kysely';
import { EMAIL_PATTERN } from '../../../common/contracts/rules.ts';
import { adminResultDetail, adminResultFileUpload, adminResultIssue, adminResultReject, visaInfoSend } from '../../../common/contracts/visa-result.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { normalizeInputText } from '../../../common/text.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { Customer } from '../../platform/principal.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { MATERIAL_EMAIL_LIMITS } from '../catalogue/catalogue.routes.ts';
import { payloadOf, uploadRoute } from '../stored-file/multipart.ts';
import { fileRoutesOf } from '../stored-file/serve.ts';
import type { StoredFileDeps, StoredFiles } from '../stored-file/stored-files.ts';
import { createOrderLifecycle } from '../order/lifecycle.ts';
import type { Mailer } from '../notification/mailer.ts';
import { visaResultsOf } from './result-records.ts';
import { createResultService, type ResultService } from './result.service.ts';
import { renderVisaInfoEmail } from './visa-info-email.ts';

const TAG = '签证结果';
const ADMIN_TAG = '后台 · 签证结果';
const HOUR = 3_600_000;

const ORDER_ERRORS = [ErrorCode.ORDER_NOT_FOUND, ErrorCode.ORDER_ACTION_FORBIDDEN, ErrorCode.ORDER_CONFLICT, ErrorCode.REVIEW_NOT_ASSIGNEE];
const RECORD_ERRORS = [
  ...ORDER_ERRORS,
  ErrorCode.RESULT_NOT_SUBMITTED,
  ErrorCode.RESULT_ORDER_STALE,
  ErrorCode.RESULT_ALREADY_RECORDED,
  ErrorCode.RESULT_APPLICANT_NOT_FOUND,
  ErrorCode.RESULT_FILE_NOT_FOUND,
];

export interface VisaInfoMailDeps {
  db: Kysely<Database>;
  now: () => number;
  files: StoredFiles<'visa_result_file'>;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  siteUrl: string;
}

/** 发送到邮箱: the visa infos of the order's issued applicants (or one), e-visas attached; throttled like the checklist e-mail. */
async function sendVisaInfo(
  deps: VisaInfoMailDeps,
  customer: Customer,
  input: { user_order_id: number; email: string; applicant_id?: number | null },
  ip: string,
) {
  const lifecycle = createOrderLifecycle(deps.db, deps);
  const order = await lifecycle.current(customer, input.user_order_id);
  const address = normalizeInputText(input.email);
  if (!EMAIL_PATTERN.test(address)) throw new AppError(ErrorCode.EMAIL_INVALID);
  const visas = (await visaResultsOf(deps.db, order.user_order_id)).filter(
    (v) => v.status === 'issued' && v.visa_no !== null && (input.applicant_id == null || v.applicant_id === input.applicant_id),
  );
  if (visas.length === 0) throw new AppError(ErrorCode.RESULT_NOTHING_TO_SEND);
  const at = deps.now();
  const allowed =
    (await deps.rateLimiter.hit(`visa_info_email:to:${address.toLowerCase()}`, MATERIAL_EMAIL_LIMITS.perAddressPerHour, HOUR, at)) &&
    (await deps.rateLimiter.hit(`visa_info_email:ip:${ip}`, MATERIAL_EMAIL_LIMITS.perClientPerHour, HOUR, at));
  if (!allowed) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
  const attachments: Array<{ filename: string; content: Buffer; contentType: string }> = [];
  for (const visa of visas) {
    if (!visa.evisa) continue;
    const file = await deps.db.selectFrom('visa_result_file').select(['storage_key']).where('file_id', '=', visa.evisa.file_id).executeTakeFirst();
    const stored = file ? await deps.files.open(file) : null;
    if (!stored) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of stored.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    attachments.push({ filename: `${visa.applicant_name}-${visa.evisa.file_name}`, content: Buffer.concat(chunks), contentType: visa.evisa.content_type });
  }
  await deps.mailer.send({ to: address, ...renderVisaInfoEmail(order, visas, deps.siteUrl), attachments });
  return { sent: visas.length };
}

export function resultOperations(service: ResultService, mail: VisaInfoMailDeps) {
  return [
    defineOperation({
      ...adminResultDetail,
      tag: ADMIN_TAG,
      summary: '订单的签证结果：每位申请人的结果（签证号码、有效期、入境次数、停留天数、电子签证；拒签原因、拒签信）；能否录入',
      auth: 'operator',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => service.operatorView(caller, user_order_id),
    }),
    defineOperation({
      ...adminResultIssue,
      tag: ADMIN_TAG,
      summary: '录入出签：签证号码、有效期（起 ≤ 止）、入境次数、停留天数；电子签产品须附上已上传的电子签证。通知客户',
      description: '只能在“已递交使馆”由办理人员或主管录入；每位申请人只有一个结果（2183）；带上打开工作台时的 version，订单已变化则拒绝（2182）。',
      auth: 'operator',
      errors: [
        ...RECORD_ERRORS,
        ErrorCode.RESULT_VISA_NO_INVALID,
        ErrorCode.RESULT_VALIDITY_INVALID,
        ErrorCode.RESULT_ENTRIES_INVALID,
        ErrorCode.RESULT_STAY_INVALID,
        ErrorCode.RESULT_EVISA_REQUIRED,
      ],
      handle: (payload, { caller }) => service.issue(caller, payload),
    }),
    defineOperation({
      ...adminResultReject,
      tag: ADMIN_TAG,
      summary: '录入拒签：常见原因和/或说明（0–500 字），可附使馆拒签信；产品有拒签退全款时为该申请人创建退款。通知客户',
      description: '只能在“已递交使馆”由办理人员或主管录入；每位申请人只有一个结果（2183）；带上打开工作台时的 version，订单已变化则拒绝（2182）。',
      auth: 'operator',
      errors: [...RECORD_ERRORS, ErrorCode.RESULT_REASON_REQUIRED, ErrorCode.RESULT_REASON_INVALID],
      handle: (payload, { caller }) => service.reject(caller, payload),
    }),
    defineOperation({
      ...visaInfoSend,
      tag: TAG,
      summary: '把订单的签证信息（已出签的申请人，含电子签证附件）发送到邮箱',
      description: `同一邮箱每小时最多 ${MATERIAL_EMAIL_LIMITS.perAddressPerHour} 封，同一来源地址每小时最多 ${MATERIAL_EMAIL_LIMITS.perClientPerHour} 封（与资料清单邮件相同）。`,
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND, ErrorCode.EMAIL_INVALID, ErrorCode.RESULT_NOTHING_TO_SEND, ErrorCode.TOO_MANY_REQUESTS, ErrorCode.EMAIL_NOT_SENT],
      handle: async (payload, { caller, request }) => {
        try {
          return await sendVisaInfo(mail, caller, payload, request.ip);
        } catch (error) {
          if (error instanceof AppError) throw error;
          request.log.error({ err: error }, 'visa info e-mail not sent');
          throw new AppError(ErrorCode.EMAIL_NOT_SENT);
        }
      },
    }),
  ];
}

/** The upload form's fields, or 1001 saying what to send before the file. */
const resultFileUploadInput = payloadOf(adminResultFileUpload, '请在文件之前发送 user_order_id、applicant_id（正整数）和 kind（evisa 或 letter）');

export function createResultModule(
  options: StoredFileDeps & {
    db: Kysely<Database>;
    mailer: Mailer;
    rateLimiter: RateLimiter;
    siteUrl: string;
  },
) {
  const service = createResultService(options.db, options);

  /** Register inside the signed scope: `await api.register(results.uploadRoutes)`. */
  const uploadRoutes = uploadRoute({
    contract: adminResultFileUpload,
    auth: 'operator',
    maxBytes: service.storedFiles.maxBytes,
    fields: 4,
    schema: {
      summary: '上传一位申请人的电子签证或使馆拒签信（multipart/form-data）',
      description:
        '字段须在文件之前：user_order_id、applicant_id、kind（evisa 电子签证 / letter 拒签信）；最后是 file。文件类型按内容判断（PDF、JPEG 或 PNG），大小限制与客户上传资料相同。' +
        '只能在“已递交使馆”由办理人员或主管为尚无结果的申请人上传；返回的 file_id 在录入出签（evisa_file_id）或拒签（letter_file_id）时使用。\n\n需要登录：是（后台 X-Token）',
      tags: [ADMIN_TAG],
      body: {
        type: 'object',
        properties: {
          user_order_id: { type: 'integer' },
          applicant_id: { type: 'integer' },
          kind: { type: 'string', enum: ['evisa', 'letter'] },
          file: { type: 'string', format: 'binary' },
        },
        required: ['user_order_id', 'applicant_id', 'kind', 'file'],
      },
    },
    parse: resultFileUploadInput,
    handle: (operator, input, file) => service.uploadFile(operator, input, file),
  });

  const mail: VisaInfoMailDeps = {
    db: options.db,
    now: options.now,
    files: service.storedFiles,
    mailer: options.mailer,
    rateLimiter: options.rateLimiter,
    siteUrl: options.siteUrl,
  };

  return {
    service,
    operations: resultOperations(service, mail),
    uploadRoutes,
    /** GET routes of the files: the order's customer (files attached to a result; anything else the same 404) and operators (each open logged). */
    registerFileRoutes: fileRoutesOf(service.storedFiles),
  };
}

export type ResultModule = ReturnType<typeof createResultModule>;
