// The logged-in user's hover menu in the header. Loaded only when someone is
// logged in (site-header.tsx imports it lazily): a guest's page does not carry
// antd's Dropdown and menu code.
//
// The menu opens on hover, on click and from the keyboard. A pointer that
// reached the button before this code ran (before hydration, or while the
// lazy chunk loaded) sent its mouseenter to nobody, and the Dropdown would
// wait for the next one: so the menu also opens when the pointer is already
// there as the menu mounts, and on the first pointer move over the button.
// "Already there" is asked of the button and of its parent: when React renders
// the button anew (the server's copy replaced, not hydrated), the browser
// marks the new element :hover only at the next pointer event, while the
// parent, which stays, keeps its :hover.
import { Dropdown } from 'antd';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { UserInfo } from '../../common/contracts/account';
import { AntdScope } from './antd-scope';
import { UserButton } from './user-button';

export default function UserMenu({ user, onLogout }: { user: UserInfo; onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  /** The pointer entered the button since this code runs (the Dropdown saw it): no need to open on a move. */
  const entered = useRef(false);

  useEffect(() => {
    const hovered = () => {
      const element = button.current;
      if (!entered.current && element && (element.matches(':hover') || element.parentElement?.matches(':hover'))) {
        entered.current = true;
        setOpen(true);
      }
    };
    // Once the browser has laid the button out, and again a moment later (its hover state may lag behind).
    const frame = requestAnimationFrame(hovered);
    const later = setTimeout(hovered, 300);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(later);
    };
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  }

  return (
    <AntdScope>
      <Dropdown
        trigger={['hover', 'click']}
        open={open}
        onOpenChange={setOpen}
        menu={{
          onClick: () => setOpen(false),
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
            {
              key: 'invoices',
              label: (
                <Link className="site-header-menu-link" to="/user/invoice">
                  我的发票
                </Link>
              ),
            },
            // 成员管理 (issue 29): the enterprise administrator's colleagues.
            ...(user.role === 'admin'
              ? [
                  {
                    key: 'team',
                    label: (
                      <Link className="site-header-menu-link" to="/user/team">
                        成员管理
                      </Link>
                    ),
                  },
                ]
              : []),
            { type: 'divider' as const },
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
        <UserButton
          user={user}
          ref={button}
          aria-expanded={open}
          onPointerEnter={() => {
            entered.current = true;
          }}
          onPointerMove={() => {
            if (entered.current) return;
            entered.current = true;
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
        />
      </Dropdown>
    </AntdScope>
  );
}
