// 工作台: the operator's greeting and, when refunds failed and their money is
// still to go back, the alert that sends them to the queue's 退款失败 filter.
// A 产品编辑 (issue 26) lands on 产品管理 instead.
import { redirect } from 'react-router';
import { staffHome, staffMay } from '../../../common/staff-access';
import { AdminHomePage } from '../../features/admin/home-page';
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/home';

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  // A 产品编辑 has no order work to show: its home is 产品管理.
  if (!staffMay(reads.me.role, 'operator')) throw redirect(staffHome(reads.me.role));
  return { operator: reads.me, refundFailed: loaded(await reads.refundFailedCount()) };
}

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  return <AdminHomePage operator={loaderData.operator} refundFailed={loaderData.refundFailed} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
