// The back office's client: the `/admin-api` registry, signed like the
// customer site's calls, carrying the operator's token from the `admin_token`
// cookie (path /, so server-rendered /admin pages and /admin-files see it;
// not HttpOnly: the browser signs each call with it, as the customer's `token`
// cookie — decision 0017). A 401 forgets the cookie and goes to /admin/login.
import type { OperatorLoginResult } from '../../../common/contracts/operator';
import type { AdminRegistry } from '../../../common/contracts/index';
import { STORAGE_KEYS } from '../../../common/constants';
import { sha256Hex } from '../../../common/signing';
import { createApiClient, publicClientConfig } from '../../lib/api-client';

export const ADMIN_HOME = '/admin';
export const ADMIN_LOGIN = '/admin/login';

const client = createApiClient<AdminRegistry>({ config: publicClientConfig, tokenHeader: 'X-Token' });

export const adminApi = client.request;
/** Multipart uploads to /admin-api (the page check's pages). */
export const adminUpload = client.upload;

function readAdminToken(): string | null {
  if (typeof document === 'undefined') return null;
  const prefix = `${STORAGE_KEYS.adminTokenCookie}=`;
  const match = document.cookie.split('; ').find((part) => part.startsWith(prefix));
  return match ? decodeURIComponent(match.slice(prefix.length)) : null;
}

function writeAdminToken(token: string, expiresAt: number): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${STORAGE_KEYS.adminTokenCookie}=${encodeURIComponent(token)}; path=/; expires=${new Date(expiresAt).toUTCString()}; SameSite=Lax${secure}`;
}

function clearAdminToken(): void {
  document.cookie = `${STORAGE_KEYS.adminTokenCookie}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax`;
}

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
  token: readAdminToken,
  logout: () => {
    clearAdminToken();
    toLogin();
  },
});

/** Logs in (password sent as its SHA-256 digest); on success the cookie holds the token. */
export async function operatorLogin(account: string, password: string, code: string | undefined): Promise<OperatorLoginResult> {
  const result = await adminApi(
    '/admin-api/operator_login',
    { account, password: sha256Hex(password), ...(code ? { code } : {}) },
    { toast: false, logoutOnUnauthorized: false },
  );
  if (result.next === 'done') writeAdminToken(result.token, result.expires_at);
  return result;
}

/** Revokes the token on the server, forgets it here, then shows the login page. */
export async function operatorLogout(): Promise<void> {
  await adminApi('/admin-api/operator_logout', {}, { toast: false, logoutOnUnauthorized: false }).catch(() => undefined);
  clearAdminToken();
  location.assign(ADMIN_LOGIN);
}
