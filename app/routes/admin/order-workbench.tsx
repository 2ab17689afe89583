// 订单工作台: one order with every file and its review, and every panel.
import { Link } from 'react-router';
import { WorkbenchPage } from '../../features/admin/orders/workbench-page';
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import { requireNumericParam } from '../../lib/route-params';
import type { Route } from './+types/order-workbench';

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `订单 ${params.userOrderId} - 易签通后台` },
  { name: 'robots', content: 'noindex, nofollow' },
];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  const reads = await requireOperatorReads(context, request);
  // The operator's one view of the order (server/modules/order-view/workbench.ts): the order and every
  // panel's data, its version and the events this operator may fire. The panels' actions read it again.
  return { bench: loaded(await reads.orderWorkbench(userOrderId)), supervisor: reads.me.role === 'supervisor' };
}

export default function AdminOrderWorkbench({ loaderData }: Route.ComponentProps) {
  return <WorkbenchPage key={loaderData.bench.order.user_order_id} bench={loaderData.bench} supervisor={loaderData.supervisor} />;
}

export function ErrorBoundary() {
  return <AdminLoadError extra={<Link to="/admin/orders">返回订单队列</Link>} />;
}
