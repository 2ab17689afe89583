import type { ButtonHTMLAttributes, ReactNode } from 'react';
import './plain.css';

export interface PlainButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'default' | 'primary' | 'link';
  size?: 'small' | 'middle' | 'large';
  block?: boolean;
  /** Shows a spinner, marks the button busy and ignores clicks. */
  loading?: boolean;
  icon?: ReactNode;
}

/** A button with the look of the theme's antd Button, without antd's JavaScript (guest pages). */
export function PlainButton({
  variant = 'default',
  size = 'middle',
  block = false,
  loading = false,
  icon,
  className,
  children,
  onClick,
  ...rest
}: PlainButtonProps) {
  const classes = ['plain-btn', `plain-btn--${variant}`, size === 'middle' ? '' : `plain-btn--${size}`, block ? 'plain-btn--block' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <button type="button" {...rest} className={classes} aria-busy={loading || undefined} onClick={loading ? undefined : onClick}>
      {loading ? <span className="plain-spinner" aria-hidden="true" /> : icon}
      {children}
    </button>
  );
}

export function plainButtonClass({ variant = 'default', size = 'middle' }: Pick<PlainButtonProps, 'variant' | 'size'> = {}): string {
  return ['plain-btn', `plain-btn--${variant}`, size === 'middle' ? '' : `plain-btn--${size}`].filter(Boolean).join(' ');
}
