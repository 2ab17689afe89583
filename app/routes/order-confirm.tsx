// /ordering/order-confirm/:userOrderId (spec 2.5, footer hidden). The order,
// the insurance plans and the address book are read in the browser with the
// session's token (app/features/ordering/confirm).
import { ConfirmPage } from '../features/ordering/confirm/confirm-page';
import { requireUser } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/order-confirm';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '确认订单 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const userOrderId = requireNumericParam(params.userOrderId);
  await requireUser(context);
  return { userOrderId };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  // Keyed: another order starts afresh (chosen address, insurance choice).
  return <ConfirmPage key={loaderData.userOrderId} userOrderId={loaderData.userOrderId} />;
}
