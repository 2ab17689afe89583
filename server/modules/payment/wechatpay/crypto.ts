// WeChat Pay APIv3's cryptography, on node:crypto alone:
// - our requests carry Authorization: WECHATPAY2-SHA256-RSA2048 with an
//   RSA-SHA256 signature (merchant private key) over
//   "METHOD\nURL\ntimestamp\nnonce\nbody\n" (URL = path and query);
// - WeChat's answers and notifications are signed with the platform key over
//   "timestamp\nnonce\nbody\n", named by Wechatpay-Serial (the platform
//   public key's id, PUB_KEY_ID_…), and refused when the timestamp is more
//   than 5 minutes off;
// - a notification's resource is AES-256-GCM with the APIv3 key (32 bytes),
//   its nonce and associated_data; the ciphertext ends with the 16-byte tag.
import { type KeyObject, createDecipheriv, createSign, createVerify, randomBytes, timingSafeEqual } from 'node:crypto';

export const AUTH_SCHEMA = 'WECHATPAY2-SHA256-RSA2048';
/** WeChat's and our own freshness window for signed messages. */
export const MAX_SKEW_SECONDS = 300;

export function newNonce(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

export function requestMessage(method: string, url: string, timestamp: string, nonce: string, body: string): string {
  return `${method}\n${url}\n${timestamp}\n${nonce}\n${body}\n`;
}

export function responseMessage(timestamp: string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

export function rsaSign(privateKey: KeyObject, message: string): string {
  return createSign('RSA-SHA256').update(message).sign(privateKey, 'base64');
}

export function rsaVerify(publicKey: KeyObject, message: string, signature: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(message).verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

/** The Authorization header of one request. */
export function authorization(input: {
  mchid: string;
  serialNo: string;
  privateKey: KeyObject;
  method: string;
  url: string;
  body: string;
  timestamp: string;
  nonce: string;
}): string {
  const signature = rsaSign(input.privateKey, requestMessage(input.method, input.url, input.timestamp, input.nonce, input.body));
  return `${AUTH_SCHEMA} mchid="${input.mchid}",nonce_str="${input.nonce}",signature="${signature}",timestamp="${input.timestamp}",serial_no="${input.serialNo}"`;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export type SignatureCheck = { ok: true } | { ok: false; why: 'missing' | 'serial' | 'stale' | 'signature' };

/**
 * Checks a signed answer or notification: the four Wechatpay-* headers, the
 * platform key's id, the timestamp within 5 minutes of nowMs, and the
 * signature over the exact body received.
 */
export function verifyWechatpaySignature(
  headers: Record<string, string | string[] | undefined>,
  body: string,
  platform: { publicKey: KeyObject; keyId: string },
  nowMs: number,
): SignatureCheck {
  const signature = header(headers, 'wechatpay-signature');
  const timestamp = header(headers, 'wechatpay-timestamp');
  const nonce = header(headers, 'wechatpay-nonce');
  const serial = header(headers, 'wechatpay-serial');
  if (!signature || !timestamp || !nonce || !serial) return { ok: false, why: 'missing' };
  const serialOk = serial.length === platform.keyId.length && timingSafeEqual(Buffer.from(serial), Buffer.from(platform.keyId));
  if (!serialOk) return { ok: false, why: 'serial' };
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return { ok: false, why: 'stale' };
  return rsaVerify(platform.publicKey, responseMessage(timestamp, nonce, body), signature) ? { ok: true } : { ok: false, why: 'signature' };
}

export interface EncryptedResource {
  algorithm: string;
  ciphertext: string;
  associated_data?: string;
  nonce: string;
}

/** The notification's resource as its JSON text; throws when it does not decrypt (wrong key, changed bytes). */
export function decryptResource(apiV3Key: Buffer, resource: EncryptedResource): string {
  if (resource.algorithm !== 'AEAD_AES_256_GCM') throw new Error(`unknown resource algorithm ${resource.algorithm}`);
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length < 17) throw new Error('resource too short');
  const decipher = createDecipheriv('aes-256-gcm', apiV3Key, Buffer.from(resource.nonce, 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
}
