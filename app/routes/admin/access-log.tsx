// 访问日志 (supervisors; an operator gets the read's refusal, 2003).
import { AccessLogPage, type AccessLogQuery } from '../../features/admin/orders/access-log-page';
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/access-log';

export const meta: Route.MetaFunction = () => [{ title: '访问日志 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

const positive = (value: string | null) => (value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : undefined);

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  const params = new URL(request.url).searchParams;
  const query: AccessLogQuery = {
    operator_id: positive(params.get('operator')),
    user_order_id: positive(params.get('order')),
    page: positive(params.get('page')) ?? 1,
  };
  const log = loaded(await reads.fileAccessLog(query));
  const filters = loaded(await reads.queueFilters());
  return { query, log, operators: filters.operators };
}

export default function AdminAccessLog({ loaderData }: Route.ComponentProps) {
  return <AccessLogPage query={loaderData.query} log={loaderData.log} operators={loaderData.operators} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
