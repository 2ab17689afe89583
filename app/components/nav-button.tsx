import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router';
import { plainButtonClass } from './plain/plain-button';

type NavButtonProps = {
  to: string;
  children: ReactNode;
  type?: 'default' | 'primary';
  size?: 'middle' | 'large';
  /** White outline on a dark or coloured background. */
  ghost?: boolean;
} & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'type' | 'children'>;

/** A link that looks like the theme's button: a real link (works without JavaScript) that navigates client-side, no antd Button behind it. */
export function NavButton({ to, children, type = 'default', size = 'middle', ghost = false, className, ...rest }: NavButtonProps) {
  const classes = [plainButtonClass({ variant: type, size }), ghost ? 'plain-btn--ghost' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <Link {...rest} to={to} className={classes}>
      {children}
    </Link>
  );
}
