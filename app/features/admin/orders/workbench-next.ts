// The workbench header's "下一步" line (issue 27): what the operator does next
// on this order, from its step and the events the lifecycle allows now (the
// view's allowed_events) — and, for an action the step leads to but a rule
// refuses now, the rule's own reason (blocked_events), so no button is
// offered that would refuse after its confirm dialog.
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import { ORDER_EVENTS, type OrderEventName, type OrderStep, stepIs } from '../../../../common/order';

/** Each step's next action as the operator does it (the customer's or the courier's turn says so). */
const STEP_ACTIONS: Record<OrderStep, string> = {
  material_review: '审核资料',
  reupload_needed: '等待客户重新上传资料',
  awaiting_mail: '签收客户邮寄的纸质资料',
  page_check: '上传并发布核对页，客户确认后递交使馆',
  interview: '发送面试/录指纹通知，面试后递交使馆',
  submitted: '登记签证结果（出签或拒签）',
  returning: '护照寄回客户，签收后办理完成',
};

export interface NextAction {
  text: string;
  /** Actions of this step that a rule refuses now, with its reason. */
  blocked: Array<{ event: OrderEventName; label: string; reason: string }>;
}

export function nextAction(bench: Pick<AdminWorkbench, 'order' | 'pending_count' | 'can_review'>): NextAction {
  const { order } = bench;
  const blocked = order.blocked_events.map(({ event, reason }) => ({ event, label: ORDER_EVENTS[event], reason }));
  const allowed = (event: OrderEventName) => order.allowed_events.includes(event);
  if (order.assignee === null && allowed('assign')) return { text: '下一步：领取订单', blocked };
  if (order.step === null) return { text: order.status_label, blocked };
  if (stepIs(order, 'material_review') && bench.pending_count > 0) {
    return { text: bench.can_review ? `下一步：审核 ${bench.pending_count} 个文件` : `${bench.pending_count} 个文件待审核（办理人员审核）`, blocked };
  }
  if (allowed('submit')) return { text: '下一步：递交使馆', blocked };
  return { text: `下一步：${STEP_ACTIONS[order.step]}`, blocked };
}
