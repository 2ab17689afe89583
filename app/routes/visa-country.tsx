import { PlannedScreen } from '../components/planned-screen';
import { requireNumericParam } from '../lib/route-params';
import type { Route } from './+types/visa-country';

export const meta: Route.MetaFunction = () => [{ title: '国家签证列表 - 易签通' }];

export async function loader({ params }: Route.LoaderArgs) {
  requireNumericParam(params.id);
  return null;
}

export default function Screen() {
  return <PlannedScreen screen="国家签证列表" issue="目录：按大洲和国家浏览、签证产品详情" />;
}
