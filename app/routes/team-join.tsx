// /team/join#<token> (issue 29): an invited colleague sets their password.
// A guest page: the link's token is its only credential (app/features/team/join-page.tsx).
import { AntdScope } from '../components/antd-scope';
import { JoinPage } from '../features/team/join-page';
import type { Route } from './+types/team-join';

export const meta: Route.MetaFunction = () => [{ title: '设置密码 - 易签通' }, { name: 'robots', content: 'noindex' }];

export default function Screen() {
  return (
    <AntdScope>
      <JoinPage />
    </AntdScope>
  );
}
