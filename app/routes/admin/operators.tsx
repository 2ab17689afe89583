// 操作员管理: supervisors only (an operator gets the call's refusal, 2003).
import { OperatorsPage } from '../../features/admin/operators-page';
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/operators';

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  return { me: reads.me, list: loaded(await reads.operatorList()).list };
}

export default function AdminOperators({ loaderData }: Route.ComponentProps) {
  return <OperatorsPage me={loaderData.me} list={loaderData.list} />;
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
