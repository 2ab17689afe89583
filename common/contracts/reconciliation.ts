// The daily reconciliation (对账, issue 25, decision 0038): each payment
// provider's bill of the previous China day compared with our payments and
// refunds. The back office lists the differences and the last runs; a
// supervisor marks a difference explained with a note.
import { z } from 'zod';
import { defineContract, type ResultOf } from './define.ts';
import { pageField, rowId } from './fields.ts';

export const RECONCILIATION_KINDS = {
  missing_ours: '我方无记录',
  missing_theirs: '账单无记录',
  amount: '金额不一致',
} as const;
export type ReconciliationKind = keyof typeof RECONCILIATION_KINDS;
export const RECONCILIATION_KIND_VALUES = Object.keys(RECONCILIATION_KINDS) as [ReconciliationKind, ...ReconciliationKind[]];

export const RECONCILIATION_PAGE_SIZE = 20;

export const reconciliationDifferenceView = z.object({
  difference_id: z.number(),
  provider: z.string().describe('支付服务商：sandbox 沙箱，wechatpay 微信支付，alipay 支付宝'),
  provider_label: z.string(),
  bill_date: z.string().describe('对账单日期（北京时间）yyyy-mm-dd'),
  kind: z.enum(RECONCILIATION_KIND_VALUES).describe('missing_ours 账单有、我方无；missing_theirs 我方有、账单无；amount 双方金额不一致'),
  kind_label: z.string(),
  line_kind: z.enum(['payment', 'refund']).describe('payment 支付，refund 退款'),
  line_kind_label: z.string(),
  out_trade_no: z.string().describe('我方交易号'),
  out_refund_no: z.string().nullable().describe('我方退款号（退款）'),
  provider_trade_no: z.string().nullable().describe('服务商交易号'),
  user_order_id: z.number().nullable().describe('我方订单（能找到时）'),
  our_amount: z.number().nullable().describe('我方金额（分）；我方无记录时为 null'),
  their_amount: z.number().nullable().describe('账单金额（分）；账单无记录时为 null'),
  happened_at: z.number().nullable().describe('资金变动时间（毫秒时间戳）'),
  created_at: z.number(),
  explained: z.boolean(),
  explained_by: z.string().nullable().describe('标记已说明的主管'),
  explained_at: z.number().nullable(),
  explanation: z.string().nullable(),
});
export type ReconciliationDifferenceView = z.output<typeof reconciliationDifferenceView>;

export const reconciliationRunView = z.object({
  provider: z.string(),
  provider_label: z.string(),
  bill_date: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  status_label: z.string().describe('对账中 / 已完成 / 失败（稍后重试）'),
  bill_lines: z.number().describe('账单笔数'),
  differences: z.number().describe('差异笔数'),
  finished_at: z.number().nullable(),
});

const listResult = z.object({
  page_data: z.array(reconciliationDifferenceView).describe('未说明的在前，其次按对账单日期从新到旧'),
  total_count: z.number(),
  open_count: z.number().describe('未说明的差异笔数'),
  runs: z.array(reconciliationRunView).describe('最近的对账（每个服务商最近 7 天）'),
  can_explain: z.boolean().describe('当前操作员是主管，可以标记已说明'),
});
export type ReconciliationListResult = ResultOf<typeof adminReconciliationList>;

export const adminReconciliationList = defineContract({
  path: '/admin-api/reconciliation/difference_list',
  payload: z.object({
    status: z.enum(['open', 'all']).default('open').describe('open 只看未说明的；all 全部'),
    page: pageField,
  }),
  result: listResult,
});

export const adminReconciliationExplain = defineContract({
  path: '/admin-api/reconciliation/difference_explain',
  payload: z.object({
    difference_id: rowId,
    note: z.string().max(2000).describe('说明，2–500 字（如：跨日入账，次日账单已包含）'),
  }),
  multiline: ['note'],
  result: reconciliationDifferenceView,
});

export const RECONCILIATION_CONTRACTS = [adminReconciliationList, adminReconciliationExplain] as const;
