import { Modal, type ModalProps } from 'antd';
import { useEffect, useEffectEvent, useRef, type CSSProperties, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { AntdScope } from './antd-scope';

export interface AppDialogProps {
  open: boolean;
  onClose: () => void;
  title?: ReactNode;
  subtitle?: ReactNode;
  /** Right-hand slot of the header, next to the title. */
  headerRight?: ReactNode;
  hideHeader?: boolean;
  bodyStyle?: CSSProperties;
  /** When true (default) the body scrolls inside a max height instead of growing the dialog. */
  bodyScroll?: boolean;
  closable?: boolean;
  centered?: boolean;
  maskClosable?: boolean;
  width?: ModalProps['width'];
  footer?: ReactNode;
  destroyOnHidden?: boolean;
  className?: string;
  children?: ReactNode;
}

const SCROLL_BODY_STYLE: CSSProperties = { maxHeight: '70vh', overflowY: 'auto' };
// antd positions the close button absolutely over the header's right edge.
const CLOSE_BUTTON_GUTTER_PX = 32;

/** The shared dialog shell of spec §2.6 / §4: closes on close button, Escape and route path change. */
export function AppDialog({
  open,
  onClose,
  title,
  subtitle,
  headerRight,
  hideHeader = false,
  bodyStyle,
  bodyScroll = true,
  closable = true,
  centered = true,
  maskClosable = false,
  width,
  footer = null,
  destroyOnHidden,
  className,
  children,
}: AppDialogProps) {
  const { pathname } = useLocation();
  const openedOn = useRef<string | null>(null);
  const closeOnRouteChange = useEffectEvent(() => onClose());

  useEffect(() => {
    if (!open) {
      openedOn.current = null;
    } else if (openedOn.current === null) {
      openedOn.current = pathname;
    } else if (openedOn.current !== pathname) {
      closeOnRouteChange();
    }
  }, [open, pathname]);

  const hasHeader = !hideHeader && (title != null || subtitle != null || headerRight != null);
  const header = hasHeader ? (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 12,
        paddingInlineEnd: closable ? CLOSE_BUTTON_GUTTER_PX : 0,
      }}
    >
      <div style={{ flex: 1, minWidth: 0 }}>
        {title}
        {subtitle != null && <div style={{ fontSize: 12, fontWeight: 'normal', color: 'var(--text-secondary)' }}>{subtitle}</div>}
      </div>
      {headerRight}
    </div>
  ) : undefined;

  // Its own antd scope: guest pages open it (login, e-mail, QR) without one around them.
  return (
    <AntdScope>
      <Modal
        open={open}
        onCancel={onClose}
        title={header}
        closable={closable}
        centered={centered}
        mask={{ closable: maskClosable }}
        keyboard
        width={width}
        footer={footer}
        destroyOnHidden={destroyOnHidden}
        className={className}
        styles={{ body: bodyScroll ? { ...SCROLL_BODY_STYLE, ...bodyStyle } : bodyStyle }}
      >
        {children}
      </Modal>
    </AntdScope>
  );
}
