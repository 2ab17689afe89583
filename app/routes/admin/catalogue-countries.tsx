// 产品管理 · 国家与领区: the countries (supervisors).
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { CountryListPage } from '../../features/admin/catalogue/country-list-page';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/catalogue-countries';

export const meta: Route.MetaFunction = () => [{ title: '国家与领区 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  return { list: loaded(await reads.catalogueCountries()) };
}

export default function AdminCatalogueCountries({ loaderData }: Route.ComponentProps) {
  return <CountryListPage list={loaderData.list} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
