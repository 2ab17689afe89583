// /user/invoice (login only, issue 29): the enterprise's invoices, newest
// first, 10 a page, with the issued e-invoices to download and the ones to
// be reversed after a refund. The loader reads them in process as the
// session's customer (app/features/invoice).
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { InvoicePage } from '../features/invoice/invoice-page';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import type { Route } from './+types/invoice-list';

export const meta: Route.MetaFunction = () => [{ title: '我的发票 - 易签通' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const reads = await requireCustomer(context);
  const raw = Number(new URL(request.url).searchParams.get('page') ?? '1');
  const page = Number.isInteger(raw) && raw >= 1 && raw <= 100_000 ? raw : 1;
  const list = loaded(await reads.invoices(page));
  return { page, list };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <InvoicePage page={loaderData.page} list={loaderData.list} />;
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="发票" />;
}
