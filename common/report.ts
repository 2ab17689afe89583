// Reports (issue 29): the 出行团组 limits, the export's columns and its
// download path. Plain data: the order list's page imports it.

/** The 出行团组 name's limit (order_group_set, the export's filter). */
export const ORDER_GROUP_NAME_MAX = 30;
/** How many orders a selection (export, group) may name. */
export const ORDER_SELECTION_MAX = 500;
/** The longest date range an export may span (days). */
export const ORDER_EXPORT_MAX_DAYS = 366;

/** The export's columns, in order: the header row of both formats. */
export const ORDER_EXPORT_COLUMNS = [
  '订单号',
  '出行团组',
  '产品',
  '国家',
  '签证类型',
  '下单时间',
  '订单状态',
  '办理步骤',
  '申请人',
  '申请人状态',
  '面试/录指纹时间',
  '签证号码',
  '有效期起',
  '有效期止',
  '入境次数',
  '停留天数',
  '订单金额（元）',
  '实付（元）',
  '已退款（元）',
  '退款中（元）',
  '待支付（元）',
] as const;

/** The download's path for a format and criteria (the order list's 导出 buttons). */
export function orderExportHref(format: 'xlsx' | 'csv', criteria: { ids?: number[]; group?: string; from?: string; to?: string }): string {
  const params = new URLSearchParams();
  if (criteria.ids && criteria.ids.length > 0) params.set('ids', criteria.ids.join(','));
  if (criteria.group) params.set('group', criteria.group);
  if (criteria.from) params.set('from', criteria.from);
  if (criteria.to) params.set('to', criteria.to);
  return `/files/export/orders.${format}?${params.toString()}`;
}
