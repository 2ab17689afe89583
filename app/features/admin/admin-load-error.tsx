// The one error boundary of the back-office pages: a refusal the loader threw
// (app/lib/loaded.ts) shows the server's message; any other failure 加载失败.
import { Result } from 'antd';
import type { ReactNode } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isRefusal } from '../../lib/loaded';

/** `extra`: a way on from the page (the workbench's 返回订单队列). */
export function AdminLoadError({ extra }: { extra?: ReactNode }) {
  const error = useRouteError();
  const refusal = isRouteErrorResponse(error) && isRefusal(error.data) ? error.data.msg : null;
  return <Result status={refusal ? 'warning' : 'error'} title={refusal ?? '加载失败，请刷新重试'} extra={extra} />;
}
