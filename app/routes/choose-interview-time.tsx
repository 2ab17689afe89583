import { PlannedScreen } from '../components/planned-screen';
import { requireUser } from '../lib/require-user';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/choose-interview-time';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '选择面签时间 - 易签通' }];

export async function loader({ params, context }: Route.LoaderArgs) {
  requireNumericParam(params.userOrderId);
  await requireUser(context);
  return null;
}

export default function Screen() {
  return <PlannedScreen screen="选择面签时间" issue="下单：从立即办理到支付完成" />;
}
