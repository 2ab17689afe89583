// The order detail page (spec 2.4): a head with the status, the countdown and
// the actions, then basic info, return address, schedule, insurance, payment
// and applicants. An order whose departure date has passed opens the
// 'departure date past' dialog once on arrival.
import { ClockCircleOutlined, LeftOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type OrderDetail, UNPAID_STATUSES } from '../../../common/order';
import { LoadingOverlay } from '../../components/loading-overlay';
import { ApiError, apiRequest } from '../../lib/api-client';
import { OrderingSteps } from '../ordering/ordering-steps';
import { DepartureDateDialog } from './departure-date-dialog';
import { ApplicantsSection } from './detail-applicants-section';
import { BasicInfoSection, ReturnAddressSection, ScheduleSection } from './detail-info-sections';
import { InsuranceSection, PaymentSection } from './detail-money-sections';
import { OrderActions } from './order-actions';
import { expiryText } from './order-format';
import { OrderStatusTag } from './order-status-tag';
import { PriceText } from './price-text';
import { useNow } from './use-now';
import './order.css';

type LoadState = { kind: 'loading' } | { kind: 'ready'; order: OrderDetail } | { kind: 'missing'; message: string } | { kind: 'failed' };

export function OrderDetailPage({ userOrderId }: { userOrderId: number }) {
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  const [loading, setLoading] = useState(true);
  const [reloads, setReloads] = useState(0);
  const [dateDialogOpen, setDateDialogOpen] = useState(false);
  const askedForDate = useRef(false);
  const now = useNow();
  const navigate = useNavigate();
  const reload = () => setReloads((count) => count + 1);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    apiRequest<OrderDetail>('/www/order/order_detail_get', { user_order_id: userOrderId }, { signal: controller.signal, toast: false }).then(
      (order) => {
        setState({ kind: 'ready', order });
        setLoading(false);
        // Once per visit: closing the dialog must not bring it back on every reload.
        if (order.departure_date_past && !askedForDate.current) {
          askedForDate.current = true;
          setDateDialogOpen(true);
        }
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoading(false);
        if (error instanceof ApiError && error.httpStatus === 401) return; // the session handling takes over
        setState(error instanceof ApiError && error.ret > 0 ? { kind: 'missing', message: error.message } : { kind: 'failed' });
      },
    );
    return () => controller.abort();
  }, [userOrderId, reloads]);

  // An unpaid order whose time is up is cancelled by the server when read: read it again, once
  // (a browser clock ahead of the server's must not make it read in a loop).
  const order = state.kind === 'ready' ? state.order : null;
  const reread = useRef(false);
  const due = order !== null && now !== null && UNPAID_STATUSES.includes(order.status) && order.expires_at !== null && order.expires_at <= now;
  useEffect(() => {
    if (!due || loading || reread.current) return;
    reread.current = true;
    reload();
  }, [due, loading]);

  return (
    <div className="order-page" data-testid="order-detail-page">
      <Link to="/order/order-list" className="order-back">
        <LeftOutlined /> 我的订单
      </Link>
      <LoadingOverlay loading={loading} loadingText="正在加载订单">
        {state.kind === 'missing' ? (
          <Result
            status="404"
            title={state.message}
            subTitle="订单可能已被删除，或不属于您所在的企业。"
            extra={
              <Button type="primary" onClick={() => navigate('/order/order-list')}>
                返回我的订单
              </Button>
            }
            data-testid="order-missing"
          />
        ) : state.kind === 'failed' ? (
          <Result
            status="warning"
            title="订单加载失败"
            extra={
              <Button type="primary" onClick={reload}>
                重新加载
              </Button>
            }
          />
        ) : order ? (
          <>
            <header className="order-section order-detail-head">
              <div className="order-detail-head-main">
                <h1 className="order-page-title">
                  订单详情 <OrderStatusTag status={order.status} statusLabel={order.status_label} stepLabel={order.step_label} />
                </h1>
                <div className="order-detail-head-title">{order.product_title}</div>
                <div className="order-detail-head-meta">
                  <span>
                    订单总额 <PriceText cents={order.total_amount} strong />
                  </span>
                  {UNPAID_STATUSES.includes(order.status) && order.expires_at !== null && now !== null ? (
                    <span className="order-expiry" data-testid="order-expiry">
                      <ClockCircleOutlined /> {expiryText(order.expires_at, now)}
                    </span>
                  ) : null}
                </div>
              </div>
              <OrderActions order={order} onChanged={reload} onChooseDepartureDate={() => setDateDialogOpen(true)} />
            </header>
            {order.status === 'draft' && order.ordering_step ? (
              <div className="order-section order-detail-steps">
                <OrderingSteps current={order.ordering_step} needInterview={order.need_interview} />
              </div>
            ) : null}
            {/* In the order of spec 2.4. */}
            <BasicInfoSection order={order} />
            <ReturnAddressSection order={order} />
            <ScheduleSection order={order} />
            <InsuranceSection order={order} />
            <PaymentSection order={order} />
            <ApplicantsSection order={order} />
            <DepartureDateDialog open={dateDialogOpen} onClose={() => setDateDialogOpen(false)} order={order} onChanged={reload} />
          </>
        ) : (
          <div className="order-list-placeholder" />
        )}
      </LoadingOverlay>
    </div>
  );
}
