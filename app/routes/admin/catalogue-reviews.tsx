// 产品管理 · 评价: ?product=ID, a product's reviews to hide or show (supervisors).
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { ReviewListPage } from '../../features/admin/catalogue/review-list-page';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/catalogue-reviews';

export const meta: Route.MetaFunction = () => [{ title: '评价管理 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  const params = new URL(request.url).searchParams;
  const pageText = params.get('page');
  const page = pageText && /^[1-9]\d{0,4}$/.test(pageText) ? Number(pageText) : 1;
  const list = loaded(await reads.catalogueReviews({ visa_product_id: params.get('product') ?? '', page }));
  return { list, page };
}

export default function AdminCatalogueReviews({ loaderData }: Route.ComponentProps) {
  return <ReviewListPage list={loaderData.list} page={loaderData.page} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
