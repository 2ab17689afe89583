// The browser's request client (spec §7, §8), with fetch, storage and toasts
// replaced by recorders. Each test loads fresh modules: the client keeps state.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import type { Contract } from '../../common/contracts/define';
import { signRequest } from '../../common/signing';
import type { PublicConfig } from '../../common/web-context';

/** A registry of made-up calls: the client is one factory call per registry (the back office will have its own). */
type Call<Path extends string, Payload> = Contract<Path, z.ZodType<unknown, Payload>, z.ZodType<unknown>, 'json'>;
type TestCalls = {
  '/www/sys_config_get': Call<'/www/sys_config_get', { x: number }>;
  '/www/a': Call<'/www/a', object>;
  '/www/b': Call<'/www/b', object>;
};

const CONFIG: PublicConfig = {
  appEnv: 'test',
  apiBaseUrl: 'http://api.test',
  platform: '4',
  accessKey: 'visa-web-test',
  secret: 'test-secret-0123456789',
  analyticsScriptUrl: null,
};

interface Toast {
  kind: string;
  content: string;
  duration?: number;
}

let toasts: Toast[];
let calls: Array<{ url: string; init: RequestInit }>;

function respond(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

async function loadClient(answer: (url: string) => Response | Promise<Response>) {
  vi.resetModules();
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return answer(url);
    }),
  );
  const toastModule = await import('./toast');
  const record = (kind: string) => (content: string, duration?: number) => {
    toasts.push({ kind, content, duration });
    return undefined as never;
  };
  toastModule.setToastApi({ error: record('error'), warning: record('warning'), success: record('success') } as never);
  const module = await import('./api-client');
  // The site's own client (sys-config below uses it) and one of the test registry.
  module.configureApiClient(CONFIG);
  const client = module.createApiClient<TestCalls>({ config: () => CONFIG, tokenHeader: 'X-Token' });
  const logout = vi.fn();
  module.connectSession({ token: () => 'token-123', logout });
  client.connectSession({ token: () => 'token-123', logout });
  return { client, logout };
}

beforeEach(() => {
  toasts = [];
  const store = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('signed requests', () => {
  it('POSTs JSON to {baseUrl}{path} with the spec §7 headers and a valid signature', async () => {
    const { client } = await loadClient(() => respond(200, { ret: 0, msg: 'ok', body: { a: 1 } }));
    await expect(client.request('/www/sys_config_get', { x: 1 })).resolves.toEqual({ a: 1 });
    const { url, init } = calls[0]!;
    expect(url).toBe('http://api.test/www/sys_config_get');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"x":1}');
    const headers = init.headers as Record<string, string>;
    expect(headers['X-Version']).toBe('1.0.0');
    expect(headers.platform).toBe('4');
    expect(headers['X-Token']).toBe('token-123');
    expect(headers['X-Request-Id']).toMatch(/^[a-z0-9]{32}$/);
    expect(new Date(headers['X-Date']!).toUTCString()).toBe(headers['X-Date']);
    const expected = signRequest(
      { accessKey: CONFIG.accessKey, date: headers['X-Date']!, version: '1.0.0', requestId: headers['X-Request-Id']! },
      CONFIG.secret,
    );
    expect(headers.Authorization).toBe(`Basic ${expected}`);
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it('uses a new request id for every call', async () => {
    const { client } = await loadClient(() => respond(200, { ret: 0, msg: 'ok', body: null }));
    await client.request('/www/a');
    await client.request('/www/a');
    const ids = calls.map((call) => (call.init.headers as Record<string, string>)['X-Request-Id']);
    expect(new Set(ids).size).toBe(2);
  });
});

describe('errors (spec §8)', () => {
  it('toasts the server msg for ret ≠ 0, or 请求错误 when there is none', async () => {
    const { client } = await loadClient((url) =>
      respond(200, url.endsWith('/a') ? { ret: 1301, msg: '账号或密码错误', body: null } : { ret: 9, msg: '', body: null }),
    );
    await expect(client.request('/www/a')).rejects.toMatchObject({ ret: 1301, message: '账号或密码错误' });
    await expect(client.request('/www/b')).rejects.toMatchObject({ ret: 9, message: '请求错误' });
    expect(toasts).toEqual([
      { kind: 'error', content: '账号或密码错误', duration: undefined },
      { kind: 'error', content: '请求错误', duration: undefined },
    ]);
  });

  it('stays silent when the caller asks for no toast', async () => {
    const { client } = await loadClient(() => respond(200, { ret: 1301, msg: '账号或密码错误', body: null }));
    await expect(client.request('/www/a', {}, { toast: false })).rejects.toMatchObject({ ret: 1301 });
    expect(toasts).toEqual([]);
  });

  it('toasts 请求错误 on a network failure or an unreadable answer', async () => {
    const { client } = await loadClient((url) =>
      url.endsWith('/a') ? Promise.reject(new TypeError('Failed to fetch')) : new Response('<html>', { status: 502 }),
    );
    await expect(client.request('/www/a')).rejects.toMatchObject({ message: '请求错误' });
    await expect(client.request('/www/b')).rejects.toMatchObject({ message: '请求错误' });
    expect(toasts.map((t) => t.content)).toEqual(['请求错误', '请求错误']);
  });

  it('on 401 toasts 登录已过期，请重新登录 for 2 s, then logs out once', async () => {
    vi.useFakeTimers();
    const { client, logout } = await loadClient(() => respond(401, { ret: 1201, msg: '登录已过期，请重新登录', body: null }));
    await expect(client.request('/www/a')).rejects.toMatchObject({ httpStatus: 401 });
    await expect(client.request('/www/b')).rejects.toMatchObject({ httpStatus: 401 });
    expect(toasts).toEqual([{ kind: 'error', content: '登录已过期，请重新登录', duration: 2 }]);
    vi.advanceTimersByTime(1999);
    expect(logout).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(logout).toHaveBeenCalledTimes(1);
  });

  it('on 401 with toasts off logs out at once', async () => {
    const { client, logout } = await loadClient(() => respond(401, { ret: 1201, msg: '', body: null }));
    await expect(client.request('/www/a', {}, { toast: false })).rejects.toMatchObject({ httpStatus: 401 });
    expect(toasts).toEqual([]);
    expect(logout).toHaveBeenCalledTimes(1);
  });

  it('leaves a 401 to the caller when asked (silent login)', async () => {
    const { client, logout } = await loadClient(() => respond(401, { ret: 1201, msg: '', body: null }));
    await expect(client.request('/www/a', {}, { toast: false, logoutOnUnauthorized: false })).rejects.toMatchObject({ httpStatus: 401 });
    expect(logout).not.toHaveBeenCalled();
  });
});

describe('system config and address library cache', () => {
  const LIBRARY = { '86': { '110000': '北京市' }, '110000': { '110100': '北京市' } };

  it('shares one request among concurrent callers, and retries after a failure', async () => {
    let fail = true;
    await loadClient(() => {
      if (fail) return respond(200, { ret: 1500, msg: '系统繁忙，请稍后再试', body: null });
      return respond(200, { ret: 0, msg: 'ok', body: { addr_download_url: '/static/address-library.aaa.json', address_root_region: '86' } });
    });
    const { getSysConfig } = await import('./sys-config');
    await Promise.allSettled([getSysConfig(), getSysConfig(), getSysConfig()]);
    expect(calls).toHaveLength(1);
    fail = false;
    const [a, b] = await Promise.all([getSysConfig(), getSysConfig()]);
    expect(a).toBe(b);
    expect(calls).toHaveLength(2);
    await getSysConfig();
    expect(calls).toHaveLength(2);
  });

  it('keeps the library in localStorage and reuses it only for the same URL with key 86', async () => {
    let url = '/static/address-library.aaa.json';
    const answer = (requested: string) =>
      requested.startsWith('/static/')
        ? respond(200, LIBRARY)
        : respond(200, { ret: 0, msg: 'ok', body: { addr_download_url: url, address_root_region: '86' } });

    await loadClient(answer);
    let cache = await import('./sys-config');
    expect(await cache.getAddressLibrary()).toEqual(LIBRARY);
    expect(localStorage.getItem('addressLibraryFileUrl')).toBe(url);
    expect(JSON.parse(localStorage.getItem('addressLibraryJson')!)).toEqual(LIBRARY);
    expect(calls.filter((c) => c.url.startsWith('/static/'))).toHaveLength(1);

    // A new page view with the same URL: no download.
    await loadClient(answer);
    cache = await import('./sys-config');
    await cache.getAddressLibrary();
    expect(calls.filter((c) => c.url.startsWith('/static/'))).toHaveLength(0);

    // Stored copy without key 86: downloaded again.
    localStorage.setItem('addressLibraryJson', JSON.stringify({ '110000': {} }));
    await loadClient(answer);
    cache = await import('./sys-config');
    expect(await cache.getAddressLibrary()).toEqual(LIBRARY);
    expect(calls.filter((c) => c.url.startsWith('/static/'))).toHaveLength(1);

    // The server publishes a new file: downloaded again and remembered under the new URL.
    url = '/static/address-library.bbb.json';
    await loadClient(answer);
    cache = await import('./sys-config');
    await cache.getAddressLibrary();
    expect(calls.filter((c) => c.url === url)).toHaveLength(1);
    expect(localStorage.getItem('addressLibraryFileUrl')).toBe(url);
  });
});
