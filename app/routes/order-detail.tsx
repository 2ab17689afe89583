// /order/order-detail/:userOrderId (spec 2.4, footer hidden). The loader
// reads the order in process as the session's customer (app/features/order).
import { FINISHED_STATUSES, HANDLED_STATUSES, PAGE_CHECK_SHOWN_STEPS, RESULT_SHOWN_STEPS, hasStatus, isProcessingIn } from '../../common/order';
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { OrderDetailPage } from '../features/order/order-detail-page';
import { PaymentDialog } from '../features/payment/payment-dialog';
import { PaymentReturn } from '../features/payment/payment-return';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import { useRevalidator, useSearchParams } from 'react-router';
import type { Route } from './+types/order-detail';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '订单详情 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  const reads = await requireCustomer(context);
  const [order, materials, mail] = await Promise.all([reads.orderDetail(userOrderId), reads.materialList(userOrderId), reads.mailList(userOrderId)]);
  // Each file's review status once the order is being handled (the materials are a side read: no page error for them).
  const handled = order.ok && hasStatus(order.body, HANDLED_STATUSES);
  // The page check section (issue 10): from the page check step on, and kept (read-only) once the order is finished.
  const pageCheckShown = order.ok && (isProcessingIn(order.body, PAGE_CHECK_SHOWN_STEPS) || hasStatus(order.body, FINISHED_STATUSES));
  const pageCheck = pageCheckShown ? await reads.pageCheck(userOrderId) : null;
  // The interview notice (issue 10): a side read too, once paid for an order with an interview.
  const interview = handled && order.body.need_interview ? await reads.interviewNotice(userOrderId) : null;
  // The passports' return parcel (issue 11): from submitted on (detail-return-section.tsx reads it from here).
  const finishing = order.ok && (hasStatus(order.body, FINISHED_STATUSES) || isProcessingIn(order.body, RESULT_SHOWN_STEPS));
  const returnParcel = finishing ? await reads.returnParcel(userOrderId) : null;
  return {
    returnParcel: returnParcel?.ok ? returnParcel.body : null,
    order: loaded(order),
    materials: handled && materials.ok ? materials.body : null,
    pageCheck: pageCheck?.ok ? pageCheck.body : null,
    interview: interview?.ok ? interview.body : null,
    mail: handled && mail.ok ? mail.body : null,
  };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  // Back from a phone wallet (?pay=out_trade_no): ask for that payment's result, reload once paid (decision 0036).
  const [search] = useSearchParams();
  const revalidator = useRevalidator();
  const returnedFrom = search.get('pay');
  // Keyed: moving to another order starts its page afresh (dialog state, "asked once").
  const page = (
    <OrderDetailPage
      key={loaderData.order.user_order_id}
      order={loaderData.order}
      materials={loaderData.materials}
      PaymentDialog={PaymentDialog}
      interview={loaderData.interview}
      mail={loaderData.mail}
    />
  );
  if (!returnedFrom || !/^[A-Za-z0-9_-]{1,40}$/.test(returnedFrom)) return page;
  return (
    <>
      <PaymentReturn key={returnedFrom} userOrderId={loaderData.order.user_order_id} outTradeNo={returnedFrom} onPaid={() => void revalidator.revalidate()} />
      {page}
    </>
  );
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="订单" />;
}
