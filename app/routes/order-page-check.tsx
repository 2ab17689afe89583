// /order/order-page-check/:userOrderId (issue 10, footer hidden): the
// application pages to check per applicant, confirm or ask for corrections.
// The loader reads them in process as the session's customer
// (app/features/order/page-check-page.tsx).
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { PageCheckPage } from '../features/order/page-check-page';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/order-page-check';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '核对签证页 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  const reads = await requireCustomer(context);
  return { view: loaded(await reads.pageCheck(userOrderId)) };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <PageCheckPage key={loaderData.view.user_order_id} view={loaderData.view} />;
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="核对页" />;
}
