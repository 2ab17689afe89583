// /admin-api/order/workbench: the operator's one view of an order (decision
// 0035). Same path, payload and refusals as when the review module answered
// it; the answer now also carries every panel's data (`panels`).
import { adminOrderWorkbench } from '../../../common/contracts/admin-order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { OperatorWorkbench } from './workbench.ts';

export function workbenchOperations(view: OperatorWorkbench) {
  return [
    defineOperation({
      ...adminOrderWorkbench,
      tag: '后台 · 订单审核',
      summary:
        '订单工作台：产品快照、申请人、每个文件及其审核状态、面试时间、回寄地址、支付记录、订单日志，以及各面板（核对页、邮寄、寄回、面试、补差价、退款、签证结果）的数据',
      auth: 'operator',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => view.workbench(caller, user_order_id),
    }),
  ];
}
