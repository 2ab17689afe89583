// /ordering/choose-interview-time/:userOrderId (spec 2.4, footer hidden). The
// loader reads the consulate's free times in process as the session's
// customer; a product without an interview goes on to the confirm page
// (app/features/ordering/interview).
import { redirect } from 'react-router';
import { ErrorCode } from '../../common/error-codes';
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { InterviewPage } from '../features/ordering/interview/interview-page';
import { loaded } from '../lib/loaded';
import { requireCustomer } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/choose-interview-time';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '选择面签时间 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  const reads = await requireCustomer(context);
  const answer = await reads.interviewSlots(userOrderId);
  if (!answer.ok && answer.ret === ErrorCode.INTERVIEW_NOT_NEEDED) throw redirect(`/ordering/order-confirm/${userOrderId}`);
  return { userOrderId, list: loaded(answer) };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  // Keyed: another order starts afresh (its applicants and choices).
  return <InterviewPage key={loaderData.userOrderId} userOrderId={loaderData.userOrderId} list={loaderData.list} />;
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="可预约时间" />;
}
