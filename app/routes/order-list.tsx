import { PlannedScreen } from '../components/planned-screen';
import { requireUser } from '../lib/require-user';
import type { Route } from './+types/order-list';

export const meta: Route.MetaFunction = () => [{ title: '我的订单 - 易签通' }];

export async function loader({ context }: Route.LoaderArgs) {
  await requireUser(context);
  return null;
}

export default function Screen() {
  return <PlannedScreen screen="我的订单" issue="下单：从立即办理到支付完成" />;
}
