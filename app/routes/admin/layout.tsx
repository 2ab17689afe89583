// /admin/*: the back office. Its loader (and each child's) checks the
// admin_token session on the server; without one the page redirects to
// /admin/login. Never indexed (meta robots here, X-Robots-Tag on the answer).
import { App } from 'antd';
import { Outlet } from 'react-router';
import { AntdScope } from '../../components/antd-scope';
import { AdminShell } from '../../features/admin/admin-shell';
import { requireOperator } from '../../features/admin/require-operator';
import type { RouteHandle } from '../../lib/route-handle';
import type { Route } from './+types/layout';

export const handle: RouteHandle = { bare: true };

export const meta: Route.MetaFunction = () => [{ title: '易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  return { operator: await requireOperator(context, request) };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AntdScope>
      <App component={false}>
        <AdminShell operator={loaderData.operator}>
          <Outlet />
        </AdminShell>
      </App>
    </AntdScope>
  );
}
