// 订单队列: the work queue of paid orders; filters, view and page in the URL.
// A URL without parameters shows the view the operator chose last (saved on the server).
import { QueuePage } from '../../features/admin/orders/queue-page';
import { queuePayload, queueQueryOf } from '../../features/admin/orders/queue-params';
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/orders';

export const meta: Route.MetaFunction = () => [{ title: '订单队列 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  const params = new URL(request.url).searchParams;
  const saved = params.size === 0 ? loaded(await reads.queueView()).view : undefined;
  const query = queueQueryOf(params, saved);
  const [result, filters] = await Promise.all([reads.orderQueue(queuePayload(query)), reads.queueFilters()]);
  return { me: reads.me, query, result: loaded(result), filters: loaded(filters) };
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  return <QueuePage me={loaderData.me} query={loaderData.query} result={loaderData.result} filters={loaderData.filters} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
