// 工作台: the operator's greeting and, when refunds failed and their money is
// still to go back, the alert that sends them to the queue's 退款失败 filter.
import { AdminHomePage } from '../../features/admin/home-page';
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/home';

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  return { operator: reads.me, refundFailed: loaded(await reads.refundFailedCount()) };
}

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  return <AdminHomePage operator={loaderData.operator} refundFailed={loaderData.refundFailed} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
