// /order/order-reupload/:userOrderId (issue 9, footer hidden): the items an
// operator did not pass, to replace and submit for review again. The loader
// reads the checklist in process as the session's customer
// (app/features/order/reupload-page.tsx).
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { ReuploadPage } from '../features/order/reupload-page';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/order-reupload';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '重新上传资料 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  const reads = await requireCustomer(context);
  return { userOrderId, list: loaded(await reads.materialList(userOrderId)) };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <ReuploadPage key={loaderData.userOrderId} userOrderId={loaderData.userOrderId} list={loaderData.list} />;
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="资料清单" />;
}
