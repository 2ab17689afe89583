// /order/order-mail-list/:userOrderId (issue 10, footer hidden): the paper
// materials to mail, where to, the pickup booking and self-express dialog,
// and the parcel's tracking. The loader reads the list and the address book
// in process as the session's customer (app/features/mail/mail-list-page.tsx).
import { pickupWindowOptions } from '../../common/courier';
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { MailListPage } from '../features/mail/mail-list-page';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/order-mail-list';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '邮寄资料清单 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  const reads = await requireCustomer(context);
  const [list, returns, peers] = await Promise.all([reads.mailList(userOrderId), reads.addresses('return'), reads.addresses('peer')]);
  const addresses = [...(returns.ok ? returns.body.list : []), ...(peers.ok ? peers.body.list : [])];
  // The windows are the server's: its clock decides what can still be booked.
  return { list: loaded(list), addresses, windows: pickupWindowOptions(Date.now()) };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <MailListPage key={loaderData.list.order.user_order_id} list={loaderData.list} addresses={loaderData.addresses} windows={loaderData.windows} />;
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="邮寄资料清单" />;
}
