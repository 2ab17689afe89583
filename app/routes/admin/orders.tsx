// 订单队列: the work queue of paid orders; filters and page in the URL.
import { QueuePage } from '../../features/admin/orders/queue-page';
import { queueQueryOf } from '../../features/admin/orders/queue-params';
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/orders';

export const meta: Route.MetaFunction = () => [{ title: '订单队列 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  const query = queueQueryOf(new URL(request.url).searchParams);
  const [result, filters] = await Promise.all([reads.orderQueue(query), reads.queueFilters()]);
  return { me: reads.me, query, result: loaded(result), filters: loaded(filters) };
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  return <QueuePage me={loaderData.me} query={loaderData.query} result={loaderData.result} filters={loaderData.filters} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
