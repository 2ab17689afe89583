// The logged-in user's hover menu in the header. Loaded only when someone is
// logged in (site-header.tsx imports it lazily): a guest's page does not carry
// antd's Dropdown and menu code.
import { Dropdown } from 'antd';
import { Link } from 'react-router';
import type { UserInfo } from '../../common/contracts/account';
import { UserButton } from './user-button';

export default function UserMenu({ user, onLogout }: { user: UserInfo; onLogout: () => void }) {
  return (
    <Dropdown
      trigger={['hover', 'click']}
      menu={{
        // Real links, stretched over the whole row (site-header.css): they
        // still navigate when the menu is already fading out.
        items: [
          {
            key: 'center',
            label: (
              <Link className="site-header-menu-link" to="/user/personal-center">
                个人中心
              </Link>
            ),
          },
          {
            key: 'orders',
            label: (
              <Link className="site-header-menu-link" to="/order/order-list">
                我的订单
              </Link>
            ),
          },
          { type: 'divider' },
          {
            key: 'logout',
            // A real button for the same reason: the menu's own onClick is lost on a fading menu.
            label: (
              <button type="button" className="site-header-menu-link site-header-menu-action" onClick={onLogout}>
                退出
              </button>
            ),
          },
        ],
      }}
    >
      <UserButton user={user} />
    </Dropdown>
  );
}
