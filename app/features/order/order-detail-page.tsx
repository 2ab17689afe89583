// The order detail page (spec 2.4): a head with the status, the countdown and
// the actions, then basic info, return address, schedule, insurance, payment
// and applicants. An order whose departure date has passed opens the
// 'departure date past' dialog once on arrival. The route's loader reads the
// order on the server; a change (cancel, new departure date) revalidates it.
import { ClockCircleOutlined, LeftOutlined } from '@ant-design/icons';
import { type ComponentType, useEffect, useRef, useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import type { InterviewNoticeDetail } from '../../../common/contracts/interview-notice';
import type { MaterialListResult } from '../../../common/contracts/material';
import type { OrderDetail } from '../../../common/contracts/order';
import { expiryText } from '../../../common/format';
import { UNPAID_STATUSES, isDraft } from '../../../common/order';
import { LoadingOverlay } from '../../components/loading-overlay';
import { OrderingSteps } from '../../components/ordering-steps';
import { useNow } from '../../lib/use-now';
import { DepartureDateDialog } from './departure-date-dialog';
import { ApplicantsSection } from './detail-applicants-section';
import { BasicInfoSection, ReturnAddressSection, ScheduleSection } from './detail-info-sections';
import { InsuranceSection, PaymentSection } from './detail-money-sections';
import { MaterialReviewSection } from './detail-review-section';
import { PageCheckSection } from './detail-page-check-section';
import { PriceDifferenceSection, type PriceDifferencePaymentSlot } from './detail-price-difference-section';
import { RefundSection } from './detail-refund-section';
import { InterviewDetailSections } from './detail-interview-section';
import { MailSections } from './detail-mail-section';
import { VisaInfosSection } from './detail-visa-section';
import { ReturnParcelSection } from './detail-return-section';
import type { MailList } from '../../../common/contracts/mail';
import { OrderActions } from './order-actions';
import { OrderStatusTag } from './order-status-tag';
import { PriceText } from './price-text';
import { eventsForRole } from '../../../common/team';
import { useTeamRole } from '../../lib/use-team-role';
import './order.css';

export function OrderDetailPage({
  order,
  materials = null,
  PaymentDialog,
  interview = null,
  mail = null,
}: {
  order: OrderDetail;
  materials?: MaterialListResult | null;
  /** The payment dialog for the price difference (the route hands it in). */
  PaymentDialog?: ComponentType<PriceDifferencePaymentSlot>;
  interview?: InterviewNoticeDetail | null;
  mail?: MailList | null;
}) {
  const [dateDialogOpen, setDateDialogOpen] = useState(false);
  const askedForDate = useRef(false);
  const now = useNow();
  const revalidator = useRevalidator();
  const reload = () => void revalidator.revalidate();

  // Once per visit, on arrival or when a read shows it: closing the dialog must not bring it back on every reload.
  useEffect(() => {
    if (order.departure_date_past && !askedForDate.current) {
      askedForDate.current = true;
      setDateDialogOpen(true);
    }
  }, [order]);

  // An unpaid order whose time is up is cancelled by the server when read: read it again, once
  // (a browser clock ahead of the server's must not make it read in a loop).
  const role = useTeamRole();
  const reread = useRef(false);
  const due = now !== null && UNPAID_STATUSES.includes(order.status) && order.expires_at !== null && order.expires_at <= now;
  useEffect(() => {
    if (!due || reread.current || revalidator.state !== 'idle') return;
    reread.current = true;
    void revalidator.revalidate();
  }, [due, revalidator]);

  // A 财务 is offered paying only (issue 29).
  const allowedEvents = eventsForRole(role, order.allowed_events);

  return (
    <div className="order-page" data-testid="order-detail-page">
      <Link to="/order/order-list" className="order-back">
        <LeftOutlined /> 我的订单
      </Link>
      <LoadingOverlay loading={revalidator.state === 'loading'} loadingText="正在加载订单">
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
        {isDraft(order) && order.ordering_step ? (
          <div className="order-section order-detail-steps">
            <OrderingSteps current={order.ordering_step} needInterview={order.need_interview} />
          </div>
        ) : null}
        {/* In the order of spec 2.4. */}
        <BasicInfoSection order={order} />
        <ReturnAddressSection order={order} />
        <ScheduleSection order={order} />
        <InsuranceSection order={order} />
        {PaymentDialog ? <PriceDifferenceSection order={order} PaymentDialog={PaymentDialog} onPaid={reload} /> : null}
        <PaymentSection order={order} />
        <RefundSection order={order} />
        <ApplicantsSection order={order} />
        <VisaInfosSection order={order} />
        {materials ? <MaterialReviewSection list={materials} userOrderId={order.user_order_id} allowedEvents={allowedEvents} /> : null}
        <PageCheckSection />
        <InterviewDetailSections notice={interview} allowedEvents={allowedEvents} />
        <MailSections mail={mail} />
        <ReturnParcelSection />
        <DepartureDateDialog open={dateDialogOpen} onClose={() => setDateDialogOpen(false)} order={order} onChanged={reload} />
      </LoadingOverlay>
    </div>
  );
}
