// The client session of spec §4: the token lives in memory and in
// localStorage 'login_data', which the signed calls read; the cookie 'token'
// (path /) that lets server-rendered pages know the user is set and cleared by
// the login and logout answers themselves, HttpOnly, so no script can read it
// (decision 0032). Browser-only: the server never imports the store state.
import { useSyncExternalStore } from 'react';
import type { LoginInfo, UserInfo } from '../../common/contracts/account';
import { STORAGE_KEYS, isLoginOnlyPath } from '../../common/constants';
import { sha256Hex } from '../../common/signing';
import { ApiError, api, connectSession } from './api-client';
import { toast } from './toast';

interface SessionState {
  /** false until the browser has read the stored login (and on the server). */
  started: boolean;
  token: string | null;
  user: UserInfo | null;
  loginDialogOpen: boolean;
}

const SERVER_STATE: SessionState = { started: false, token: null, user: null, loginDialogOpen: false };
let state: SessionState = SERVER_STATE;
const listeners = new Set<() => void>();
/** Settles the promise of a forced login when the dialog closes. */
let pendingLogin: ((loggedIn: boolean) => void) | null = null;

const LOGIN_TOAST_FLAG = 'login_success_toast';

// Connected when the module loads, before any effect can see a 401. React
// runs a page's effects before the root's startSession(), so until the
// session has started the token is read from the stored login: a page opened
// directly (reload, pasted URL) must not send its first calls without it.
connectSession({
  token: () => (state.started || typeof localStorage === 'undefined' ? state.token : (readLogin()?.token ?? null)),
  logout: () => void logout(),
});

function setState(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export function useSession(): SessionState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => SERVER_STATE,
  );
}

function readStoredLogin(): LoginInfo | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEYS.loginData) ?? 'null') as LoginInfo | null;
    return stored && typeof stored.token === 'string' ? stored : null;
  } catch {
    return null;
  }
}

/** The login as this browser keeps it: localStorage 'login_data'. */
function readLogin(): LoginInfo | null {
  return readStoredLogin();
}

function storeLogin(info: LoginInfo): void {
  localStorage.setItem(STORAGE_KEYS.loginData, JSON.stringify(info));
}

/** Forgets the login in memory and in localStorage (the cookie is the logout answer's to clear). */
function clearStoredLogin(): void {
  localStorage.removeItem(STORAGE_KEYS.loginData);
  setState({ token: null, user: null });
}

export function fetchUserInfo(options: { silent: boolean }): Promise<UserInfo> {
  return api('/www/user/user_info_query', {}, options.silent ? { toast: false, logoutOnUnauthorized: false } : {});
}

/**
 * App start: silent login from the cached login data, never forcing the
 * dialog. `serverUser` is what the server rendered with, so the header does
 * not flicker while the user info is fetched again.
 */
export async function startSession(serverUser: UserInfo | null): Promise<void> {
  if (state.started) return;
  const stored = readLogin();
  setState({ started: true, token: stored?.token ?? null, user: stored ? serverUser : null });

  if (sessionStorage.getItem(LOGIN_TOAST_FLAG)) {
    sessionStorage.removeItem(LOGIN_TOAST_FLAG);
    toast.success('登录成功');
  }
  if (!stored) {
    // The page was rendered for the cookie's session, but this browser lost its stored login:
    // no script can read the HttpOnly cookie, so the session is ended rather than left half-used.
    if (serverUser) await logout();
    return;
  }
  try {
    const user = await fetchUserInfo({ silent: true });
    setState({ user });
  } catch (error) {
    // Only the server's 401 says the login is bad. A request cut off by leaving
    // the page, a dropped connection, a server error or an answer whose body
    // was cut short must not log the user out: the page goes on with the login
    // it was rendered with, and the next call asks again. A bad login's cookie
    // is cleared by the logout answer.
    if (error instanceof ApiError && error.httpStatus === 401) {
      await endServerSession();
      clearStoredLogin();
    }
  }
}

/** Logs in with the typed password (sent as its SHA-256 digest), then reloads. */
export async function login(account: string, password: string, signal: AbortSignal): Promise<void> {
  const info = await api('/www/account_login', { account, password: sha256Hex(password) }, { signal });
  if (signal.aborted) return;
  storeLogin(info);
  setState({ token: info.token });
  try {
    setState({ user: await fetchUserInfo({ silent: false }) });
  } catch (error) {
    clearStoredLogin();
    throw error;
  }
  sessionStorage.setItem(LOGIN_TOAST_FLAG, '1');
  settlePendingLogin(true);
  window.location.reload();
}

/** Ends the session on the server; its answer clears the HttpOnly cookie (it needs no live session). */
function endServerSession(): Promise<unknown> {
  return api('/www/account_logout', {}, { toast: false, logoutOnUnauthorized: false }).catch(() => undefined);
}

/** Revokes the token on the server and clears its cookie, forgets it here, then leaves login-only pages. */
export async function logout(): Promise<void> {
  await endServerSession();
  clearStoredLogin();
  if (isLoginOnlyPath(window.location.pathname)) window.location.assign('/');
  else window.location.reload();
}

/**
 * Resolves true when the user is (or becomes) logged in; a forced login with
 * no cached login opens the dialog and resolves false if it is closed.
 */
export function requireLogin(): Promise<boolean> {
  if (state.token && state.user) return Promise.resolve(true);
  settlePendingLogin(false);
  setState({ loginDialogOpen: true });
  return new Promise((resolve) => {
    pendingLogin = resolve;
  });
}

export function hasStoredLogin(): boolean {
  return readLogin() !== null;
}

export function openLoginDialog(): void {
  setState({ loginDialogOpen: true });
}

export function closeLoginDialog(): void {
  setState({ loginDialogOpen: false });
  settlePendingLogin(false);
}

function settlePendingLogin(loggedIn: boolean): void {
  pendingLogin?.(loggedIn);
  pendingLogin = null;
}
