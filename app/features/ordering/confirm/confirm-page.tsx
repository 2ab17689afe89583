// The order confirm page (spec 2.5): confirm infos, the return address (with
// the select-address and peer address dialogs), the insurance section and the
// fixed footer with the price text; '确认并支付' confirms the draft and opens
// the payment dialog. A confirmed (pending_payment) order shows what was
// chosen, read-only, with '去支付'. The route's loader reads the order, the
// insurance offer and the return addresses on the server; confirming (or a
// refusal that changes what the page shows) revalidates them.
import { ClockCircleOutlined, LeftOutlined } from '@ant-design/icons';
import { Alert, Button, Result } from 'antd';
import { type ComponentType, useMemo, useState } from 'react';
import { Link, useNavigate, useRevalidator, useSearchParams } from 'react-router';
import type { AddressView } from '../../../../common/contracts/address';
import type { InsurancePlanListResult } from '../../../../common/contracts/insurance';
import type { OrderDetail } from '../../../../common/contracts/order';
import type { AddressKind } from '../../../../common/address';
import { ErrorCode } from '../../../../common/error-codes';
import { expiryText } from '../../../../common/format';
import { awaitsPayment, eventAllowed, isCancelled, isDraft, isUnpaid } from '../../../../common/order';
import { AddressBookDialog } from '../../../components/address/address-book-dialog';
import type { AddressLike } from '../../../components/address/address-card';
import { LoadingOverlay } from '../../../components/loading-overlay';
import { OrderingSteps } from '../../../components/ordering-steps';
import { ApiError, api } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useNow } from '../../../lib/use-now';
import { ConfirmFooter } from './confirm-footer';
import { ConfirmInfos } from './confirm-infos';
import { confirmBlockers, priceParts } from './confirm-model';
import { type InsuranceChoice, InsuranceSection, InsuranceSummary } from './insurance-section';
import { ReturnAddressSection } from './return-address-section';
import '../ordering-page.css';
import './confirm.css';

/** Errors after which the page must show the order as it now is (confirmed, cancelled, incomplete). */
const RELOAD_ON = new Set<number>([
  ErrorCode.ORDER_ALREADY_CONFIRMED,
  ErrorCode.ORDER_ALREADY_CANCELLED,
  ErrorCode.ORDER_CONFIRM_DEPARTURE_PAST,
  ErrorCode.ORDER_MATERIALS_INCOMPLETE,
  ErrorCode.ORDER_INTERVIEW_NOT_CHOSEN,
  ErrorCode.INSURANCE_PLAN_NOT_FOUND,
  ErrorCode.ORDER_CONFLICT,
]);

function defaultAddress(list: AddressView[]): AddressView | null {
  return list.find((address) => address.is_default) ?? list[0] ?? null;
}

/** What the confirm page needs of a payment dialog; the route hands in the payment feature's (features do not import each other). */
export interface PaymentDialogSlot {
  userOrderId: number;
  orderNo: string;
  /** cents */
  amount: number;
  open: boolean;
  onClose: () => void;
  onPaid: () => void;
}

export interface ConfirmPageProps {
  order: OrderDetail;
  offer: InsurancePlanListResult;
  /** Why the return date in the address could not price the cover (the offer is then for the assumed trip). */
  tripProblem?: string | null;
  /** The enterprise's return addresses: the default one is chosen until the customer picks another. */
  returnAddresses: AddressView[];
  PaymentDialog: ComponentType<PaymentDialogSlot>;
}

export function ConfirmPage({ order, offer, tripProblem = null, returnAddresses, PaymentDialog }: ConfirmPageProps) {
  const [address, setAddress] = useState<AddressView | null>(() => defaultAddress(returnAddresses));
  const [addressTouched, setAddressTouched] = useState(false);
  // The insurance days start from the trip.
  const [choice, setChoice] = useState<InsuranceChoice>({ planId: null, days: offer.trip_days, insured: [], agreed: false });
  const [dialog, setDialog] = useState<AddressKind | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [payment, setPayment] = useState<{ amount: number } | null>(null);
  const navigate = useNavigate();
  const now = useNow();
  const revalidator = useRevalidator();
  const reload = () => void revalidator.revalidate();
  const [, setSearchParams] = useSearchParams();
  // A new return date reloads the offer priced for it (the loader reads it from the address).
  const changeReturnDate = (returnDate: string) =>
    setSearchParams(
      (params) => {
        params.set('return_date', returnDate);
        return params;
      },
      { replace: true, preventScrollReset: true },
    );

  // A revalidation brings the book and the offer as they are now: until the customer picks an address, the default one;
  // until they pick a plan, the trip's days; a new trip (return date) brings the chosen plan's days for it.
  const [shown, setShown] = useState({ returnAddresses, offer });
  if (shown.returnAddresses !== returnAddresses || shown.offer !== offer) {
    setShown({ returnAddresses, offer });
    if (!addressTouched) setAddress(defaultAddress(returnAddresses));
    const chosen = offer.plans.find((candidate) => candidate.insurance_plan_id === choice.planId);
    if (!chosen) setChoice({ ...choice, days: offer.trip_days });
    else if (shown.offer.trip_days !== offer.trip_days) setChoice({ ...choice, days: chosen.suggested_days });
  }

  const plan = offer.plans.find((candidate) => candidate.insurance_plan_id === choice.planId) ?? null;
  const blockers = useMemo(() => (isDraft(order) ? confirmBlockers(order) : []), [order]);

  const chooseAddress = (chosen: AddressView) => {
    setAddress(chosen);
    setAddressTouched(true);
    setDialog(null);
  };

  /** The book changed: the address shown follows an edit, and goes when deleted. */
  const bookChanged = (kind: AddressKind, list: AddressView[]) => {
    if (!address || address.kind !== kind) return;
    const current = list.find((candidate) => candidate.address_id === address.address_id);
    if (current) setAddress(current);
    else {
      setAddress(kind === 'return' ? defaultAddress(list) : null);
      setAddressTouched(kind !== 'return');
    }
  };

  const submit = async () => {
    if (!address) {
      toast.warning('请选择回寄地址');
      setDialog('return');
      return;
    }
    if (plan && choice.insured.length === 0) {
      toast.warning('请至少选择一位被保险人，或选择“不购买保险”');
      return;
    }
    if (plan && !choice.agreed) {
      toast.warning('请阅读并同意《保险条款》');
      return;
    }
    setSubmitting(true);
    try {
      const result = await api('/www/order/order_confirm', {
        user_order_id: order.user_order_id,
        address_id: address.address_id,
        insurance_plan_id: plan ? plan.insurance_plan_id : null,
        insurance_days: plan ? choice.days : null,
        insured_applicant_ids: plan ? choice.insured : [],
        protocol_agreed: plan ? choice.agreed : false,
      });
      setPayment({ amount: result.total_amount });
      reload();
    } catch (error) {
      if (error instanceof ApiError && RELOAD_ON.has(error.ret)) reload();
    } finally {
      setSubmitting(false);
    }
  };

  const expiry =
    isUnpaid(order) && order.expires_at !== null && now !== null ? (
      <span className="oc-expiry" data-testid="confirm-expiry">
        <ClockCircleOutlined /> {expiryText(order.expires_at, now)}
      </span>
    ) : null;

  return (
    <div className="ordering-page oc-page" data-testid="order-confirm-page">
      <Link to={`/order/order-detail/${order.user_order_id}`} className="ordering-back">
        <LeftOutlined /> 订单详情
      </Link>
      <LoadingOverlay loading={revalidator.state === 'loading'} loadingText="正在加载订单">
        {!isUnpaid(order) ? (
          <Result
            status={isCancelled(order) ? 'warning' : 'success'}
            title={isCancelled(order) ? '订单已取消' : `订单${order.status_label}`}
            subTitle={order.cancel_reason ?? undefined}
            extra={
              <Button type="primary" onClick={() => navigate(`/order/order-detail/${order.user_order_id}`)}>
                查看订单详情
              </Button>
            }
            data-testid="confirm-closed"
          />
        ) : (
          <>
            <div className="oc-head">
              <h1 className="oc-title">确认订单</h1>
              {expiry}
            </div>
            <div className="oc-section oc-steps">
              <OrderingSteps current={awaitsPayment(order) ? 'pay' : 'confirm'} needInterview={order.need_interview} />
            </div>
            {awaitsPayment(order) ? (
              <Alert type="success" showIcon className="oc-alert" title="订单已确认，请在自动取消前完成支付" data-testid="confirm-confirmed" />
            ) : null}
            {blockers.length > 0 ? (
              <Alert
                type="warning"
                showIcon
                className="oc-alert"
                title="以下事项完成后才能确认订单"
                description={
                  <ul className="oc-blockers">
                    {blockers.map((blocker) => (
                      <li key={blocker.key}>
                        <span>{blocker.message}</span>
                        <Link to={blocker.action.to}>{blocker.action.label}</Link>
                      </li>
                    ))}
                  </ul>
                }
                data-testid="confirm-blockers"
              />
            ) : null}
            <ConfirmInfos order={order} />
            {awaitsPayment(order) ? (
              <>
                <ReturnAddressSection address={order.return_address as AddressLike | null} editable={false} />
                <InsuranceSummary insurance={order.insurance} applicants={order.applicants} />
              </>
            ) : (
              <>
                <ReturnAddressSection address={address} editable onChooseReturn={() => setDialog('return')} onChoosePeer={() => setDialog('peer')} />
                <InsuranceSection
                  country={order.country}
                  offer={offer}
                  tripProblem={tripProblem}
                  onReturnDateChange={changeReturnDate}
                  applicants={order.applicants}
                  choice={choice}
                  onChange={setChoice}
                />
              </>
            )}
            {awaitsPayment(order) ? (
              <ConfirmFooter
                parts={{
                  unitPrice: order.unit_price,
                  applicantCount: order.applicant_count,
                  productAmount: order.product_amount,
                  insuranceAmount: order.insurance_amount,
                  discountAmount: order.discount_amount,
                  totalAmount: order.total_amount,
                }}
                actionLabel="去支付"
                onAction={() => setPayment({ amount: order.total_amount })}
                disabled={!eventAllowed(order, 'payment_create')}
              />
            ) : (
              <ConfirmFooter
                parts={priceParts(order, plan, choice.days, choice.insured.length)}
                actionLabel="确认并支付"
                onAction={submit}
                loading={submitting}
                disabled={blockers.length > 0 || !eventAllowed(order, 'confirm')}
                note={blockers.length > 0 ? '请先完成上方提示的事项' : null}
              />
            )}
            <AddressBookDialog
              kind="return"
              open={dialog === 'return'}
              onClose={() => setDialog(null)}
              selectedId={address?.kind === 'return' ? address.address_id : null}
              onSelect={chooseAddress}
              onChanged={(list) => bookChanged('return', list)}
            />
            <AddressBookDialog
              kind="peer"
              open={dialog === 'peer'}
              onClose={() => setDialog(null)}
              selectedId={address?.kind === 'peer' ? address.address_id : null}
              onSelect={chooseAddress}
              onChanged={(list) => bookChanged('peer', list)}
            />
            <PaymentDialog
              userOrderId={order.user_order_id}
              orderNo={order.order_no}
              amount={payment?.amount ?? order.total_amount}
              open={payment !== null}
              onClose={() => setPayment(null)}
              onPaid={() => navigate(`/order/order-detail/${order.user_order_id}`)}
            />
          </>
        )}
      </LoadingOverlay>
    </div>
  );
}
