// 操作员管理: supervisors only (an operator gets the call's refusal, 2003).
import { Result } from 'antd';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { OperatorsPage } from '../../features/admin/operators-page';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { isRefusal, loaded } from '../../lib/loaded';
import type { Route } from './+types/operators';

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  return { me: reads.me, list: loaded(await reads.operatorList()).list };
}

export default function AdminOperators({ loaderData }: Route.ComponentProps) {
  return <OperatorsPage me={loaderData.me} list={loaderData.list} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const refusal = isRouteErrorResponse(error) && isRefusal(error.data) ? error.data.msg : null;
  return <Result status={refusal ? 'warning' : 'error'} title={refusal ?? '加载失败，请刷新重试'} />;
}
