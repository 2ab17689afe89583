// /order/order-list (spec 2.1): status tabs and order cards, with the export
// and invoice bar (issue 29) and the enterprise's 出行团组. The loader reads
// the tab and page of the URL in process as the session's customer
// (app/features/order).
import { redirect } from 'react-router';
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { OrderListPage } from '../features/order/order-list-page';
import { lastPage, orderListPath, parsePage, parseScope, parseTab } from '../features/order/order-list-params';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import type { Route } from './+types/order-list';

export const meta: Route.MetaFunction = () => [{ title: '我的订单 - 易签通' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const reads = await requireCustomer(context);
  const search = new URL(request.url).searchParams;
  const tab = parseTab(search.get('tab'));
  const page = parsePage(search.get('page'));
  const scope = parseScope(search.get('mine'));
  const [answer, groups] = await Promise.all([reads.orderList(tab, page, scope), reads.orderGroups()]);
  const list = loaded(answer);
  // A page past the end (the last order of the last page was cancelled, an old link): the last page.
  if (page > lastPage(list.total_count)) throw redirect(orderListPath(tab, lastPage(list.total_count), scope));
  return { tab, page, scope, list, groups: loaded(groups).groups };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <OrderListPage tab={loaderData.tab} page={loaderData.page} scope={loaderData.scope} list={loaderData.list} groups={loaderData.groups} />;
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="订单" />;
}
