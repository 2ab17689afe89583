// /ordering/order-confirm/:userOrderId (spec 2.5, footer hidden). The loader
// reads the order, the insurance plans and the return addresses in process as
// the session's customer (app/features/ordering/confirm). The route composes
// the confirm page with the payment feature's dialog.
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { ConfirmPage } from '../features/ordering/confirm/confirm-page';
import { PaymentDialog } from '../features/payment/payment-dialog';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/order-confirm';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '确认订单 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  const reads = await requireCustomer(context);
  const [order, offer, addresses] = await Promise.all([reads.orderDetail(userOrderId), reads.insurancePlans(userOrderId), reads.addresses('return')]);
  return { order: loaded(order), offer: loaded(offer), returnAddresses: loaded(addresses).list };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  const { order, offer, returnAddresses } = loaderData;
  // Keyed: another order starts afresh (chosen address, insurance choice).
  return <ConfirmPage key={order.user_order_id} order={order} offer={offer} returnAddresses={returnAddresses} PaymentDialog={PaymentDialog} />;
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="订单" />;
}
