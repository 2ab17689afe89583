// 退款 panel of the workbench (issue 11): the order's refunds (a refused
// applicant's, a supervisor's by hand, the full refund that closed the order)
// with their states, what was paid, refunded and what remains. Supervisors
// also refund by hand (amount in 元, reason) while the order is processing or
// completed, and close an order before submission with everything refunded
// (全额退款并关闭订单). Its data is the workbench view's `refund` (a prop);
// the writes (/admin-api/order/refund_*) go through useWorkbenchAction, which
// reads the workbench again (a 2208 — the order or its refunds changed
// meanwhile — too).
import { Button, Form, Input, InputNumber, Popconfirm, Tag } from 'antd';
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import type { RefundPanel as Panel } from '../../../../common/contracts/refund';
import { formatDateTime, formatPrice } from '../../../../common/format';
import { REFUND_LIMITS } from '../../../../common/refund';
import { adminApi } from '../admin-api';
import { allows, useWorkbenchAction } from './use-workbench-action';

const STATUS_COLORS = { pending: 'processing', processing: 'processing', succeeded: 'green', failed: 'red' } as const;

interface RefundForm {
  yuan: number | null;
  reason: string;
}

const reasonRules = [
  { required: true, whitespace: true, message: '请填写退款原因' },
  { min: REFUND_LIMITS.reasonMinLength, max: REFUND_LIMITS.reasonMaxLength, message: '原因为 2–200 个字' },
];

export function RefundPanel({ panel, bench, supervisor }: { panel: Panel | null; bench: AdminWorkbench; supervisor: boolean }) {
  const [form] = Form.useForm<RefundForm>();
  const [closeForm] = Form.useForm<{ reason: string }>();
  const { busy: running, run } = useWorkbenchAction();
  const busy = running !== null;
  const userOrderId = bench.order.user_order_id;

  function refund(values: RefundForm) {
    if (!panel || values.yuan === null) return;
    void run('refund', {
      call: () =>
        adminApi(
          '/admin-api/order/refund_create',
          {
            user_order_id: userOrderId,
            version: panel.version,
            last_refund_id: panel.last_refund_id,
            amount: Math.round(values.yuan! * 100),
            reason: values.reason,
          },
          { toast: false },
        ),
      done: '已发起退款，已通知客户',
      then: () => form.resetFields(),
    });
  }

  async function close() {
    if (!panel) return;
    let values: { reason: string };
    try {
      values = await closeForm.validateFields();
    } catch {
      return;
    }
    await run('close', {
      call: () => adminApi('/admin-api/order/close_refund', { user_order_id: userOrderId, version: panel.version, reason: values.reason }, { toast: false }),
      done: '已全额退款，订单已关闭',
      then: () => closeForm.resetFields(),
    });
  }

  return (
    <section className="admin-card aw-card" data-testid="workbench-refund" aria-label="退款">
      <h2>退款</h2>
      {panel ? (
        <>
          <p className="aw-muted" data-testid="refund-summary">
            已支付 {formatPrice(panel.paid_total)} · 已退（含退款中） {formatPrice(panel.refunded_total)} · 可退 {formatPrice(panel.refundable)}
          </p>
          {panel.list.length > 0 ? (
            <ul className="aw-pd-list">
              {panel.list.map((row) => (
                <li key={row.refund_id} data-testid="refund-row">
                  <div>
                    <strong>{formatPrice(row.amount)}</strong> <Tag color={STATUS_COLORS[row.status]}>{row.status_label}</Tag>
                    <Tag>{row.kind_label}</Tag>
                    {row.applicant_name ? <span>{row.applicant_name}</span> : null}
                  </div>
                  <div className="aw-muted">原因：{row.reason}</div>
                  <div className="aw-muted">
                    {row.created_by} 发起于 {formatDateTime(row.created_at)}
                    {row.refunded_at ? ` · 到账于 ${formatDateTime(row.refunded_at)}` : ''}
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="aw-muted">暂无退款</p>
          )}
          {!supervisor ? (
            panel.can_refund || panel.can_close ? (
              <p className="aw-muted">手动退款和全额退款需由主管操作。</p>
            ) : null
          ) : (
            <>
              {panel.can_refund && allows(bench, 'refund_create') ? (
                <Form form={form} layout="vertical" onFinish={refund} requiredMark={false} data-testid="refund-form">
                  <Form.Item
                    name="yuan"
                    label={`手动退款金额（元，最多 ${formatPrice(panel.refundable)}）`}
                    rules={[{ required: true, message: '请输入退款金额' }]}
                    initialValue={null}
                  >
                    <InputNumber min={0.01} max={panel.refundable / 100} precision={2} style={{ width: '100%' }} data-testid="refund-amount" />
                  </Form.Item>
                  <Form.Item name="reason" label="退款原因" rules={reasonRules}>
                    <Input.TextArea rows={2} maxLength={REFUND_LIMITS.reasonMaxLength} placeholder="例如：客户取消部分服务" data-testid="refund-reason" />
                  </Form.Item>
                  <Button type="primary" htmlType="submit" loading={busy} data-testid="refund-submit">
                    手动退款
                  </Button>
                </Form>
              ) : null}
              {panel.can_close && allows(bench, 'close_refund') ? (
                <Form form={closeForm} layout="vertical" requiredMark={false} className="aw-refund-close" data-testid="refund-close-form">
                  <Form.Item name="reason" label="全额退款并关闭订单（递交使馆前）" rules={reasonRules}>
                    <Input.TextArea
                      rows={2}
                      maxLength={REFUND_LIMITS.reasonMaxLength}
                      placeholder="关闭原因，例如：客户取消行程"
                      data-testid="refund-close-reason"
                    />
                  </Form.Item>
                  <Popconfirm
                    title="全额退款并关闭订单？"
                    description={`已支付未退的 ${formatPrice(panel.refundable)} 将全部原路退回，订单变为“已退款”，不能撤销。`}
                    okText="全额退款并关闭"
                    cancelText="不关闭"
                    okButtonProps={{ danger: true }}
                    onConfirm={() => void close()}
                  >
                    <Button danger loading={busy} data-testid="refund-close">
                      全额退款并关闭订单
                    </Button>
                  </Popconfirm>
                </Form>
              ) : null}
            </>
          )}
        </>
      ) : (
        <p className="aw-muted">正在加载…</p>
      )}
    </section>
  );
}
