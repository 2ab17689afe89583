import { DownOutlined, UserOutlined } from '@ant-design/icons';
import type { ComponentProps } from 'react';
import type { UserInfo } from '../../common/contracts/account';

/** The header's user button: the hover menu hangs from it (user-menu.tsx), and it stands alone while the menu's code loads. */
export function UserButton({ user, className, ...rest }: { user: UserInfo } & ComponentProps<'button'>) {
  // The Dropdown passes its own class (ant-dropdown-trigger): added to ours, not instead of it.
  return (
    <button type="button" className={className ? `site-header-user ${className}` : 'site-header-user'} data-testid="header-user" aria-haspopup="menu" {...rest}>
      <UserOutlined />
      <span className="site-header-user-name">{user.name || user.account}</span>
      <span className="site-header-user-enterprise">{user.enterprise.name}</span>
      <DownOutlined />
    </button>
  );
}
