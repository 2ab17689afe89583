// A small WeChat Pay APIv3 client (decision 0036): signs each request,
// checks the signature of each answer before reading it, and gives up after
// timeoutMs. An answer that cannot be trusted (no or bad signature, not
// JSON) or that never came throws: the caller treats the outcome as unknown
// and asks again later with the same number. Keys are never logged.
import type { KeyObject } from 'node:crypto';
import { authorization, newNonce, verifyWechatpaySignature } from './crypto.ts';

export interface WechatPayKeys {
  /** 商户号 */
  mchid: string;
  /** The APPID bound to the merchant (公众号 / 开放平台). */
  appid: string;
  /** 商户API证书序列号: names our key in Authorization's serial_no. */
  merchantSerial: string;
  merchantPrivateKey: KeyObject;
  /** APIv3密钥 (32 bytes): decrypts notifications' resources. */
  apiV3Key: Buffer;
  /** 微信支付公钥 and its id (PUB_KEY_ID_…): checks answers and notifications. */
  platformPublicKey: KeyObject;
  platformPublicKeyId: string;
}

export interface WechatPayClientOptions {
  /** https://api.mch.weixin.qq.com, or the local fake's address in tests. */
  baseUrl: string;
  keys: WechatPayKeys;
  timeoutMs: number;
  now: () => number;
}

/** A trusted (signature-checked) answer. */
export interface WechatPayAnswer {
  status: number;
  /** Parsed JSON body; null for 204 / an empty body. */
  data: Record<string, unknown> | null;
}

export class WechatPayUnavailable extends Error {}

export function createWechatPayClient(options: WechatPayClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const { keys } = options;

  async function request(method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>): Promise<WechatPayAnswer> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const timestamp = String(Math.floor(options.now() / 1000));
    const nonce = newNonce();
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': 'yiqiantong-wechatpay/1',
      Authorization: authorization({
        mchid: keys.mchid,
        serialNo: keys.merchantSerial,
        privateKey: keys.merchantPrivateKey,
        method,
        url,
        body,
        timestamp,
        nonce,
      }),
      // Names the platform key we verify with (public-key mode).
      'Wechatpay-Serial': keys.platformPublicKeyId,
    };
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      response = await fetch(base + url, { method, headers, body: payload === undefined ? undefined : body, signal: AbortSignal.timeout(options.timeoutMs) });
      text = await response.text();
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      throw new WechatPayUnavailable(
        name === 'TimeoutError' || name === 'AbortError'
          ? `WeChat Pay did not answer ${method} ${url.split('?')[0]} in time`
          : `WeChat Pay unreachable: ${String(error)}`,
      );
    }
    // 5xx answers may come from a proxy in front of WeChat: unknown outcome either way.
    if (response.status >= 500) throw new WechatPayUnavailable(`WeChat Pay answered ${response.status} to ${method} ${url.split('?')[0]}`);
    const check = verifyWechatpaySignature(
      Object.fromEntries(response.headers),
      text,
      { publicKey: keys.platformPublicKey, keyId: keys.platformPublicKeyId },
      options.now(),
    );
    if (!check.ok) throw new WechatPayUnavailable(`WeChat Pay's answer to ${method} ${url.split('?')[0]} failed its signature check (${check.why})`);
    if (text.length === 0) return { status: response.status, data: null };
    try {
      const data = JSON.parse(text) as unknown;
      if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('not an object');
      return { status: response.status, data: data as Record<string, unknown> };
    } catch {
      throw new WechatPayUnavailable(`WeChat Pay's answer to ${method} ${url.split('?')[0]} is not JSON`);
    }
  }

  /**
   * The bill file at a download_url WeChat gave (tradebill): a GET signed like
   * every call, over the URL's path and query. WeChat does not sign the file
   * itself (its SHA1 in the signed tradebill answer vouches for it), so no
   * answer signature is checked here. Only WeChat's own origin is asked: our
   * Authorization is never sent anywhere else.
   */
  async function download(downloadUrl: string): Promise<Buffer> {
    let target: URL;
    try {
      target = new URL(downloadUrl);
    } catch {
      throw new WechatPayUnavailable('WeChat Pay gave a bill download_url that is not a URL');
    }
    if (target.origin !== new URL(base).origin) throw new WechatPayUnavailable(`WeChat Pay gave a bill download_url on another host (${target.host})`);
    const url = target.pathname + target.search;
    const timestamp = String(Math.floor(options.now() / 1000));
    const nonce = newNonce();
    const headers = {
      Accept: 'application/json',
      'User-Agent': 'yiqiantong-wechatpay/1',
      Authorization: authorization({
        mchid: keys.mchid,
        serialNo: keys.merchantSerial,
        privateKey: keys.merchantPrivateKey,
        method: 'GET',
        url,
        body: '',
        timestamp,
        nonce,
      }),
    };
    let response: Response;
    let file: Buffer;
    try {
      response = await fetch(base + url, { method: 'GET', headers, signal: AbortSignal.timeout(options.timeoutMs) });
      file = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      throw new WechatPayUnavailable(`WeChat Pay's bill download failed: ${error instanceof Error ? error.name : String(error)}`);
    }
    if (response.status !== 200)
      throw new WechatPayUnavailable(`WeChat Pay answered ${response.status} to the bill download: ${file.toString('utf8').slice(0, 200)}`);
    return file;
  }

  return {
    download,
    get: (url: string) => request('GET', url),
    post: (url: string, payload: Record<string, unknown>) => request('POST', url, payload),
  };
}

export type WechatPayClient = ReturnType<typeof createWechatPayClient>;
