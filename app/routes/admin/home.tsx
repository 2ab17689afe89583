import { AdminHomePage } from '../../features/admin/home-page';
import { requireOperator } from '../../features/admin/require-operator';
import type { Route } from './+types/home';

export async function loader({ context, request }: Route.LoaderArgs) {
  return { operator: await requireOperator(context, request) };
}

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  return <AdminHomePage operator={loaderData.operator} />;
}
