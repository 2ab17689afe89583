// 订单工作台: one order with every file and its review.
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
  const [bench, pageCheck, mail, shipBack] = await Promise.all([
    reads.orderWorkbench(userOrderId),
    reads.pageCheck(userOrderId),
    reads.orderMail(userOrderId),
    reads.orderShipBack(userOrderId),
  ]);
  // pageCheck and mail: the issue-10 panels' data (page-check-panel.tsx and mail-panel.tsx read them from here).
  // shipBack: issue 11's ship-back panel (ship-back-panel.tsx reads it from here).
  return {
    bench: loaded(bench),
    pageCheck: pageCheck.ok ? pageCheck.body : null,
    mail: mail.ok ? mail.body : null,
    shipBack: shipBack.ok ? shipBack.body : null,
  };
}

export default function AdminOrderWorkbench({ loaderData }: Route.ComponentProps) {
  return <WorkbenchPage key={loaderData.bench.order.user_order_id} bench={loaderData.bench} mail={loaderData.mail} />;
}

export function ErrorBoundary() {
  return <AdminLoadError extra={<Link to="/admin/orders">返回订单队列</Link>} />;
}
