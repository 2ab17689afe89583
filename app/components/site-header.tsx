import { DownOutlined, MenuOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { Link, NavLink, useRouteLoaderData } from 'react-router';
import type { UserInfo } from '../../common/web-context';
import { logout, openLoginDialog, useSession } from '../features/account/session';
import './site-header.css';

const NAVIGATION = [
  { to: '/', label: '首页', end: true },
  { to: '/visa/continent', label: '签证办理' },
  { to: '/open/ToChina', label: '入境中国' },
  { to: '/enterprise', label: '企业服务' },
  { to: '/cooperation', label: '商务合作' },
  { to: '/about', label: '关于我们' },
  { to: '/download', label: '下载App' },
];

/** The user to show: the browser session once started, the server's view before. */
function useShownUser(): UserInfo | null {
  const session = useSession();
  const rootData = useRouteLoaderData('root') as { user: UserInfo | null } | undefined;
  return session.started ? session.user : (rootData?.user ?? null);
}

export function SiteHeader({ transparent }: { transparent: boolean }) {
  const user = useShownUser();
  return (
    <header className={`site-header${transparent ? ' site-header--transparent' : ''}`}>
      <div className="site-header-inner">
        <Link to="/" className="site-header-logo" aria-label="易签通 首页">
          <span className="site-header-logo-mark">签</span>
          <span className="site-header-logo-text">易签通</span>
        </Link>
        <Dropdown
          trigger={['click']}
          menu={{
            items: NAVIGATION.map((item) => ({
              key: item.to,
              label: (
                <Link className="site-header-menu-link" to={item.to}>
                  {item.label}
                </Link>
              ),
            })),
          }}
        >
          <button type="button" className="site-header-menu-button" aria-label="打开导航菜单">
            <MenuOutlined />
          </button>
        </Dropdown>
        <nav className="site-header-nav" aria-label="主导航">
          {NAVIGATION.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end} className="site-header-link">
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="site-header-account">
          {user ? (
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
                      <button type="button" className="site-header-menu-link site-header-menu-action" onClick={() => void logout()}>
                        退出
                      </button>
                    ),
                  },
                ],
              }}
            >
              <button type="button" className="site-header-user" data-testid="header-user">
                <UserOutlined />
                <span className="site-header-user-name">{user.name || user.account}</span>
                <span className="site-header-user-enterprise">{user.enterprise.name}</span>
                <DownOutlined />
              </button>
            </Dropdown>
          ) : (
            <Button type="primary" onClick={openLoginDialog} data-testid="header-login">
              登录
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
