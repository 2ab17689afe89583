// 产品管理: the product list (supervisors; an operator gets the call's refusal, 2003).
import { ProductListPage } from '../../features/admin/catalogue/product-list-page';
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/catalogue';

export const meta: Route.MetaFunction = () => [{ title: '产品管理 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  const params = new URL(request.url).searchParams;
  const keyword = (params.get('keyword') ?? '').slice(0, 50);
  const pageText = params.get('page');
  const page = pageText && /^[1-9]\d{0,4}$/.test(pageText) ? Number(pageText) : 1;
  const list = loaded(await reads.catalogueProducts({ ...(keyword ? { keyword } : {}), page }));
  return { list, keyword, page };
}

export default function AdminCatalogue({ loaderData }: Route.ComponentProps) {
  return <ProductListPage list={loaderData.list} keyword={loaderData.keyword} page={loaderData.page} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
