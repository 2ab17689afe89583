// The logged-in colleague's role (issue 29), from the root loader's user: the
// pages hide what the role may not do; the server refuses it anyway (2501).
import { useRouteLoaderData } from 'react-router';
import type { UserInfo } from '../../common/contracts/account';
import type { OrderAction } from '../../common/order';

export function useTeamRole(): string | null {
  const data = useRouteLoaderData('root') as { user: UserInfo | null } | undefined;
  return data?.user?.role ?? null;
}

/** The order actions a 财务 may take: paying and reading (common/team.ts: pay and read). */
const FINANCE_ACTIONS: readonly OrderAction[] = ['pay', 'pay_price_difference', 'view_interview_notice'];

export function actionsForRole(role: string | null, actions: readonly OrderAction[]): OrderAction[] {
  return role === 'finance' ? actions.filter((action) => FINANCE_ACTIONS.includes(action)) : [...actions];
}
