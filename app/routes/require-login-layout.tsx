// Layout of every login-only screen (/order/, /ordering/, the personal
// centre). Its loader and each child's loader check the session; a guest's
// 401 lands in the one boundary of these pages, which asks for login instead
// of the page (app/components/load-error-boundary.tsx).
import { App } from 'antd';
import { Outlet } from 'react-router';
import { AntdScope } from '../components/antd-scope';
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { requireUser } from '../lib/require-user';
import type { Route } from './+types/require-login-layout';

export async function loader({ context }: Route.LoaderArgs) {
  await requireUser(context);
  return null;
}

// antd's scope and App (App.useApp(): confirm dialogs, …) for the login-only
// screens; root carries neither, so guest pages do not load antd's core.
export default function RequireLoginLayout() {
  return (
    <AntdScope>
      <App component={false}>
        <Outlet />
      </App>
    </AntdScope>
  );
}

export function ErrorBoundary() {
  return (
    <AntdScope>
      <LoadErrorBoundary subject="页面" />
    </AntdScope>
  );
}
