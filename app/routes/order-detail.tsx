// /order/order-detail/:userOrderId (spec 2.4, footer hidden). The order is
// read in the browser with the session's token (app/features/order).
import { OrderDetailPage } from '../features/order/order-detail-page';
import { requireUser } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/order-detail';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '订单详情 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  await requireUser(context);
  return { userOrderId };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  // Keyed: moving to another order starts its page afresh (dialog state, "asked once").
  return <OrderDetailPage key={loaderData.userOrderId} userOrderId={loaderData.userOrderId} />;
}
