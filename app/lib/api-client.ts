// The signed request client of spec §7 and §8: every product call is a POST
// with the signature headers, a 60 s timeout and the {ret, msg, body}
// envelope; errors are toasted unless the caller asks for silence, and a 401
// logs the user out.
//
// A client is typed by a registry of contracts (common/contracts): the path
// names the call, and the payload and result types follow from it —
// `api('/www/order/order_detail_get', { user_order_id })` is an OrderDetail.
// Only the registry's *type* is imported, so no zod reaches the browser. The
// customer site's client is `api` below; the back office's will be one more
// createApiClient() with its own registry and session.
import type { Contract, JsonPath, PayloadOf, Registry, ResultOf, UploadPath } from '../../common/contracts/define';
import type { WwwRegistry } from '../../common/contracts/index';
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

export interface UploadOptions {
  /** 0–100 as the bytes leave the browser; 100 once the server has answered ok. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** false: no toast on failure. */
  toast?: boolean;
}

/** Where a client's token comes from, and how a 401 ends its session. */
export interface SessionBridge {
  token(): string | null;
  logout(): void;
}

export interface ApiClientSetup {
  /** The signing pair and base URL; null until the page has configured it. */
  config: () => PublicConfig | null;
  /** The header that carries the session's token. */
  tokenHeader: string;
}

/** A payload may be left out when the call takes none. */
type CallArgs<C extends Contract, O> = Record<never, never> extends PayloadOf<C> ? [payload?: PayloadOf<C>, options?: O] : [payload: PayloadOf<C>, options?: O];

export function signedHeaders(config: PublicConfig, token: string | null, tokenHeader = 'X-Token'): Record<string, string> {
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
  if (token) headers[tokenHeader] = token;
  return headers;
}

/** A client of one registry: `request` for JSON calls, `upload` for multipart ones, and its session's 401 handling. */
export function createApiClient<R extends Registry>(setup: ApiClientSetup) {
  let session: SessionBridge = { token: () => null, logout: () => {} };
  let loggingOut = false;

  const configured = (): PublicConfig => {
    const config = setup.config();
    if (!config) throw new Error('configureApiClient() has not run');
    return config;
  };

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

  async function request<P extends JsonPath<R>>(path: P, ...args: CallArgs<R[P], RequestOptions>): Promise<ResultOf<R[P]>> {
    const [payload = {}, options = {}] = args as [object?, RequestOptions?];
    const config = configured();
    const showToast = options.toast !== false;
    const fail = (ret: number, message: string, status: number): never => {
      if (showToast) toast.error(message || REQUEST_ERROR_TEXT);
      throw new ApiError(ret, message || REQUEST_ERROR_TEXT, status);
    };

    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetch(`${config.apiBaseUrl}${path}`, {
        method: 'POST',
        headers: signedHeaders(config, session.token(), setup.tokenHeader),
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
    let envelope: Envelope<ResultOf<R[P]>>;
    try {
      envelope = (await response.json()) as Envelope<ResultOf<R[P]>>;
    } catch {
      return fail(-1, REQUEST_ERROR_TEXT, response.status);
    }
    if (envelope.ret !== 0) return fail(envelope.ret, envelope.msg, response.status);
    return envelope.body as ResultOf<R[P]>;
  }

  /**
   * A multipart upload to a signed call, with real progress: XMLHttpRequest,
   * since fetch reports no upload progress. Same headers, envelope, toasts and
   * 401 handling as request, except Content-Type, which the browser sets
   * with the multipart boundary. The 60 s timeout counts from the last
   * progress, not from the start, so a large file on a slow line is not cut off.
   */
  function upload<P extends UploadPath<R>>(path: P, form: FormData, options: UploadOptions = {}): Promise<ResultOf<R[P]>> {
    const config = configured();
    const showToast = options.toast !== false;
    return new Promise<ResultOf<R[P]>>((resolve, reject) => {
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
      for (const [name, value] of Object.entries(signedHeaders(config, session.token(), setup.tokenHeader))) {
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
        let envelope: Envelope<ResultOf<R[P]>>;
        try {
          envelope = JSON.parse(xhr.responseText) as Envelope<ResultOf<R[P]>>;
        } catch {
          fail(-1, REQUEST_ERROR_TEXT, xhr.status);
          return;
        }
        if (envelope.ret !== 0) {
          fail(envelope.ret, envelope.msg, xhr.status);
          return;
        }
        options.onProgress?.(100);
        resolve(envelope.body as ResultOf<R[P]>);
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

  return {
    request,
    upload,
    connectSession(bridge: SessionBridge): void {
      session = bridge;
    },
    /** Spec §8's 401 handling, also used when a page loader finds the session gone. */
    expireSession(): void {
      handleUnauthorized(true);
    },
  };
}

let clientConfig: PublicConfig | null = null;

/** The root route hands the server's public config (signing pair, base URL) to the clients. */
export function configureApiClient(config: PublicConfig): void {
  clientConfig = config;
}

/** The server's public config as the root route handed it over (the back office's client signs with it too). */
export function publicClientConfig(): PublicConfig | null {
  return clientConfig;
}

/** The customer site's client: the `/www` registry, the customer session's X-Token. */
const www = createApiClient<WwwRegistry>({ config: () => clientConfig, tokenHeader: 'X-Token' });

export const api = www.request;
export const apiUpload = www.upload;
export const connectSession = www.connectSession;
export const expireSession = www.expireSession;
