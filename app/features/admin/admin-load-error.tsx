// The one error boundary of the back-office pages, shown inside the back
// office's layout: a page the operator's role may not open (HTTP 403, the
// read's refusal 2003) says so with a way back to 工作台; another refusal the
// loader threw (app/lib/loaded.ts) shows the server's message; any other
// failure 加载失败.
import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { isRouteErrorResponse, Link, useRouteError, useRouteLoaderData } from 'react-router';
import type { OperatorInfo } from '../../../common/contracts/operator';
import { staffHome, staffMay } from '../../../common/staff-access';
import { ERROR_CATALOGUE, ErrorCode } from '../../../common/error-codes';
import { isRefusal } from '../../lib/loaded';
import { ADMIN_HOME } from './admin-api';

/** `extra`: a way on from the page (the workbench's 返回订单队列). */
export function AdminLoadError({ extra }: { extra?: ReactNode }) {
  const error = useRouteError();
  // The layout's operator: a 产品编辑's way back is 产品管理 (it has no 工作台).
  const role = (useRouteLoaderData('routes/admin/layout') as { operator?: OperatorInfo } | undefined)?.operator?.role;
  const worksOrders = !role || staffMay(role, 'operator');
  if (isRouteErrorResponse(error) && error.status === 403) {
    // The read's refusal: 仅主管… for an operator; 产品编辑只能使用产品管理 for a catalogue editor (common/staff-access.ts).
    const supervisorOnly = !isRefusal(error.data) || error.data.msg === ERROR_CATALOGUE[ErrorCode.OPERATOR_FORBIDDEN].msg;
    return (
      <Result
        status="403"
        title="没有权限访问此页面"
        subTitle={supervisorOnly ? '此页面仅限主管查看。如需查看，请联系主管为您开通权限。' : `${error.data.msg}。如需查看，请联系主管为您开通权限。`}
        extra={
          <Link to={worksOrders ? ADMIN_HOME : staffHome(role)}>
            <Button type="primary">{worksOrders ? '返回工作台' : '返回产品管理'}</Button>
          </Link>
        }
        data-testid="admin-forbidden"
      />
    );
  }
  const refusal = isRouteErrorResponse(error) && isRefusal(error.data) ? error.data.msg : null;
  return <Result status={refusal ? 'warning' : 'error'} title={refusal ?? '加载失败，请刷新重试'} extra={extra} />;
}
