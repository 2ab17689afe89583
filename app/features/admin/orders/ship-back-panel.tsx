// The workbench's ship-back panel (issue 11): once the order is at the
// embassy, each applicant's result; then either 寄回护照 — a courier pickup
// from the service's office to the order's return (or peer) address
// snapshot, with the address previewed and a pickup window chosen — or, when
// no passports are held (e-visa products, nothing mailed), 办理完成. The
// return parcel with its tracking and 刷新物流 afterwards. Its data is the
// workbench view's `ship_back` (a prop); every action carries the order
// version shown and goes through useWorkbenchAction, which reads the
// workbench again.
import { Alert, Button, type ButtonProps, Descriptions, Modal, Select, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { fullAddressText } from '../../../../common/address';
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import type { AdminShipBack } from '../../../../common/contracts/ship-back';
import { pickupWindowOptions } from '../../../../common/courier';
import { FINISHED_STATUSES, hasStatus, isProcessingIn, isRefunded, RESULT_SHOWN_STEPS, stepIs } from '../../../../common/order';
import { ShipmentCard, windowText } from '../../../components/courier/shipment-card';
import { adminApi } from '../admin-api';
import { ReturnAttention } from './return-attention';
import { allows, useWorkbenchAction } from './use-workbench-action';
import './orders.css';
import './ship-back.css';

const RESULT_COLORS = { pending: 'default', issued: 'success', rejected: 'error' } as const;

export function ShipBackPanel({ view, bench }: { view: AdminShipBack | null; bench: AdminWorkbench }) {
  const { busy, run } = useWorkbenchAction();
  const [sending, setSending] = useState(false);
  const [completing, setCompleting] = useState(false);
  const windows = useMemo(() => pickupWindowOptions(Date.now()), []);
  const [windowIndex, setWindowIndex] = useState(0);
  if (!view) return null;
  const { order } = view;
  const finished = hasStatus(order, FINISHED_STATUSES);
  if (!finished && !isProcessingIn(order, RESULT_SHOWN_STEPS)) return null;
  if (finished && view.shipments.length === 0) return null;

  function act(kind: 'send' | 'complete' | 'refresh') {
    if (kind === 'send') {
      void run(kind, {
        call: () => {
          const window = windows[windowIndex];
          if (!window) throw new Error('no window');
          return adminApi(
            '/admin-api/order/ship_back_send',
            { user_order_id: order.user_order_id, version: order.version, pickup_window: window },
            { toast: false },
          );
        },
        done: (sent) => `已预约快递上门取件，运单号 ${sent.shipment.waybill_no}`,
        then: () => setSending(false),
      });
    } else if (kind === 'complete') {
      void run(kind, {
        call: () => adminApi('/admin-api/order/complete', { user_order_id: order.user_order_id, version: order.version }, { toast: false }),
        done: (done) => `订单${done.status_label}`,
        then: () => setCompleting(false),
      });
    } else {
      void run(kind, { call: () => adminApi('/admin-api/order/return_tracking', { user_order_id: order.user_order_id }, { toast: false }) });
    }
  }

  const address = view.return_address;
  // The outcome is the status the order reaches once the parcel is delivered.
  const outcomeText = isRefunded({ status: view.outcome }) ? '已退款（全部拒签，拒签退全款）' : '已完成';
  const shipments = [...view.shipments].reverse();
  return (
    <section className="admin-card aw-card" data-testid="ship-back-panel" aria-label="护照寄回与完成">
      <h2>护照寄回与完成</h2>
      <div className="aw-ship-back-results" data-testid="ship-back-results">
        {view.applicants.map((applicant) => (
          <span key={applicant.applicant_id} className="aw-ship-back-applicant">
            {applicant.name} <Tag color={RESULT_COLORS[applicant.status]}>{applicant.status_label}</Tag>
          </span>
        ))}
      </div>
      {view.blocked_reason ? <Alert type="warning" showIcon title={view.blocked_reason} style={{ marginBottom: 12 }} /> : null}
      {stepIs(order, 'submitted') && view.results_done && !view.holds_passports ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={view.evisa ? '电子签证产品，没有需要寄回的护照：可直接办理完成' : '客户未寄来纸质资料（护照），没有需要寄回的物品：可直接办理完成'}
        />
      ) : null}
      {view.holds_passports && stepIs(order, 'submitted') ? (
        <Descriptions
          size="small"
          column={1}
          className="aw-ship-back-address"
          items={[
            {
              key: 'to',
              label: address ? `寄往（${address.kind_label}）` : '寄往',
              children: address ? (
                <span data-testid="ship-back-address">
                  {address.company_name ? `${address.company_name} ` : ''}
                  {address.name} {address.mobile_phone} {fullAddressText(address)}
                </span>
              ) : (
                '订单没有回寄地址'
              ),
            },
            { key: 'from', label: '寄件地址', children: view.sender ? `${view.sender.name} ${fullAddressText(view.sender)}` : '未配置' },
            { key: 'outcome', label: '签收后订单', children: outcomeText },
          ]}
        />
      ) : null}
      <ReturnAttention view={view} bench={bench} />
      {shipments.map((shipment) => (
        <ShipmentCard key={shipment.shipment_id} shipment={shipment} />
      ))}
      <div className="aw-mail-actions">
        {view.can_ship_back && allows(bench, 'ship_back') ? (
          <Button type="primary" onClick={() => setSending(true)} data-testid="ship-back-open">
            寄回护照
          </Button>
        ) : null}
        {view.can_complete && allows(bench, 'complete') ? (
          <Button type="primary" onClick={() => setCompleting(true)} data-testid="ship-back-complete">
            办理完成
          </Button>
        ) : null}
        {shipments.length > 0 && stepIs(order, 'returning') ? (
          <Button loading={busy === 'refresh'} onClick={() => void act('refresh')} data-testid="ship-back-refresh">
            刷新物流
          </Button>
        ) : null}
      </div>
      <Modal
        open={sending}
        title="寄回护照"
        okText="预约上门取件"
        cancelText="取消"
        confirmLoading={busy === 'send'}
        onOk={() => void act('send')}
        onCancel={() => setSending(false)}
        okButtonProps={{ disabled: windows.length === 0, 'data-testid': 'ship-back-confirm' } as ButtonProps}
      >
        <p>快递员将到寄件地址上门取件，寄往：</p>
        <p data-testid="ship-back-modal-address">
          <strong>{address ? `${address.kind_label}：` : ''}</strong>
          {address ? `${address.company_name ? `${address.company_name} ` : ''}${address.name} ${address.mobile_phone} ${fullAddressText(address)}` : '—'}
        </p>
        <p>上门取件时间：</p>
        <Select
          style={{ width: '100%' }}
          value={windowIndex}
          onChange={setWindowIndex}
          options={windows.map((w, index) => ({ value: index, label: windowText(w) }))}
          data-testid="ship-back-window"
        />
        <p className="aw-muted" style={{ marginTop: 12 }}>
          签收后订单将自动变为“{outcomeText}”，并通知客户。
        </p>
      </Modal>
      <Modal
        open={completing}
        title="确认办理完成？"
        okText="办理完成"
        cancelText="取消"
        confirmLoading={busy === 'complete'}
        onOk={() => void act('complete')}
        onCancel={() => setCompleting(false)}
        okButtonProps={{ 'data-testid': 'ship-back-complete-confirm' } as ButtonProps}
      >
        <p>每位申请人都已有签证结果，且没有需要寄回的护照。订单将变为“{outcomeText}”，并通知客户。</p>
      </Modal>
    </section>
  );
}
