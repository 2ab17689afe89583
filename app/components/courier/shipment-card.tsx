// One parcel as the customer's mail list, the order detail and the back
// office show it: company, waybill number, status, sender/receiver, the
// pickup window, and its tracking events (newest first).
import { Descriptions, Empty, Tag, Timeline } from 'antd';
import type { ShipmentView } from '../../../common/courier';
import { fullAddressText } from '../../../common/address';
import { formatDateTime } from '../../../common/format';
import './shipment-card.css';

const STATUS_COLORS: Record<ShipmentView['status'], string> = {
  booked: 'gold',
  picked_up: 'blue',
  in_transit: 'blue',
  out_for_delivery: 'cyan',
  delivered: 'green',
  cancelled: 'default',
};

/** 12-01 13:00–15:00 (China time). */
export function windowText(window: { start: number; end: number }): string {
  const start = formatDateTime(window.start);
  return `${start.slice(5)}–${formatDateTime(window.end).slice(11)}`;
}

export function ShipmentCard({ shipment, compact = false }: { shipment: ShipmentView; compact?: boolean }) {
  const routes = [...shipment.routes].reverse();
  return (
    <div className="shipment-card" data-testid="shipment-card">
      <div className="shipment-card-head">
        <span className="shipment-card-company">{shipment.courier_company_name}</span>
        <span className="shipment-card-waybill" data-testid="shipment-waybill">
          {shipment.waybill_no}
        </span>
        <Tag color={STATUS_COLORS[shipment.status]} data-testid="shipment-status">
          {shipment.status_label}
        </Tag>
        <span className="shipment-card-muted">{shipment.arrangement_label}</span>
      </div>
      {compact ? null : (
        <Descriptions
          size="small"
          column={1}
          className="shipment-card-info"
          items={[
            ...(shipment.pickup_window ? [{ key: 'window', label: '上门时间', children: windowText(shipment.pickup_window) }] : []),
            ...(shipment.sender
              ? [{ key: 'sender', label: '寄件人', children: `${shipment.sender.name} ${shipment.sender.mobile_phone} ${fullAddressText(shipment.sender)}` }]
              : []),
            { key: 'receiver', label: '收件人', children: `${shipment.receiver.name} ${shipment.receiver.mobile_phone} ${fullAddressText(shipment.receiver)}` },
            { key: 'created', label: '寄出时间', children: formatDateTime(shipment.created_at) },
          ]}
        />
      )}
      {routes.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="快递员尚未揽收，物流信息稍后更新" />
      ) : (
        <Timeline
          className="shipment-card-routes"
          data-testid="shipment-routes"
          items={routes.map((route, index) => ({
            key: `${route.op_code}-${route.event_time}`,
            color: index === 0 ? 'green' : 'gray',
            content: (
              <div>
                <div className="shipment-card-route">
                  {route.remark}
                  {route.location ? <span className="shipment-card-muted"> · {route.location}</span> : null}
                </div>
                <div className="shipment-card-muted">{formatDateTime(route.event_time)}</div>
              </div>
            ),
          }))}
        />
      )}
    </div>
  );
}
