// Order detail (spec 2.4): basic info, return address and the schedule (the
// steps reached and when, those still ahead, then the order's audit log as a
// timeline).
import { Descriptions, Steps, Timeline } from 'antd';
import type { ReactNode } from 'react';
import type { OrderDetail } from '../../../common/contracts/order';
import { type OrderActor, UNPAID_STATUSES, statusLabel } from '../../../common/order';
import { formatDateTime } from '../../../common/format';
import { scheduleEntries } from './order-format';
import { OrderStatusTag } from './order-status-tag';

export function DetailSection({ title, testId, extra, children }: { title: string; testId: string; extra?: ReactNode; children: ReactNode }) {
  return (
    <section className="order-section" data-testid={testId} aria-label={title}>
      <header className="order-section-head">
        <h2 className="order-section-title">{title}</h2>
        {extra}
      </header>
      {children}
    </section>
  );
}

const DESCRIPTION_COLUMNS = { xs: 1, sm: 2, lg: 3 } as const;

export function BasicInfoSection({ order }: { order: OrderDetail }) {
  const items: Array<{ key: string; label: string; children: ReactNode; span?: number | 'filled' }> = [
    { key: 'no', label: '订单号', children: order.order_no },
    { key: 'status', label: '订单状态', children: <OrderStatusTag status={order.status} statusLabel={order.status_label} stepLabel={order.step_label} /> },
    { key: 'product', label: '签证产品', children: order.product_title, span: 'filled' },
    { key: 'country', label: '国家', children: order.country },
    { key: 'type', label: '签证类型', children: order.visa_type },
    { key: 'district', label: '领区', children: order.consular_district?.name ?? '不分领区' },
    {
      key: 'departure',
      label: '出发日期',
      children: (
        <span data-testid="order-departure">
          {order.departure_date}
          {order.departure_date_past ? <em className="order-warn-text">（已过，请修改）</em> : null}
        </span>
      ),
    },
    { key: 'order-date', label: '办理日期', children: order.order_date },
    { key: 'effect', label: '签证生效日期', children: order.effect_date ?? '与出发日期相同' },
    { key: 'created', label: '下单时间', children: formatDateTime(order.created_at) },
  ];
  if (UNPAID_STATUSES.includes(order.status) && order.expires_at !== null) {
    items.push({ key: 'expires', label: '自动取消时间', children: formatDateTime(order.expires_at) });
  }
  if (order.confirmed_at) items.push({ key: 'confirmed', label: '确认时间', children: formatDateTime(order.confirmed_at) });
  if (order.paid_at) items.push({ key: 'paid', label: '支付时间', children: formatDateTime(order.paid_at) });
  if (order.cancelled_at) {
    items.push({ key: 'cancelled', label: '取消时间', children: formatDateTime(order.cancelled_at) });
    if (order.cancel_reason) items.push({ key: 'reason', label: '取消原因', children: order.cancel_reason, span: 'filled' });
  }
  return (
    <DetailSection title="基本信息" testId="order-basic-info">
      <Descriptions size="small" column={DESCRIPTION_COLUMNS} items={items} />
    </DetailSection>
  );
}

export function ReturnAddressSection({ order }: { order: OrderDetail }) {
  const address = order.return_address;
  return (
    <DetailSection title="回寄地址" testId="order-return-address">
      {address ? (
        <div className="order-address">
          <div>
            <strong>{address.name}</strong> <span className="order-muted">{address.mobile_phone}</span>
            {address.company_name ? <span className="order-muted"> · {address.company_name}</span> : null}
          </div>
          <div>
            {address.province_name} {address.city_name} {address.county_name} {address.detail}
          </div>
        </div>
      ) : (
        <p className="order-muted order-none">尚未选择回寄地址，确认订单时填写，出签后护照将寄回该地址。</p>
      )}
    </DetailSection>
  );
}

const ACTOR_LABELS: Record<OrderActor, string> = { customer: '客户', operator: '签证顾问', system: '系统' };

export function ScheduleSection({ order }: { order: OrderDetail }) {
  const { reached, upcoming } = order.schedule;
  // Newest first: what happened last is what the customer looks for.
  const entries = scheduleEntries(order.events);
  const ended = upcoming.length === 0;
  const steps = [
    ...reached.map((step, index) => ({
      key: `${step.key}-${index}`,
      title: step.label,
      content: <span className="order-muted order-step-time">{formatDateTime(step.reached_at)}</span>,
      // The step the order is in now is under way (unless the order has ended).
      status: index === reached.length - 1 && !ended ? ('process' as const) : ('finish' as const),
    })),
    ...upcoming.map((step) => ({ key: step.key, title: step.label, status: 'wait' as const })),
  ];
  return (
    <DetailSection title="办理进度" testId="order-schedule">
      <Steps className="order-steps" orientation="vertical" size="small" items={steps} data-testid="order-schedule-steps" />
      <h3 className="order-subtitle">办理记录</h3>
      {entries.length === 0 ? (
        <p className="order-muted order-none">暂无记录</p>
      ) : (
        <Timeline
          className="order-timeline"
          items={entries.map(({ event, count }, index) => ({
            key: `${event.created_at}-${index}`,
            color: index === 0 ? 'red' : 'gray',
            content: (
              <div className="order-event" data-testid="order-event">
                <div className="order-event-title">
                  {event.event_label}
                  {count > 1 ? <span className="order-muted"> ×{count}</span> : null}
                  {event.to_status && event.to_status !== event.from_status ? <span className="order-muted"> · {statusLabel(event.to_status)}</span> : null}
                </div>
                <div className="order-muted order-event-meta">
                  {formatDateTime(event.created_at)}
                  {count > 1 ? '（最近一次）' : ''} · {event.actor_name ?? ACTOR_LABELS[event.actor] ?? event.actor}
                </div>
              </div>
            ),
          }))}
        />
      )}
    </DetailSection>
  );
}
