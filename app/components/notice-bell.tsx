// The header's bell for a logged-in customer: the unread notices' number
// (root loader, read again on every page move) and a link to /notice. antd's
// Badge is loaded lazily (notice-badge.tsx), and only when something is unread;
// until it arrives the same number shows in a plain badge of the same size.
import { BellOutlined } from '@ant-design/icons';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';

const NoticeBadge = lazy(() => import('./notice-badge'));

/** What the badge shows: nothing at 0, 99+ beyond 99. */
export function badgeText(count: number): string | null {
  return count <= 0 ? null : count > 99 ? '99+' : String(count);
}

export function NoticeBell({ count }: { count: number }) {
  const text = badgeText(count);
  const icon = <BellOutlined className="site-header-bell-icon" />;
  return (
    <Link
      to="/notice"
      className={text ? 'site-header-bell site-header-bell--count' : 'site-header-bell'}
      aria-label={text ? `消息通知，${count} 条未读` : '消息通知'}
      data-testid="header-notice-bell"
    >
      {text ? (
        <Suspense
          fallback={
            <span className="site-header-bell-plain">
              {icon}
              <sup className="site-header-bell-count">{text}</sup>
            </span>
          }
        >
          <NoticeBadge count={count}>{icon}</NoticeBadge>
        </Suspense>
      ) : (
        // Nothing unread: no badge, and antd's Badge is not even loaded.
        <span className="site-header-bell-plain">{icon}</span>
      )}
    </Link>
  );
}
