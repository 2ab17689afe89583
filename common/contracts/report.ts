// Reports (issue 29): the 出行团组 a customer puts orders in, the enterprise's
// groups, and the export's query. The export itself is a download, not a
// signed call: GET /files/export/orders.xlsx or orders.csv (the session from
// X-Token or the `token` cookie) — see docs/api.md "Order export".
import { z } from 'zod';
import { ORDER_GROUP_NAME_MAX, ORDER_SELECTION_MAX } from '../report.ts';
import { defineContract, type ResultOf } from './define.ts';
import { idField } from './fields.ts';

export const orderGroupSet = defineContract({
  path: '/www/order/order_group_set',
  payload: z.object({
    user_order_ids: z.array(idField).max(ORDER_SELECTION_MAX).describe(`本企业的订单，1–${ORDER_SELECTION_MAX} 个`),
    group_name: z.string().max(200).nullable().describe(`出行团组名称，1–${ORDER_GROUP_NAME_MAX} 字；null 为移出团组`),
  }),
  result: z.object({ updated: z.number(), group_name: z.string().nullable() }),
});

export const orderGroupList = defineContract({
  path: '/www/order/order_group_list',
  payload: z.object({}),
  result: z.object({ groups: z.array(z.object({ group_name: z.string(), order_count: z.number() })) }),
});

export const REPORT_CONTRACTS = [orderGroupSet, orderGroupList] as const;

/** The export's query string, as the download route parses it (one of the three criteria). */
export const orderExportQuery = z.object({
  ids: z.string().max(6000).optional().describe(`逗号分隔的订单 user_order_id（1–${ORDER_SELECTION_MAX} 个）`),
  group: z.string().max(200).optional().describe('出行团组名称'),
  from: z.string().max(32).optional().describe('下单日期起 yyyy-mm-dd（北京时间）'),
  to: z.string().max(32).optional().describe('下单日期止 yyyy-mm-dd（北京时间，含当天）'),
});

export type OrderGroupListResult = ResultOf<typeof orderGroupList>;
