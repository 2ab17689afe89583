import { redirect } from 'react-router';
import { AntdScope } from '../../components/antd-scope';
import { safeNext } from '../../features/admin/admin-api';
import { AdminLoginPage } from '../../features/admin/login-page';
import type { RouteHandle } from '../../lib/route-handle';
import type { Route } from './+types/login';

export const handle: RouteHandle = { bare: true };

export const meta: Route.MetaFunction = () => [{ title: '登录 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

/** Already logged in: on to the back office. */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (await context.currentOperator()) throw redirect(safeNext(new URL(request.url).searchParams.get('next')));
  return null;
}

export default function AdminLogin() {
  return (
    <AntdScope>
      <AdminLoginPage />
    </AntdScope>
  );
}
