// Alipay's formats, shared by the provider and the local fake of its gateway:
// amounts are yuan with two decimals ("12.30"), times are China's wall clock
// "yyyy-MM-dd HH:mm:ss" (GMT+8, whatever the server's own time zone), and a
// signature is RSA2 (SHA256withRSA, base64) over "k=v&k=v…" of the sorted,
// non-empty parameters.
import { createSign, createVerify, type KeyObject } from 'node:crypto';

const CHINA_OFFSET_MS = 8 * 3_600_000;

/** Cents → "12.30" (Alipay's total_amount / refund_amount). */
export function yuan(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`not an amount in cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** "12.30" → 1230; null when it is not a yuan amount with at most two decimals. */
export function cents(value: unknown): number | null {
  if (typeof value === 'number') value = String(value);
  if (typeof value !== 'string') return null;
  const match = /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  const amount = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -amount : amount;
}

/** Epoch ms → "2026-12-01 10:00:00" in China. */
export function chinaTime(epochMs: number): string {
  return new Date(epochMs + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** "2026-12-01 10:00:00" (China) → epoch ms; null when malformed. */
export function parseChinaTime(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)) return null;
  const ms = Date.parse(`${value.replace(' ', 'T')}+08:00`);
  return Number.isFinite(ms) ? ms : null;
}

/** The string Alipay signs: every parameter but the excluded ones and the empty ones, sorted by name, as k=v joined with &. */
export function signContent(params: Record<string, string | undefined>, exclude: readonly string[]): string {
  return Object.keys(params)
    .filter((key) => !exclude.includes(key) && params[key] !== undefined && params[key] !== '')
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join('&');
}

export function rsa2Sign(content: string, privateKey: KeyObject | string): string {
  return createSign('RSA-SHA256').update(content, 'utf8').sign(privateKey, 'base64');
}

export function rsa2Verify(content: string, signature: string, publicKey: KeyObject | string): boolean {
  try {
    return createVerify('RSA-SHA256').update(content, 'utf8').verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}
