// The back office's client: the `/admin-api` registry, signed like the
// customer site's calls. It holds no token: the operator's session is the
// `admin_token` cookie that the login answer sets, HttpOnly and
// SameSite=Strict, sent by the browser with every same-site call, page and
// /admin-files image (decision 0032). A 401 goes to /admin/login.
import type { OperatorLoginResult } from '../../../common/contracts/operator';
import type { AdminRegistry } from '../../../common/contracts/index';
import { sha256Hex } from '../../../common/signing';
import { createApiClient, publicClientConfig } from '../../lib/api-client';

export const ADMIN_HOME = '/admin';
export const ADMIN_LOGIN = '/admin/login';

const client = createApiClient<AdminRegistry>({ config: publicClientConfig, tokenHeader: 'X-Token' });

export const adminApi = client.request;
/** Multipart uploads to /admin-api (the page check's pages). */
export const adminUpload = client.upload;

/**
 * Where to go after login: an /admin path only (never another site), in visible ASCII only —
 * it becomes a Location header, which cannot carry anything else (a crafted `next` with a NUL,
 * a line break or an unencoded character made the login page's redirect throw: HTTP 500).
 */
export function safeNext(next: string | null | undefined): string {
  return next && /^\/admin(?:[/?#][\x21-\x7E]*)?$/.test(next) && !next.startsWith('//') ? next : ADMIN_HOME;
}

function toLogin(): void {
  const here = `${location.pathname}${location.search}`;
  location.assign(here.startsWith(ADMIN_LOGIN) ? ADMIN_LOGIN : `${ADMIN_LOGIN}?next=${encodeURIComponent(here)}`);
}

client.connectSession({
  // Never a script-readable token: the cookie carries the session.
  token: () => null,
  logout: toLogin,
});

/** Logs in (password sent as its SHA-256 digest); on success the answer has set the session cookie. */
export async function operatorLogin(account: string, password: string, code: string | undefined): Promise<OperatorLoginResult> {
  return adminApi(
    '/admin-api/operator_login',
    { account, password: sha256Hex(password), ...(code ? { code } : {}) },
    { toast: false, logoutOnUnauthorized: false },
  );
}

/** Ends the session on the server, whose answer clears the cookie, then shows the login page. */
export async function operatorLogout(): Promise<void> {
  await adminApi('/admin-api/operator_logout', {}, { toast: false, logoutOnUnauthorized: false }).catch(() => undefined);
  location.assign(ADMIN_LOGIN);
}
