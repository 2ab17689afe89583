// 对账差异: the daily reconciliation's differences (operators read; supervisors explain).
import { ReconciliationPage, type ReconciliationQuery } from '../../features/admin/reconciliation-page';
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/reconciliation';

export const meta: Route.MetaFunction = () => [{ title: '对账差异 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  const params = new URL(request.url).searchParams;
  const page = params.get('page');
  const query: ReconciliationQuery = {
    status: params.get('status') === 'all' ? 'all' : 'open',
    page: page && /^[1-9]\d{0,5}$/.test(page) ? Number(page) : 1,
  };
  const list = loaded(await reads.reconciliation(query));
  return { query, list };
}

export default function AdminReconciliation({ loaderData }: Route.ComponentProps) {
  return <ReconciliationPage query={loaderData.query} list={loaderData.list} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
