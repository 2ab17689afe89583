// 发票 (issue 29): the invoice requests to issue (the e-invoice PDF uploaded
// here), those to reverse after a refund, or all. Every operator may work it,
// like the order queue.
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { InvoicesPage, type InvoicesQuery } from '../../features/admin/invoices-page';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/invoices';

export const meta: Route.MetaFunction = () => [{ title: '发票 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

const FILTERS = ['requested', 'reversal', 'all'] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  const params = new URL(request.url).searchParams;
  const filter = FILTERS.find((f) => f === params.get('filter')) ?? 'requested';
  const page = params.get('page');
  const query: InvoicesQuery = { filter, page: page && /^[1-9]\d{0,5}$/.test(page) ? Number(page) : 1 };
  const list = loaded(await reads.invoices(query));
  return { query, list };
}

export default function AdminInvoices({ loaderData }: Route.ComponentProps) {
  return <InvoicesPage query={loaderData.query} list={loaderData.list} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
