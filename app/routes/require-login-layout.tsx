// Layout of every login-only screen (/order/, /ordering/, the personal
// centre). Its loader and each child's loader call requireUser(); a guest's
// 401 lands in this boundary, which asks for login instead of the page.
import { LockOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { Outlet, isRouteErrorResponse, useLocation } from 'react-router';
import { ErrorPage } from '../components/error-page';
import { hasStoredLogin, openLoginDialog, requireLogin } from '../features/account/session';
import { expireSession } from '../lib/api-client';
import { requireUser } from '../lib/require-user';
import type { Route } from './+types/require-login-layout';

export async function loader({ context }: Route.LoaderArgs) {
  await requireUser(context);
  return null;
}

export default function RequireLoginLayout() {
  return <Outlet />;
}

/**
 * A guest is asked to log in. A browser that still holds a token has had its
 * session expire on the server: that is the spec's 401 (toast, then logout).
 */
function LoginRequired() {
  useEffect(() => {
    if (hasStoredLogin()) expireSession();
    else void requireLogin();
  }, []);
  return (
    <div className="page">
      <Result
        icon={<LockOutlined />}
        title="请先登录"
        subTitle="订单与办理页面仅对登录用户开放，请使用企业管理员账号登录。"
        extra={
          <Button type="primary" onClick={openLoginDialog}>
            登录
          </Button>
        }
      />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { pathname } = useLocation();
  if (isRouteErrorResponse(error) && error.status === 401) return <LoginRequired />;
  return <ErrorPage error={error} pathname={pathname} />;
}
