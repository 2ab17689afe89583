// How the sandbox signs its notifications, WeChat Pay v3 style: a timestamp
// and a nonce in headers, and a signature over "timestamp\nnonce\nbody\n".
// WeChat signs with the platform's RSA key; the sandbox uses HMAC-SHA256 with
// PAYMENT_SANDBOX_SECRET, which both sides know. The timestamp bounds how long
// a captured notification can be replayed.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { HeaderBag } from './provider.ts';

export const SANDBOX_SIGNATURE_HEADERS = {
  timestamp: 'sandboxpay-timestamp',
  nonce: 'sandboxpay-nonce',
  signature: 'sandboxpay-signature',
  type: 'sandboxpay-signature-type',
} as const;
export const SANDBOX_SIGNATURE_TYPE = 'HMAC-SHA256';
/** How far the notification's timestamp may be from our clock (WeChat Pay advises 5 minutes). */
export const SANDBOX_SIGNATURE_MAX_SKEW_S = 300;

export function sandboxSignature(secret: string, timestamp: string, nonce: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}\n${nonce}\n${body}\n`, 'utf8').digest('base64');
}

/** The headers that go with one sending of body (a new nonce and timestamp every time). */
export function signedSandboxHeaders(secret: string, body: string, nowMs: number): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const nonce = randomBytes(16).toString('hex');
  return {
    'content-type': 'application/json',
    [SANDBOX_SIGNATURE_HEADERS.timestamp]: timestamp,
    [SANDBOX_SIGNATURE_HEADERS.nonce]: nonce,
    [SANDBOX_SIGNATURE_HEADERS.type]: SANDBOX_SIGNATURE_TYPE,
    [SANDBOX_SIGNATURE_HEADERS.signature]: sandboxSignature(secret, timestamp, nonce, body),
  };
}

function header(headers: HeaderBag, name: string): string | null {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** True when the headers sign exactly this body with this secret, recently enough. */
export function verifySandboxSignature(secret: string, body: string, headers: HeaderBag, nowMs: number): boolean {
  const timestamp = header(headers, SANDBOX_SIGNATURE_HEADERS.timestamp);
  const nonce = header(headers, SANDBOX_SIGNATURE_HEADERS.nonce);
  const signature = header(headers, SANDBOX_SIGNATURE_HEADERS.signature);
  if (!timestamp || !nonce || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(Number(timestamp) * 1000 - nowMs) > SANDBOX_SIGNATURE_MAX_SKEW_S * 1000) return false;
  const expected = Buffer.from(sandboxSignature(secret, timestamp, nonce, body), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
