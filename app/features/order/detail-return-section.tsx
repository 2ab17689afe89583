// Order detail (spec 2.4 express/courier infos, issue 11): the passports'
// return parcel — where it goes (the return or peer address the order
// keeps), the courier, waybill and status, and its tracking events, with
// 刷新物流 (asks the courier; a delivery learnt this way finishes the order).
// It reads the order detail route's loader data (`returnParcel`, null before
// submitted), so the page mounts it with one line. Shown once a parcel exists.
import { Button } from 'antd';
import { useState } from 'react';
import { useRevalidator, useRouteLoaderData } from 'react-router';
import { fullAddressText } from '../../../common/address';
import type { ShipmentStatus } from '../../../common/courier';
import type { ReturnParcel } from '../../../common/contracts/ship-back';
import { ShipmentCard } from '../../components/courier/shipment-card';
import { api } from '../../lib/api-client';
import { DetailSection } from './detail-info-sections';
import './order.css';

/** A parcel delivered or called off: nothing left to track. */
const SETTLED: readonly ShipmentStatus[] = ['delivered', 'cancelled'];

export function ReturnParcelSection() {
  const data = useRouteLoaderData('routes/order-detail') as { returnParcel?: ReturnParcel | null } | undefined;
  const view = data?.returnParcel;
  const revalidator = useRevalidator();
  const [refreshing, setRefreshing] = useState(false);
  if (!view || view.shipments.length === 0) return null;
  const shipments = [...view.shipments].reverse();
  const tracking = shipments.some((s) => !SETTLED.includes(s.status));

  const refresh = async () => {
    setRefreshing(true);
    try {
      await api('/www/order/return_tracking', { user_order_id: view.order.user_order_id });
      await revalidator.revalidate();
    } catch {
      // api has shown the error.
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <DetailSection
      title="护照寄回"
      testId="detail-return-parcel"
      extra={
        <Button size="small" loading={refreshing} onClick={() => void refresh()} data-testid="return-refresh" disabled={!tracking}>
          刷新物流
        </Button>
      }
    >
      {view.return_address ? (
        <p className="order-muted" data-testid="return-address">
          寄往（{view.return_address.kind_label}）：{view.return_address.company_name ? `${view.return_address.company_name} ` : ''}
          {view.return_address.name} {view.return_address.mobile_phone} {fullAddressText(view.return_address)}
        </p>
      ) : null}
      {shipments.map((shipment) => (
        <ShipmentCard key={shipment.shipment_id} shipment={shipment} compact />
      ))}
    </DetailSection>
  );
}
