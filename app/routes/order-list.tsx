// /order/order-list (spec 2.1): status tabs and order cards. The orders are
// read in the browser with the session's token (app/features/order).
import { OrderListPage } from '../features/order/order-list-page';
import { requireUser } from '../lib/require-user';
import type { Route } from './+types/order-list';

export const meta: Route.MetaFunction = () => [{ title: '我的订单 - 易签通' }];

export async function loader({ context }: Route.LoaderArgs) {
  await requireUser(context);
  return null;
}

export default function Screen() {
  return <OrderListPage />;
}
