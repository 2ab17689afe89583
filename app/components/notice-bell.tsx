// The header's bell for a logged-in customer: the unread notices' number
// (root loader, read again on every page move) and a link to /notice. antd's
// Badge is loaded lazily (notice-badge.tsx); until it arrives the same number
// shows in a plain badge of the same size, so nothing moves.
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
    <Link to="/notice" className="site-header-bell" aria-label={text ? `消息通知，${count} 条未读` : '消息通知'} data-testid="header-notice-bell">
      <Suspense
        fallback={
          <span className="site-header-bell-plain">
            {icon}
            {text ? <sup className="site-header-bell-count">{text}</sup> : null}
          </span>
        }
      >
        <NoticeBadge count={count}>{icon}</NoticeBadge>
      </Suspense>
    </Link>
  );
}
