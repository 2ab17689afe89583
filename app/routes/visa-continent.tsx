import { PlannedScreen } from '../components/planned-screen';
import type { Route } from './+types/visa-continent';

export const meta: Route.MetaFunction = () => [{ title: '按大洲浏览签证 - 易签通' }];

export default function Screen() {
  return <PlannedScreen screen="按大洲浏览签证" issue="目录：按大洲和国家浏览、签证产品详情" />;
}
