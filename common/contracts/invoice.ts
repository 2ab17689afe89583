// Invoices (发票, issue 29): the customer requests an invoice for one or more
// paid orders of the enterprise (the details are kept as the enterprise's
// default), lists them and downloads the issued PDF; the back office lists the
// requests, uploads the issued e-invoice (multipart, PDF only), rejects a
// request, and records the red-letter reversal (红冲) an issued invoice needs
// after a refund. Rules: docs/order-rules.md, "Invoices".
import { z } from 'zod';
import { INVOICE_LIMITS, INVOICE_STATUS_VALUES } from '../invoice.ts';
import { defineContract, type ResultOf } from './define.ts';
import { idField, pageField, rowId } from './fields.ts';

const details = {
  title: z.string().max(400).describe(`发票抬头，${INVOICE_LIMITS.titleMin}–${INVOICE_LIMITS.titleMax} 字`),
  tax_id: z.string().max(60).describe('纳税人识别号：18 位统一社会信用代码（校验位须正确）'),
  address_phone: z.string().max(800).default('').describe(`地址、电话（可空，最多 ${INVOICE_LIMITS.addressPhoneMax} 字）`),
  bank_account: z.string().max(800).default('').describe(`开户行及账号（可空，最多 ${INVOICE_LIMITS.bankAccountMax} 字）`),
  email: z.string().max(400).describe('收票邮箱：开具后电子发票的通知发到这里'),
};

export const invoiceProfileView = z.object({
  title: z.string(),
  tax_id: z.string(),
  address_phone: z.string(),
  bank_account: z.string(),
  email: z.string(),
});

/** What an order can still be invoiced for. */
export const invoiceableOrderView = z.object({
  user_order_id: z.number(),
  order_no: z.string(),
  product_title: z.string(),
  paid: z.number().describe('已支付（分）'),
  refunded: z.number().describe('已退款和退款中（分，不含失败的）'),
  invoiced: z.number().describe('已申请和已开票（分，不含驳回的）'),
  invoiceable: z.number().describe('还可开票（分）：paid − refunded − invoiced，不小于 0'),
});

export const invoiceView = z.object({
  invoice_id: z.number(),
  status: z.enum(INVOICE_STATUS_VALUES).describe('requested 待开票，issued 已开票，rejected 已驳回'),
  status_label: z.string(),
  title: z.string(),
  tax_id: z.string(),
  address_phone: z.string(),
  bank_account: z.string(),
  email: z.string(),
  amount: z.number().describe('开票金额（分）'),
  orders: z.array(z.object({ user_order_id: z.number(), order_no: z.string(), product_title: z.string(), amount: z.number() })),
  created_at: z.number(),
  issued_at: z.number().nullable(),
  reject_reason: z.string().nullable(),
  reversal: z.enum(['none', 'due', 'done']).describe('红冲：none 无需，due 开票后订单有退款、待红冲，done 已红冲'),
  reversal_label: z.string(),
  file: z
    .object({ file_id: z.number(), file_name: z.string(), size: z.number(), url: z.string() })
    .nullable()
    .describe('已开具的电子发票（PDF）；下载地址只限本企业（后台：每次打开都记录）'),
});

export const invoiceRequest = defineContract({
  path: '/www/invoice/invoice_request',
  payload: z.object({
    ...details,
    orders: z
      .array(
        z.object({
          user_order_id: idField,
          amount: z.number().int().min(-1_000_000_000).max(1_000_000_000).optional().describe('开票金额（分）；省略为该订单全部可开票金额'),
        }),
      )
      .max(INVOICE_LIMITS.maxOrders)
      .describe(`本企业已支付的订单，1–${INVOICE_LIMITS.maxOrders} 个`),
  }),
  result: invoiceView,
});

export const invoiceList = defineContract({
  path: '/www/invoice/invoice_list',
  payload: z.object({ page: pageField }),
  result: z.object({
    profile: invoiceProfileView.nullable().describe('企业上次开票使用的信息（作为默认值）'),
    page_data: z.array(invoiceView),
    total_count: z.number(),
  }),
});

export const invoiceableOrders = defineContract({
  path: '/www/invoice/invoiceable_orders',
  payload: z.object({ user_order_ids: z.array(idField).max(INVOICE_LIMITS.maxOrders) }),
  result: z.object({ orders: z.array(invoiceableOrderView), profile: invoiceProfileView.nullable() }),
});

export const INVOICE_CONTRACTS = [invoiceRequest, invoiceList, invoiceableOrders] as const;

// ── The back office ───────────────────────────────────────────────────────

const adminInvoiceView = invoiceView.extend({
  enterprise_name: z.string(),
  issued_by: z.string().nullable(),
});

export const adminInvoiceList = defineContract({
  path: '/admin-api/invoice/list',
  payload: z.object({
    filter: z.enum(['requested', 'reversal', 'all']).default('requested').describe('requested 待开票，reversal 待红冲，all 全部'),
    page: pageField,
  }),
  result: z.object({
    page_data: z.array(adminInvoiceView),
    total_count: z.number(),
    requested_count: z.number(),
    reversal_count: z.number(),
  }),
});

export const adminInvoiceIssue = defineContract({
  path: '/admin-api/invoice/issue',
  payload: z.object({ invoice_id: rowId }),
  body: 'multipart',
  result: adminInvoiceView,
});

export const adminInvoiceReject = defineContract({
  path: '/admin-api/invoice/reject',
  payload: z.object({
    invoice_id: rowId,
    reason: z.string().max(1000).describe(`驳回原因，${INVOICE_LIMITS.rejectReasonMin}–${INVOICE_LIMITS.rejectReasonMax} 字`),
  }),
  multiline: ['reason'],
  result: adminInvoiceView,
});

export const adminInvoiceReversed = defineContract({
  path: '/admin-api/invoice/reversed',
  payload: z.object({ invoice_id: rowId }),
  result: adminInvoiceView,
});

export const ADMIN_INVOICE_CONTRACTS = [adminInvoiceList, adminInvoiceIssue, adminInvoiceReject, adminInvoiceReversed] as const;

export type InvoiceView = z.output<typeof invoiceView>;
export type AdminInvoiceView = z.output<typeof adminInvoiceView>;
export type InvoiceProfile = z.output<typeof invoiceProfileView>;
export type InvoiceableOrder = z.output<typeof invoiceableOrderView>;
export type InvoiceListResult = ResultOf<typeof invoiceList>;
export type AdminInvoiceListResult = ResultOf<typeof adminInvoiceList>;
