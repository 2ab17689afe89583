import { PlannedScreen } from '../components/planned-screen';
import { requireUser } from '../lib/require-user';
import type { Route } from './+types/create-order';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '创建订单 - 易签通' }];

export async function loader({ context }: Route.LoaderArgs) {
  await requireUser(context);
  return null;
}

export default function Screen() {
  return <PlannedScreen screen="创建订单" issue="下单：从立即办理到支付完成" />;
}
