// Layout of every login-only screen (/order/, /ordering/, the personal
// centre). Its loader and each child's loader check the session; a guest's
// 401 lands in the one boundary of these pages, which asks for login instead
// of the page (app/components/load-error-boundary.tsx).
import { App } from 'antd';
import { Outlet } from 'react-router';
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { requireUser } from '../lib/require-user';
import type { Route } from './+types/require-login-layout';

export async function loader({ context }: Route.LoaderArgs) {
  await requireUser(context);
  return null;
}

// antd's App gives the login-only screens App.useApp() (confirm dialogs, …);
// root does not carry it, so guest pages do not load its dialog code.
export default function RequireLoginLayout() {
  return (
    <App component={false}>
      <Outlet />
    </App>
  );
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="页面" />;
}
