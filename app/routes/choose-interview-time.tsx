// /ordering/choose-interview-time/:userOrderId (spec 2.4, footer hidden). The
// consulate's free times are read in the browser with the session's token
// (app/features/ordering/interview).
import { InterviewPage } from '../features/ordering/interview/interview-page';
import { requireUser } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/choose-interview-time';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '选择面签时间 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  await requireUser(context);
  return { userOrderId };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  // Keyed: another order starts afresh (its applicants and choices).
  return <InterviewPage key={loaderData.userOrderId} userOrderId={loaderData.userOrderId} />;
}
