// /user/team (issue 29): 成员管理, the enterprise administrator's colleagues.
// The loader reads them in process as the session's customer; another role
// is told plainly that only an administrator manages colleagues.
import { Result } from 'antd';
import { Link } from 'react-router';
import { TEAM_ROLE_LABELS, isTeamRole } from '../../common/team';
import { LoadErrorBoundary } from '../components/load-error-boundary';
import { TeamPage } from '../features/team/team-page';
import { loaded } from '../lib/loaded';
import { requireCustomer, requireUser } from '../lib/require-user';
import type { Route } from './+types/team-members';

export const meta: Route.MetaFunction = () => [{ title: '成员管理 - 易签通' }];

export async function loader({ context }: Route.LoaderArgs) {
  const user = await requireUser(context);
  if (user.role !== 'admin') return { admin: false as const, role: user.role };
  const reads = await requireCustomer(context);
  return { admin: true as const, enterpriseName: user.enterprise.name, members: loaded(await reads.teamMembers()).members };
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  if (!loaderData.admin) {
    const role = isTeamRole(loaderData.role) ? TEAM_ROLE_LABELS[loaderData.role] : loaderData.role;
    return (
      <Result
        status="403"
        title="只有管理员可以管理成员"
        subTitle={`您的角色是${role}。如需邀请同事或修改角色，请联系企业管理员。`}
        extra={<Link to="/user/personal-center">返回个人中心</Link>}
      />
    );
  }
  return <TeamPage enterpriseName={loaderData.enterpriseName} members={loaderData.members} />;
}

export function ErrorBoundary() {
  return <LoadErrorBoundary subject="成员" />;
}
