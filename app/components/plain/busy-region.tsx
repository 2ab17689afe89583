import type { ReactNode } from 'react';
import { LOADING_DEFAULT_TEXT } from '../../../common/constants';
import './plain.css';

/**
 * A region that keeps its content and, while `busy`, lays a dimmed spinner
 * with a text over it (the guest pages' light LoadingOverlay: no antd Spin).
 */
export function BusyRegion({
  busy,
  text = LOADING_DEFAULT_TEXT,
  className,
  children,
}: {
  busy: boolean;
  text?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className ? `plain-busy ${className}` : 'plain-busy'} aria-busy={busy}>
      {children}
      {busy ? (
        <div className="plain-busy-layer" role="status">
          <span className="plain-spinner" aria-hidden="true" />
          <span>{text}</span>
        </div>
      ) : null}
    </div>
  );
}
