// /user/travellers (常用出行人, issue 28 part 3): the enterprise's saved
// travellers and their documents. The loader reads them in process as the
// session's customer; saving, uploading and deleting are signed calls from
// the browser (app/features/travellers).
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { TravellersPage } from '../features/travellers/travellers-page';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import type { Route } from './+types/travellers';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '常用出行人 - 易签通' }];

export async function loader({ context }: Route.LoaderArgs) {
  const reads = await requireCustomer(context);
  return { travellers: loaded(await reads.travellers()).list };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <TravellersPage travellers={loaderData.travellers} />;
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="常用出行人" />;
}
