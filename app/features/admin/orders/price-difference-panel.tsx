// 补差价 panel of the workbench (issue 10): while the order is processing the
// operator asks the customer for an amount (元) with a reason, sees whether it
// was paid, and cancels one still unpaid. Its data is the workbench view's
// `price_difference` (a prop); each change (/admin-api/order/price_difference_*)
// carries the order version of that read and goes through
// useWorkbenchAction, which reads the workbench again (a 2166 too).
import { Button, Form, Input, InputNumber, Popconfirm, Tag } from 'antd';
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import type { PriceDifferencePanel as Panel } from '../../../../common/contracts/price-difference';
import { formatDateTime, formatPrice } from '../../../../common/format';
import { isProcessing } from '../../../../common/order';
import { PRICE_DIFFERENCE_LIMITS } from '../../../../common/price-difference';
import { adminApi } from '../admin-api';
import { allows, useWorkbenchAction } from './use-workbench-action';

const STATUS_COLORS = { open: 'orange', paid: 'green', cancelled: 'default' } as const;

interface RequestForm {
  yuan: number | null;
  reason: string;
}

export function PriceDifferencePanel({ panel, bench }: { panel: Panel | null; bench: AdminWorkbench }) {
  const [form] = Form.useForm<RequestForm>();
  const { busy: running, run } = useWorkbenchAction();
  const busy = running !== null;
  const userOrderId = bench.order.user_order_id;

  function request(values: RequestForm) {
    if (!panel || values.yuan === null) return;
    void run('request', {
      call: () =>
        adminApi(
          '/admin-api/order/price_difference_request',
          { user_order_id: userOrderId, version: panel.version, amount: Math.round(values.yuan! * 100), reason: values.reason },
          { toast: false },
        ),
      done: '已发起补差价，已通知客户',
      then: () => form.resetFields(),
    });
  }

  function cancel(priceDifferenceId: number) {
    if (!panel) return;
    void run('cancel', {
      call: () =>
        adminApi(
          '/admin-api/order/price_difference_cancel',
          { user_order_id: userOrderId, price_difference_id: priceDifferenceId, version: panel.version },
          { toast: false },
        ),
      done: '补差价已取消',
    });
  }

  return (
    <section className="admin-card aw-card" data-testid="workbench-price-difference" aria-label="补差价">
      <h2>补差价</h2>
      {panel ? (
        <>
          <p className="aw-muted" data-testid="price-difference-summary">
            待支付 {formatPrice(panel.price_difference_due)} · 已补 {formatPrice(panel.price_difference_paid)} · 实收合计{' '}
            {formatPrice(panel.total_amount + panel.price_difference_paid)}
          </p>
          {panel.list.length > 0 ? (
            <ul className="aw-pd-list">
              {panel.list.map((row) => (
                <li key={row.price_difference_id} data-testid="price-difference-row">
                  <div>
                    <strong>{formatPrice(row.amount)}</strong> <Tag color={STATUS_COLORS[row.status]}>{row.status_label}</Tag>
                    <span className="aw-muted">{row.reason}</span>
                  </div>
                  <div className="aw-muted">
                    {row.requested_by} 发起于 {formatDateTime(row.created_at)}
                    {row.paid_at ? ` · 支付于 ${formatDateTime(row.paid_at)}` : ''}
                    {row.cancelled_at ? ` · 取消于 ${formatDateTime(row.cancelled_at)}` : ''}
                  </div>
                  {row.status === 'open' && allows(bench, 'price_difference_cancel') ? (
                    <Popconfirm title="取消这笔补差价？" okText="取消补差价" cancelText="不取消" onConfirm={() => cancel(row.price_difference_id)}>
                      <Button size="small" danger loading={busy} data-testid="price-difference-cancel">
                        取消
                      </Button>
                    </Popconfirm>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
          {panel.can_request && allows(bench, 'price_difference_request') ? (
            <Form form={form} layout="vertical" onFinish={request} requiredMark={false} data-testid="price-difference-form">
              <Form.Item name="yuan" label="金额（元）" rules={[{ required: true, message: '请输入金额' }]} initialValue={null}>
                <InputNumber
                  min={0.01}
                  max={PRICE_DIFFERENCE_LIMITS.maxAmount / 100}
                  precision={2}
                  style={{ width: '100%' }}
                  data-testid="price-difference-amount"
                />
              </Form.Item>
              <Form.Item
                name="reason"
                label="原因"
                rules={[
                  { required: true, whitespace: true, message: '请填写原因' },
                  { min: PRICE_DIFFERENCE_LIMITS.reasonMinLength, max: PRICE_DIFFERENCE_LIMITS.reasonMaxLength, message: '原因为 2–200 个字' },
                ]}
              >
                <Input.TextArea
                  rows={2}
                  maxLength={PRICE_DIFFERENCE_LIMITS.reasonMaxLength}
                  placeholder="例如：使馆签证费上调"
                  data-testid="price-difference-reason"
                />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={busy} data-testid="price-difference-request">
                发起补差价
              </Button>
            </Form>
          ) : !isProcessing(panel) ? (
            <p className="aw-muted">订单不在办理中，不能补差价。</p>
          ) : null}
        </>
      ) : (
        <p className="aw-muted">正在加载…</p>
      )}
    </section>
  );
}
