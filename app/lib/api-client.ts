// The signed request client of spec §7 and §8: every product call is a POST
// with the signature headers, a 60 s timeout and the {ret, msg, body}
// envelope; errors are toasted unless the caller asks for silence, and a 401
// logs the user out.
import { API_VERSION, REQUEST_TIMEOUT_MS, SESSION_EXPIRED_TOAST_MS } from '../../common/constants';
import type { Envelope } from '../../common/envelope';
import { newRequestId, signRequest } from '../../common/signing';
import type { PublicConfig } from '../../common/web-context';
import { toast } from './toast';

export const REQUEST_ERROR_TEXT = '请求错误';
export const SESSION_EXPIRED_TEXT = '登录已过期，请重新登录';

export class ApiError extends Error {
  constructor(
    readonly ret: number,
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  /** false: no toast on failure (spec §8: "no toast if the caller asks"). */
  toast?: boolean;
  /** false: a 401 only fails the call; the caller deals with the session (silent login). */
  logoutOnUnauthorized?: boolean;
  signal?: AbortSignal;
}

interface SessionBridge {
  token(): string | null;
  logout(): void;
}

let clientConfig: PublicConfig | null = null;
let session: SessionBridge = { token: () => null, logout: () => {} };
let loggingOut = false;

export function configureApiClient(config: PublicConfig): void {
  clientConfig = config;
}

export function connectSession(bridge: SessionBridge): void {
  session = bridge;
}

export function signedHeaders(config: PublicConfig, token: string | null): Record<string, string> {
  const date = new Date().toUTCString();
  const requestId = newRequestId();
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Version': API_VERSION,
    'X-Date': date,
    'X-Request-Id': requestId,
    platform: config.platform,
    Authorization: `Basic ${signRequest({ accessKey: config.accessKey, date, version: API_VERSION, requestId }, config.secret)}`,
  };
  if (token) headers['X-Token'] = token;
  return headers;
}

/** Spec §8's 401 handling, also used when a page loader finds the session gone. */
export function expireSession(): void {
  handleUnauthorized(true);
}

function handleUnauthorized(showToast: boolean): void {
  if (loggingOut) return;
  loggingOut = true;
  if (!showToast) {
    session.logout();
    return;
  }
  toast.error(SESSION_EXPIRED_TEXT, SESSION_EXPIRED_TOAST_MS / 1000);
  setTimeout(() => session.logout(), SESSION_EXPIRED_TOAST_MS);
}

export async function apiRequest<T>(path: `/www/${string}`, payload: object = {}, options: RequestOptions = {}): Promise<T> {
  if (!clientConfig) throw new Error('configureApiClient() has not run');
  const showToast = options.toast !== false;
  const fail = (ret: number, message: string, status: number): never => {
    if (showToast) toast.error(message || REQUEST_ERROR_TEXT);
    throw new ApiError(ret, message || REQUEST_ERROR_TEXT, status);
  };

  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${clientConfig.apiBaseUrl}${path}`, {
      method: 'POST',
      headers: signedHeaders(clientConfig, session.token()),
      body: JSON.stringify(payload),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch (error) {
    // A caller that cancelled (e.g. closed the login dialog) wants no toast.
    if (options.signal?.aborted) throw error;
    return fail(-1, REQUEST_ERROR_TEXT, 0);
  }

  if (response.status === 401) {
    if (options.logoutOnUnauthorized !== false) handleUnauthorized(showToast);
    throw new ApiError(401, SESSION_EXPIRED_TEXT, 401);
  }
  let envelope: Envelope<T>;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    return fail(-1, REQUEST_ERROR_TEXT, response.status);
  }
  if (envelope.ret !== 0) return fail(envelope.ret, envelope.msg, response.status);
  return envelope.body as T;
}

export interface UploadOptions {
  /** 0–100 as the bytes leave the browser; 100 once the server has answered ok. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** false: no toast on failure. */
  toast?: boolean;
}

/**
 * A multipart upload to a signed call, with real progress: XMLHttpRequest,
 * since fetch reports no upload progress. Same headers, envelope, toasts and
 * 401 handling as apiRequest, except Content-Type, which the browser sets
 * with the multipart boundary. The 60 s timeout counts from the last
 * progress, not from the start, so a large file on a slow line is not cut off.
 */
export function apiUpload<T>(path: `/www/${string}`, form: FormData, options: UploadOptions = {}): Promise<T> {
  const config = clientConfig;
  if (!config) throw new Error('configureApiClient() has not run');
  const showToast = options.toast !== false;
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let idle: ReturnType<typeof setTimeout> | undefined;
    const settle = () => clearTimeout(idle);
    const fail = (ret: number, message: string, status: number) => {
      settle();
      if (showToast) toast.error(message || REQUEST_ERROR_TEXT);
      reject(new ApiError(ret, message || REQUEST_ERROR_TEXT, status));
    };
    const armIdleTimer = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        xhr.onabort = null;
        xhr.abort();
        fail(-1, REQUEST_ERROR_TEXT, 0);
      }, REQUEST_TIMEOUT_MS);
    };

    xhr.open('POST', `${config.apiBaseUrl}${path}`);
    for (const [name, value] of Object.entries(signedHeaders(config, session.token()))) {
      if (name !== 'Content-Type') xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => {
      armIdleTimer();
      if (event.lengthComputable && event.total > 0) options.onProgress?.(Math.min(99, Math.floor((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      settle();
      if (xhr.status === 401) {
        handleUnauthorized(showToast);
        reject(new ApiError(401, SESSION_EXPIRED_TEXT, 401));
        return;
      }
      let envelope: Envelope<T>;
      try {
        envelope = JSON.parse(xhr.responseText) as Envelope<T>;
      } catch {
        fail(-1, REQUEST_ERROR_TEXT, xhr.status);
        return;
      }
      if (envelope.ret !== 0) {
        fail(envelope.ret, envelope.msg, xhr.status);
        return;
      }
      options.onProgress?.(100);
      resolve(envelope.body as T);
    };
    xhr.onerror = () => fail(-1, REQUEST_ERROR_TEXT, 0);
    xhr.onabort = () => {
      settle();
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    armIdleTimer();
    xhr.send(form);
  });
}
