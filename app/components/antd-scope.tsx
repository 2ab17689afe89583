// antd's theme, locale and CSP nonce for the antd components under it.
//
// Not at the root: the guest catalogue pages (home, country, product) render no
// antd component until a dialog or menu opens, and antd's core under a
// ConfigProvider (its theme, CSS-in-JS and helpers, ≈ 35 KiB gzip) was a fifth
// of their main-thread work after the first paint on a phone (decision 0014,
// "antd only where it renders"). So each screen, layout or lazily loaded part
// that renders antd wraps itself in this scope: the login-only layout, the back
// office, the public pages that use antd, and the dialogs, menus and toasts that
// guest pages load on first use. Scopes may nest (a dialog on an order page).
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { useCspNonce } from '../lib/csp-nonce';
import { theme } from '../theme';

export function AntdScope({ children }: { children: ReactNode }) {
  // Styles antd adds in the browser (a dialog's, a menu's) carry the page's nonce.
  const nonce = useCspNonce();
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }} csp={{ nonce }}>
      {children}
    </ConfigProvider>
  );
}
