import { MenuOutlined } from '@ant-design/icons';
import { lazy, Suspense } from 'react';
import { Link, NavLink, useLocation, useRouteLoaderData } from 'react-router';
import type { UserInfo } from '../../common/contracts/account';
import { logout, openLoginDialog, useSession } from '../lib/session';
import { NoticeBell } from './notice-bell';
import { UserButton } from './user-button';
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
function useShownUser(): { user: UserInfo | null; unreadNotices: number } {
  const session = useSession();
  const rootData = useRouteLoaderData('root') as { user: UserInfo | null; unreadNotices?: number | null } | undefined;
  return { user: session.started ? session.user : (rootData?.user ?? null), unreadNotices: rootData?.unreadNotices ?? 0 };
}

// The user's hover menu (antd Dropdown) is loaded only for a logged-in user.
const UserMenu = lazy(() => import('./user-menu'));

export function SiteHeader({ transparent }: { transparent: boolean }) {
  const { user, unreadNotices } = useShownUser();
  const { pathname } = useLocation();
  return (
    <header className={`site-header${transparent ? ' site-header--transparent' : ''}`}>
      <div className="site-header-inner">
        <Link to="/" className="site-header-logo" aria-label="易签通 首页">
          <span className="site-header-logo-mark" aria-hidden="true">
            签
          </span>
          <span className="site-header-logo-text">易签通</span>
        </Link>
        {/* The narrow screen's menu: a native disclosure, so it opens without
            JavaScript; keyed by the path so that it closes after navigating. */}
        <details className="site-header-menu" key={pathname}>
          <summary className="site-header-menu-button" aria-label="打开导航菜单">
            <MenuOutlined />
          </summary>
          <nav className="site-header-menu-panel" aria-label="导航菜单">
            {NAVIGATION.map((item) => (
              <NavLink key={item.to} to={item.to} end={item.end} className="site-header-menu-item">
                {item.label}
              </NavLink>
            ))}
          </nav>
        </details>
        <nav className="site-header-nav" aria-label="主导航">
          {NAVIGATION.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end} className="site-header-link">
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="site-header-account">
          {user ? (
            <>
              <NoticeBell count={unreadNotices} />
              <Suspense fallback={<UserButton user={user} />}>
                <UserMenu user={user} onLogout={() => void logout()} />
              </Suspense>
            </>
          ) : (
            <button type="button" className="site-header-login" onClick={openLoginDialog} data-testid="header-login">
              登录
            </button>
          )}
        </div>
      </div>
    </header>
  );
}
