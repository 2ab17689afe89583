// 补差价 panel of the workbench (issue 10): while the order is processing the
// operator asks the customer for an amount (元) with a reason, sees whether it
// was paid, and cancels one still unpaid. Reads and writes through
// /admin-api/order/price_difference_*; each change carries the order version
// the panel last saw, and a 2166 (the order changed) reads it again.
import { Button, Form, Input, InputNumber, Popconfirm, Tag } from 'antd';
import type { PriceDifferencePanel as Panel } from '../../../../common/contracts/price-difference';
import { ErrorCode } from '../../../../common/error-codes';
import { formatDateTime, formatPrice } from '../../../../common/format';
import { PRICE_DIFFERENCE_LIMITS } from '../../../../common/price-difference';
import { adminApi } from '../admin-api';
import { useWorkbenchPanel } from './use-workbench-panel';

const STATUS_COLORS = { open: 'orange', paid: 'green', cancelled: 'default' } as const;

interface RequestForm {
  yuan: number | null;
  reason: string;
}

export function PriceDifferencePanel({ userOrderId, version, onChanged }: { userOrderId: number; version: number; onChanged: () => void }) {
  const [form] = Form.useForm<RequestForm>();

  const { panel, busy, run } = useWorkbenchPanel<Panel>(
    () => adminApi('/admin-api/order/price_difference_list', { user_order_id: userOrderId }, { toast: false }),
    {
      userOrderId,
      version,
      staleRet: ErrorCode.PRICE_DIFFERENCE_ORDER_STALE,
      onChanged,
    },
  );

  async function request(values: RequestForm) {
    if (!panel || values.yuan === null) return;
    const ok = await run(
      () =>
        adminApi('/admin-api/order/price_difference_request', {
          user_order_id: userOrderId,
          version: panel.version,
          amount: Math.round(values.yuan! * 100),
          reason: values.reason,
        }),
      '已发起补差价，已通知客户',
    );
    if (ok) form.resetFields();
  }

  function cancel(priceDifferenceId: number) {
    if (!panel) return;
    void run(
      () =>
        adminApi('/admin-api/order/price_difference_cancel', { user_order_id: userOrderId, price_difference_id: priceDifferenceId, version: panel.version }),
      '补差价已取消',
    );
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
                  {row.status === 'open' ? (
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
          {panel.can_request ? (
            <Form form={form} layout="vertical" onFinish={(values) => void request(values)} requiredMark={false} data-testid="price-difference-form">
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
          ) : panel.status !== 'processing' ? (
            <p className="aw-muted">订单不在办理中，不能补差价。</p>
          ) : null}
        </>
      ) : (
        <p className="aw-muted">正在加载…</p>
      )}
    </section>
  );
}
