// 邮寄资料清单 (/order/order-mail-list/:userOrderId, issue 10): per applicant
// the paper materials to send (checklist attr 1), where to send them (the
// service's receiving address for the order's consulate), and the two ways
// of sending: a courier pickup booked from the address book with a time
// window, or the self-express dialog. Once sent, the parcel's courier info and
// tracking events (刷新物流 asks the courier). A note from the operator when
// items were missing. The route's loader reads the list and the address book.
import { EnvironmentOutlined, LeftOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Select, Tag } from 'antd';
import { useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import type { AddressView } from '../../../common/contracts/address';
import type { MailList } from '../../../common/contracts/mail';
import { fullAddressText } from '../../../common/address';
import type { PickupWindow, ShipmentStatus } from '../../../common/courier';
import { atStep } from '../../../common/order';
import { ShipmentCard, windowText } from '../../components/courier/shipment-card';
import { LoadingOverlay } from '../../components/loading-overlay';
import { ApiError, api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { SelfExpressDialog } from './self-express-dialog';
import './mail.css';

/** A shipment the customer called off: it no longer counts as sent. */
const CANCELLED_SHIPMENT: ShipmentStatus = 'cancelled';

function stateText(list: MailList): { type: 'info' | 'success' | 'warning'; text: string } | null {
  const { order } = list;
  if (!atStep(order, 'awaiting_mail')) {
    return list.shipments.length > 0 ? { type: 'success', text: '纸质资料已收到并核对无误。' } : null;
  }
  if (list.can_send) return { type: 'info', text: '请将下列纸质资料寄到收件地址：可预约快递上门取件，也可自行寄送后填写快递单号。' };
  if (list.shipments.some((s) => s.status !== CANCELLED_SHIPMENT)) return { type: 'success', text: '资料已寄出，我们收到后会尽快核对，核对结果会通知您。' };
  return null;
}

export function MailListPage({ list, addresses, windows }: { list: MailList; addresses: AddressView[]; windows: PickupWindow[] }) {
  const revalidator = useRevalidator();
  const reload = () => void revalidator.revalidate();
  const id = list.order.user_order_id;
  const [addressId, setAddressId] = useState<number | undefined>(addresses.find((a) => a.is_default)?.address_id ?? addresses[0]?.address_id);
  const [windowStart, setWindowStart] = useState<number | undefined>(windows[0]?.start);
  const [booking, setBooking] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  const state = stateText(list);
  const address = list.receiving_address;
  const shipments = [...list.shipments].reverse();

  const book = async () => {
    const window = windows.find((w) => w.start === windowStart);
    if (addressId === undefined || !window) {
      toast.error(addressId === undefined ? '请选择取件地址' : '请选择上门时间');
      return;
    }
    setBooking(true);
    try {
      const answer = await api(
        '/www/order/mail_pickup',
        { user_order_id: id, version: list.order.version, address_id: addressId, pickup_window: window },
        { toast: false },
      );
      toast.success(`已预约上门取件，运单号 ${answer.shipment.waybill_no}`);
      reload();
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus === 401) return;
      toast.error(error instanceof ApiError ? error.message : '预约失败，请重试');
      if (error instanceof ApiError && error.ret > 0) reload();
    } finally {
      setBooking(false);
    }
  };

  const refresh = async () => {
    setRefreshing(true);
    try {
      await api('/www/order/mail_tracking', { user_order_id: id });
      reload();
    } catch {
      // api has shown the error.
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <div className="mail-page" data-testid="mail-list-page">
      <Link to={`/order/order-detail/${id}`} className="mail-back">
        <LeftOutlined /> 订单详情
      </Link>
      <LoadingOverlay loading={revalidator.state === 'loading'} loadingText="正在加载">
        <h1 className="mail-title">
          邮寄资料清单 <Tag color="blue">{list.order.step_label ?? list.order.status_label}</Tag>
        </h1>
        <div className="mail-product">
          订单 {id} · {list.order.product_title}
        </div>
        {list.missing ? (
          <Alert className="mail-alert" type="warning" showIcon title="收到的资料有缺件，请补寄" description={list.missing.note} data-testid="mail-missing" />
        ) : null}
        {state ? <Alert className="mail-alert" type={state.type} showIcon title={state.text} data-testid="mail-state" /> : null}

        <section className="mail-section" aria-labelledby="mail-address-title">
          <h2 className="mail-section-title" id="mail-address-title">
            <EnvironmentOutlined /> 收件地址
          </h2>
          {address ? (
            <div className="mail-address" data-testid="mail-receiving-address">
              <div>
                <strong>{address.name}</strong> {address.mobile_phone}
                {address.company_name ? <span className="mail-muted"> · {address.company_name}</span> : null}
              </div>
              <div>{fullAddressText(address)}</div>
              {address.note ? <div className="mail-muted">{address.note}</div> : null}
            </div>
          ) : (
            <Alert type="warning" showIcon title="暂无收件地址，请联系客服" />
          )}
        </section>

        <section className="mail-section" aria-labelledby="mail-materials-title">
          <h2 className="mail-section-title" id="mail-materials-title">
            需邮寄的纸质资料
          </h2>
          {list.applicants.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该订单没有需要邮寄的纸质资料" />
          ) : (
            list.applicants.map((applicant) => (
              <div key={applicant.applicant_id} className="mail-applicant" data-testid="mail-applicant">
                <div className="mail-applicant-name">
                  {applicant.name} <span className="mail-muted">{applicant.identity_label}</span>
                </div>
                <ul className="mail-materials">
                  {applicant.materials.map((material) => (
                    <li key={material.material_id}>
                      <span className="mail-material-name">{material.name}</span>
                      {material.required ? <Tag color="red">必需</Tag> : <Tag>可选</Tag>}
                      {material.attention ? <div className="mail-muted">{material.attention}</div> : null}
                    </li>
                  ))}
                </ul>
              </div>
            ))
          )}
        </section>

        {list.can_send ? (
          <section className="mail-section" aria-labelledby="mail-send-title" data-testid="mail-send">
            <h2 className="mail-section-title" id="mail-send-title">
              寄送方式
            </h2>
            <div className="mail-send-grid">
              <div className="mail-send-box">
                <h3>预约顺丰上门取件</h3>
                {addresses.length === 0 ? (
                  <Alert
                    type="info"
                    showIcon
                    title={
                      <span>
                        地址簿中还没有地址，请先在 <Link to="/user/personal-center">个人中心</Link> 添加取件地址，或选择自行寄送。
                      </span>
                    }
                  />
                ) : (
                  <>
                    <label className="mail-field">
                      <span>取件地址</span>
                      <Select
                        aria-label="取件地址"
                        data-testid="mail-pickup-address"
                        value={addressId}
                        onChange={setAddressId}
                        options={addresses.map((a) => ({
                          value: a.address_id,
                          label: `${a.name} ${a.mobile_phone} ${fullAddressText(a)}`,
                        }))}
                      />
                    </label>
                    <label className="mail-field">
                      <span>上门时间</span>
                      <Select
                        aria-label="上门时间"
                        data-testid="mail-pickup-window"
                        value={windowStart}
                        onChange={setWindowStart}
                        options={windows.map((w) => ({ value: w.start, label: windowText(w) }))}
                        notFoundContent="暂无可预约的时间"
                      />
                    </label>
                    <Button type="primary" block loading={booking} onClick={() => void book()} data-testid="mail-pickup-submit">
                      预约上门取件
                    </Button>
                  </>
                )}
              </div>
              <div className="mail-send-box">
                <h3>自行寄送</h3>
                <p className="mail-muted">已通过其他快递寄出？填写快递公司和单号，方便我们跟踪签收。</p>
                <Button block onClick={() => setDialogOpen(true)} data-testid="mail-self-express">
                  填写快递单号
                </Button>
              </div>
            </div>
          </section>
        ) : null}

        {shipments.length > 0 ? (
          <section className="mail-section" aria-labelledby="mail-express-title" data-testid="mail-shipments">
            <div className="mail-section-head">
              <h2 className="mail-section-title" id="mail-express-title">
                快递信息
              </h2>
              <Button size="small" icon={<ReloadOutlined />} loading={refreshing} onClick={() => void refresh()} data-testid="mail-refresh">
                刷新物流
              </Button>
            </div>
            {shipments.map((shipment) => (
              <ShipmentCard key={shipment.shipment_id} shipment={shipment} />
            ))}
          </section>
        ) : null}
      </LoadingOverlay>
      <SelfExpressDialog open={dialogOpen} onClose={() => setDialogOpen(false)} userOrderId={id} version={list.order.version} onSent={reload} />
    </div>
  );
}
