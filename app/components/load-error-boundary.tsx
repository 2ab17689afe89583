// The one error boundary of the login-only pages: what their loaders threw
// (app/lib/loaded.ts, require-user.ts), told apart by status —
//   401  the session is gone: spec §8's expiry (toast, then logout) for a
//        browser that still holds a login, the login dialog for a guest;
//   404  订单不存在 (a refusal), or spec 2.7's 404 page (a bad route parameter);
//   409  the server refused for another reason: its message;
//   else the read failed (database, network): 加载失败, with a retry that
//        re-runs the loaders (useRevalidator), not the whole page.
import { LockOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { isRouteErrorResponse, useLocation, useNavigate, useRevalidator, useRouteError } from 'react-router';
import { expireSession } from '../lib/api-client';
import { isRefusal } from '../lib/loaded';
import { hasStoredLogin, openLoginDialog, requireLogin } from '../lib/session';
import { ErrorPage } from './error-page';

const ORDER_LIST = '/order/order-list';

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
        subTitle="订单与办理页面仅对登录用户开放，请使用企业账号登录。"
        extra={
          <Button type="primary" onClick={openLoginDialog}>
            登录
          </Button>
        }
      />
    </div>
  );
}

function BackToOrders({ primary = true }: { primary?: boolean }) {
  const navigate = useNavigate();
  return (
    <Button type={primary ? 'primary' : 'default'} onClick={() => navigate(ORDER_LIST)}>
      返回我的订单
    </Button>
  );
}

/** `subject`: what the page loads, for "订单加载失败", "资料清单加载失败". */
export function LoadErrorBoundary({ subject }: { subject: string }) {
  const error = useRouteError();
  const { pathname } = useLocation();
  const revalidator = useRevalidator();

  if (isRouteErrorResponse(error)) {
    if (error.status === 401) return <LoginRequired />;
    if (error.status === 404 && isRefusal(error.data)) {
      return (
        <div className="page" data-testid="load-not-found">
          <Result
            status="404"
            title={error.data.msg}
            subTitle="订单可能已被删除，或不属于您所在的企业。"
            extra={<BackToOrders />}
            data-testid="order-missing"
          />
        </div>
      );
    }
    if (error.status === 404) return <ErrorPage error={error} pathname={pathname} />;
    if (isRefusal(error.data)) {
      return (
        <div className="page" data-testid="load-refused">
          <Result status="warning" title={error.data.msg} extra={<BackToOrders />} />
        </div>
      );
    }
  }
  return (
    <div className="page" data-testid="load-failed">
      <Result
        status="warning"
        title={`${subject}加载失败`}
        subTitle="网络或服务器暂时出了问题，请稍后重新加载。"
        extra={[
          <Button key="retry" type="primary" loading={revalidator.state === 'loading'} onClick={() => void revalidator.revalidate()} data-testid="load-retry">
            重新加载
          </Button>,
          <BackToOrders key="back" primary={false} />,
        ]}
      />
    </div>
  );
}
