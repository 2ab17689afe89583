import { PlannedScreen } from '../components/planned-screen';
import { requireUser } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/order-reupload';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '重新上传资料 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  requireNumericParam(params.userOrderId);
  await requireUser(context);
  return null;
}

export default function Screen() {
  return <PlannedScreen screen="重新上传资料" issue="订单跟踪" />;
}
