// /order/order-interview-notification/:userOrderId (issue 10, footer hidden):
// the interview / fingerprint notice of each applicant. The loader reads it
// in process as the session's customer (app/features/order/interview-notice-page.tsx).
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { InterviewNoticePage } from '../features/order/interview-notice-page';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/order-interview-notification';

export const meta: Route.MetaFunction = () => [{ title: '面试/录指纹通知 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  const reads = await requireCustomer(context);
  return { userOrderId, notice: loaded(await reads.interviewNotice(userOrderId)) };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  return <InterviewNoticePage key={loaderData.userOrderId} notice={loaderData.notice} />;
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="面试通知" />;
}
