// Wires invoices (发票, issue 29) into the app: the customer's calls
// (/www/invoice/…: request, list, what orders can be invoiced for), the back
// office's (/admin-api/invoice/…: list, reject, record a reversal), the
// operator's multipart issue (the e-invoice PDF) inside the signed scope, and
// the stored files' two routes: /files/invoice/:fileId (the invoice's
// enterprise, once issued) and /admin-files/invoice/:fileId (operators, each
// open logged).
import type { Kysely } from 'kysely';
import {
  adminInvoiceIssue,
  adminInvoiceList,
  adminInvoiceReject,
  adminInvoiceReversed,
  invoiceableOrders,
  invoiceList,
  invoiceRequest,
} from '../../../common/contracts/invoice.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { Database } from '../../db/schema.ts';
import { defineOperation } from '../../platform/operation.ts';
import { payloadOf, uploadRoute } from '../stored-file/multipart.ts';
import { fileRoutesOf } from '../stored-file/serve.ts';
import type { StoredFileDeps } from '../stored-file/stored-files.ts';
import { createInvoiceService, type InvoiceService } from './invoice.service.ts';

const TAG = '发票';
const ADMIN_TAG = '后台 · 发票';

const DETAIL_ERRORS = [
  ErrorCode.INVOICE_TITLE_INVALID,
  ErrorCode.INVOICE_TAX_ID_INVALID,
  ErrorCode.INVOICE_ADDRESS_PHONE_INVALID,
  ErrorCode.INVOICE_BANK_INVALID,
  ErrorCode.INVOICE_EMAIL_INVALID,
];

export function invoiceOperations(service: InvoiceService) {
  return [
    defineOperation({
      ...invoiceRequest,
      tag: TAG,
      summary: '申请发票：一个或多个本企业已支付的订单，抬头、纳税人识别号、地址电话、开户行及账号、收票邮箱（保存为企业下次的默认值）',
      description:
        '每个订单的开票金额默认为还可开票的全部金额（已支付 − 已退款和退款中 − 已申请和已开的发票），可以更少，不能更多（2548）。' +
        '有一个订单不是本企业的，与订单不存在相同（1801）。',
      auth: 'customer',
      errors: [
        ...DETAIL_ERRORS,
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.INVOICE_ORDERS_EMPTY,
        ErrorCode.INVOICE_ORDER_NOT_PAID,
        ErrorCode.INVOICE_AMOUNT_EXCEEDED,
        ErrorCode.INVOICE_AMOUNT_INVALID,
      ],
      handle: (payload, { caller }) => service.request(caller, payload),
    }),
    defineOperation({
      ...invoiceList,
      tag: TAG,
      summary: '本企业的发票，最新的在前（每页 10 条），及上次开票使用的信息',
      auth: 'customer',
      errors: [],
      handle: ({ page }, { caller }) => service.list(caller, page),
    }),
    defineOperation({
      ...invoiceableOrders,
      tag: TAG,
      summary: '所选订单还可开票的金额，及上次开票使用的信息',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_ids }, { caller }) => service.invoiceable(caller, user_order_ids),
    }),
    defineOperation({
      ...adminInvoiceList,
      tag: ADMIN_TAG,
      summary: '发票申请：待开票（最早的在前）、待红冲（开票后订单有退款）或全部',
      auth: 'operator',
      errors: [],
      handle: (payload, { caller }) => service.adminList(caller, payload),
    }),
    defineOperation({
      ...adminInvoiceReject,
      tag: ADMIN_TAG,
      summary: '驳回发票申请（2–200 字的原因），通知客户',
      auth: 'operator',
      errors: [ErrorCode.INVOICE_NOT_FOUND, ErrorCode.INVOICE_NOT_REQUESTED, ErrorCode.INVOICE_REJECT_REASON_INVALID],
      handle: (payload, { caller }) => service.reject(caller, payload),
    }),
    defineOperation({
      ...adminInvoiceReversed,
      tag: ADMIN_TAG,
      summary: '登记已红冲：开票后订单有退款的发票，已在税务系统开具红字发票',
      auth: 'operator',
      errors: [ErrorCode.INVOICE_NOT_FOUND, ErrorCode.INVOICE_NOT_TO_REVERSE],
      handle: (payload, { caller }) => service.reversed(caller, payload),
    }),
  ];
}

const issueInput = payloadOf(adminInvoiceIssue, '请在文件之前发送 invoice_id（正整数）');

export function createInvoiceModule(options: StoredFileDeps & { db: Kysely<Database>; pokeOutbox: () => void }) {
  const service = createInvoiceService(options.db, options);
  const uploadRoutes = uploadRoute({
    contract: adminInvoiceIssue,
    auth: 'operator',
    maxBytes: service.storedFiles.maxBytes,
    fields: 2,
    schema: {
      summary: '开具发票：上传电子发票 PDF（multipart/form-data），通知客户',
      description:
        '字段须在文件之前：invoice_id；最后是 file。文件类型按内容判断，只接受 PDF（2552），不超过 5 MB（1822）。' +
        '开具时重新核对金额：申请后订单又有退款、发票金额已超过可开票金额的，不能开具（2555），请驳回。\n\n需要登录：是（后台 X-Token）',
      tags: [ADMIN_TAG],
      body: {
        type: 'object',
        properties: { invoice_id: { type: 'integer' }, file: { type: 'string', format: 'binary' } },
        required: ['invoice_id', 'file'],
      },
    },
    parse: issueInput,
    handle: (operator, input, file) => service.issue(operator, input, file),
  });
  return {
    service,
    operations: invoiceOperations(service),
    uploadRoutes,
    registerFileRoutes: fileRoutesOf(service.storedFiles),
  };
}
