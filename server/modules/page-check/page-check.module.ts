// Wires the page check into the app: the service (over the stored files'
// storage and size limit), its JSON operations for /www and /admin-api,
// the operator's multipart page upload inside the signed scope, and the two
// file routes of the stored-file module: /files/page-check/:pageId (the
// order's customer, published pages only) and /admin-files/page-check/:pageId
// (operators, every open logged).
import type { Kysely } from 'kysely';
import {
  adminOrderSubmit,
  adminPageCheckDetail,
  adminPageCheckPageDelete,
  adminPageCheckPublish,
  adminPageCheckUpload,
  pageCheckConfirm,
  pageCheckCorrection,
  pageCheckDetail,
} from '../../../common/contracts/page-check.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { Database } from '../../db/schema.ts';
import { defineOperation } from '../../platform/operation.ts';
import { payloadOf, uploadRoute } from '../stored-file/multipart.ts';
import { fileRoutesOf } from '../stored-file/serve.ts';
import type { StoredFileDeps } from '../stored-file/stored-files.ts';
import { createPageCheckService, type PageCheckService } from './page-check.service.ts';

const TAG = '核对签证页';
const ADMIN_TAG = '后台 · 核对页与递交';

const ORDER_ERRORS = [ErrorCode.ORDER_NOT_FOUND, ErrorCode.ORDER_STATE_INVALID, ErrorCode.ORDER_ACTION_FORBIDDEN, ErrorCode.ORDER_CONFLICT];

export function pageCheckOperations(service: PageCheckService) {
  return [
    defineOperation({
      ...pageCheckDetail,
      tag: TAG,
      summary: '核对页：每位申请人已发布的核对页（PDF 或图片）、确认状态和修改意见',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => service.customerView(caller, user_order_id),
    }),
    defineOperation({
      ...pageCheckConfirm,
      tag: TAG,
      summary: '确认一位申请人的核对页；最后一位确认后核对结束（有面试时进入面试，否则等待递交）',
      auth: 'customer',
      errors: [...ORDER_ERRORS, ErrorCode.REVIEW_ORDER_STALE, ErrorCode.PAGE_CHECK_APPLICANT_NOT_FOUND, ErrorCode.PAGE_CHECK_NOT_PUBLISHED],
      handle: (payload, { caller }) => service.confirm(caller, payload),
    }),
    defineOperation({
      ...pageCheckCorrection,
      tag: TAG,
      summary: '对一位申请人的核对页申请修改：每条意见指明页面（PDF 可注明第几页）和说明；办理人员修改后重新发布',
      auth: 'customer',
      errors: [
        ...ORDER_ERRORS,
        ErrorCode.REVIEW_ORDER_STALE,
        ErrorCode.PAGE_CHECK_APPLICANT_NOT_FOUND,
        ErrorCode.PAGE_CHECK_NOT_PUBLISHED,
        ErrorCode.PAGE_CHECK_COMMENT_REQUIRED,
        ErrorCode.PAGE_CHECK_PAGE_NOT_FOUND,
      ],
      handle: (payload, { caller }) => service.correction(caller, payload),
    }),
    defineOperation({
      ...adminPageCheckDetail,
      tag: ADMIN_TAG,
      summary: '订单的核对页：每位申请人的全部页面（含未发布的）、状态、轮次和客户的修改意见；能否编辑、能否递交',
      auth: 'operator',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => service.operatorView(caller, user_order_id),
    }),
    defineOperation({
      ...adminPageCheckPageDelete,
      tag: ADMIN_TAG,
      summary: '删除一页尚未发布（或客户申请修改后）的核对页',
      auth: 'operator',
      errors: [...ORDER_ERRORS, ErrorCode.REVIEW_NOT_ASSIGNEE, ErrorCode.PAGE_CHECK_PAGE_NOT_FOUND, ErrorCode.PAGE_CHECK_LOCKED],
      handle: ({ user_order_id, page_id }, { caller }) => service.deletePage(caller, user_order_id, page_id),
    }),
    defineOperation({
      ...adminPageCheckPublish,
      tag: ADMIN_TAG,
      summary: '发布（或修改后重新发布）一位申请人的核对页：通知客户确认',
      description: '只能在“待确认核对页”由办理人员或主管发布；带上打开工作台时的 version，订单已变化则拒绝（2032）。',
      auth: 'operator',
      errors: [
        ...ORDER_ERRORS,
        ErrorCode.REVIEW_ORDER_STALE,
        ErrorCode.REVIEW_NOT_ASSIGNEE,
        ErrorCode.PAGE_CHECK_APPLICANT_NOT_FOUND,
        ErrorCode.PAGE_CHECK_LOCKED,
        ErrorCode.PAGE_CHECK_NO_PAGES,
      ],
      handle: (payload, { caller }) => service.publish(caller, payload),
    }),
    defineOperation({
      ...adminOrderSubmit,
      tag: ADMIN_TAG,
      summary: '递交使馆：全部申请人已确认核对页（有面试时在面试步骤），填写递交日期；订单进入“已递交”',
      auth: 'operator',
      errors: [
        ...ORDER_ERRORS,
        ErrorCode.REVIEW_ORDER_STALE,
        ErrorCode.REVIEW_NOT_ASSIGNEE,
        ErrorCode.PAGE_CHECK_NOT_ALL_CONFIRMED,
        ErrorCode.PAGE_CHECK_SUBMIT_DATE_INVALID,
        ErrorCode.SUBMIT_PRICE_DIFFERENCE_OPEN,
        ErrorCode.SUBMIT_INTERVIEW_NOTICE_MISSING,
      ],
      handle: (payload, { caller }) => service.submit(caller, payload),
    }),
  ];
}

/** The upload form's fields, or 1001 saying what to send before the file. */
const pageUploadInput = payloadOf(adminPageCheckUpload, '请在文件之前发送 user_order_id 和 applicant_id（正整数）');

export function createPageCheckModule(options: StoredFileDeps & { db: Kysely<Database> }) {
  const service = createPageCheckService(options.db, options);

  /** Register inside the signed scope: `await api.register(pageCheck.uploadRoutes)`. */
  const uploadRoutes = uploadRoute({
    contract: adminPageCheckUpload,
    auth: 'operator',
    maxBytes: service.storedFiles.maxBytes,
    fields: 4,
    schema: {
      summary: '上传一位申请人的一页核对页（multipart/form-data）',
      description:
        '字段须在文件之前：user_order_id、applicant_id；最后是 file。文件类型按内容判断（PDF、JPEG 或 PNG），大小限制与客户上传资料相同。' +
        '只能在“待确认核对页”由办理人员或主管上传，且该申请人的核对页尚未发布或客户已申请修改；每位申请人最多 30 个文件。\n\n需要登录：是（后台 X-Token）',
      tags: [ADMIN_TAG],
      body: {
        type: 'object',
        properties: { user_order_id: { type: 'integer' }, applicant_id: { type: 'integer' }, file: { type: 'string', format: 'binary' } },
        required: ['user_order_id', 'applicant_id', 'file'],
      },
    },
    parse: pageUploadInput,
    handle: (operator, input, file) => service.upload(operator, input, file),
  });

  return {
    service,
    operations: pageCheckOperations(service),
    uploadRoutes,
    /** GET routes of the pages: the order's customer (published pages only; anything else the same 404) and operators (each open logged). */
    registerFileRoutes: fileRoutesOf(service.storedFiles),
  };
}

export type PageCheckModule = ReturnType<typeof createPageCheckModule>;
