// 产品管理 · 面试时段: ?district=ID picks the consulate (default: the first),
// ?from=YYYY-MM-DD the first of the 30 days shown (default: today). Supervisors only.
import { SlotsPage } from '../../features/admin/catalogue/slots-page';
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/catalogue-slots';

export const meta: Route.MetaFunction = () => [{ title: '面试时段 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  const params = new URL(request.url).searchParams;
  const district = params.get('district');
  const from = params.get('from');
  const calendar = loaded(
    await reads.catalogueSlots({
      ...(district ? { consular_district_id: district } : {}),
      ...(from ? { from: from.slice(0, 32) } : {}),
    }),
  );
  return { calendar };
}

export default function AdminCatalogueSlots({ loaderData }: Route.ComponentProps) {
  return <SlotsPage calendar={loaderData.calendar} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
