import { DownOutlined, UserOutlined } from '@ant-design/icons';
import type { ButtonHTMLAttributes } from 'react';
import type { UserInfo } from '../../common/contracts/account';

/** The header's user button: the hover menu hangs from it (user-menu.tsx), and it stands alone while the menu's code loads. */
export function UserButton({ user, className, ...rest }: { user: UserInfo } & ButtonHTMLAttributes<HTMLButtonElement>) {
  // antd's Dropdown hands its trigger a class of its own: kept beside ours, never instead of it.
  return (
    <button type="button" className={className ? `site-header-user ${className}` : 'site-header-user'} data-testid="header-user" {...rest}>
      <UserOutlined />
      <span className="site-header-user-name">{user.name || user.account}</span>
      <span className="site-header-user-enterprise">{user.enterprise.name}</span>
      <DownOutlined />
    </button>
  );
}
