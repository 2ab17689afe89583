// 产品管理 · 国家编辑: ?country=ID edits a country and its districts, none a new country (supervisors).
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { CountryEditorPage } from '../../features/admin/catalogue/country-editor-page';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/catalogue-country-edit';

export const meta: Route.MetaFunction = () => [{ title: '国家编辑 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  const country = new URL(request.url).searchParams.get('country');
  const editor = loaded(await reads.catalogueCountryEditor(country ? { visa_country_id: country } : {}));
  return { editor, provinces: context.provinces() };
}

export default function AdminCatalogueCountryEdit({ loaderData }: Route.ComponentProps) {
  // Keyed by the country: after creating one the form starts afresh from what was stored.
  return <CountryEditorPage key={loaderData.editor.visa_country_id ?? 'new'} editor={loaderData.editor} provinces={loaderData.provinces} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
