// /ordering/order-confirm/:userOrderId (spec 2.5, footer hidden). The loader
// reads the order, the insurance plans and the return addresses in process as
// the session's customer (app/features/ordering/confirm). The route composes
// the confirm page with the payment feature's dialog.
import { ErrorCode } from '../../common/error-codes';
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { ConfirmPage } from '../features/ordering/confirm/confirm-page';
import { PaymentDialog } from '../features/payment/payment-dialog';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/order-confirm';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '确认订单 - 易签通' }];

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  const reads = await requireCustomer(context);
  // The customer's return date (the insurance section's question) prices the cover; kept in the address so a reload keeps it.
  const returnDate = new URL(request.url).searchParams.get('return_date');
  const [order, asked, addresses] = await Promise.all([
    reads.orderDetail(userOrderId),
    reads.insurancePlans(userOrderId, { return_date: returnDate }),
    reads.addresses('return'),
  ]);
  // A return date the call refuses (typed into the address by hand): the assumed trip, and the reason beside the question.
  const offer = returnDate !== null && !asked.ok && asked.ret === ErrorCode.INSURANCE_DAYS_INVALID ? await reads.insurancePlans(userOrderId) : asked;
  const tripProblem = offer === asked || asked.ok ? null : asked.msg;
  return { order: loaded(order), offer: loaded(offer), tripProblem, returnAddresses: loaded(addresses).list };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  const { order, offer, tripProblem, returnAddresses } = loaderData;
  // Keyed: another order starts afresh (chosen address, insurance choice).
  return (
    <ConfirmPage
      key={order.user_order_id}
      order={order}
      offer={offer}
      tripProblem={tripProblem}
      returnAddresses={returnAddresses}
      PaymentDialog={PaymentDialog}
    />
  );
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="订单" />;
}
