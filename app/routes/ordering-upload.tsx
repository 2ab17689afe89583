// /ordering/upload/:userOrderId (spec 2.1, footer hidden): the checklist of
// each applicant's identity and its uploads. The loader reads the checklist
// and the order in process as the session's customer; uploads and deletes
// are signed calls from the browser (app/features/ordering/upload).
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { UploadPage } from '../features/ordering/upload/upload-page';
import { TravellerOffers } from '../features/travellers/traveller-offers';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/ordering-upload';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '上传资料 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  const reads = await requireCustomer(context);
  const [list, order, offers] = await Promise.all([reads.materialList(userOrderId), reads.orderDetail(userOrderId), reads.travellerOffers(userOrderId)]);
  return { userOrderId, list: loaded(list), order: loaded(order), offers: offers.ok ? offers.body : { applicants: [] } };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  // Keyed: another order starts afresh.
  return (
    <UploadPage
      key={loaderData.userOrderId}
      userOrderId={loaderData.userOrderId}
      list={loaderData.list}
      order={loaderData.order}
      extra={<TravellerOffers userOrderId={loaderData.userOrderId} offers={loaderData.offers} />}
    />
  );
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="资料清单" />;
}
