// How SF's open platform signs a message, and so how the sandbox signs its
// route pushes: a form (application/x-www-form-urlencoded) with partnerID,
// requestID, serviceCode, timestamp (ms), msgData (JSON) and
// msgDigest = Base64(MD5(URLEncode(msgData + timestamp + checkWord))), the
// URL encoding being Java's URLEncoder (UTF-8, space → '+'). The check word
// (校验码) is the secret both sides know. MD5 is SF's choice, kept so the code
// that checks the sandbox is the code a real SF account needs; the timestamp
// bounds how long a captured push can be replayed (and a replay changes
// nothing: routes are stored once).
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';

/** How far a push's timestamp may be from our clock (the payment sandbox's 5 minutes). */
export const SF_SIGNATURE_MAX_SKEW_MS = 5 * 60_000;

/** Java's URLEncoder.encode(text, "UTF-8"): keeps A–Z a–z 0–9 . - * _, space → '+', the rest %XX. */
export function javaUrlEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

export function sfDigest(msgData: string, timestamp: string, checkWord: string): string {
  return createHash('md5')
    .update(javaUrlEncode(msgData + timestamp + checkWord), 'utf8')
    .digest('base64');
}

export interface SfSigner {
  partnerId: string;
  checkWord: string;
}

/** The form body of one sending of msgData (a new requestID and timestamp every time). */
export function signedSfForm(signer: SfSigner, serviceCode: string, msgData: string, nowMs: number): string {
  const timestamp = String(nowMs);
  return new URLSearchParams({
    partnerID: signer.partnerId,
    requestID: randomUUID(),
    serviceCode,
    timestamp,
    msgDigest: sfDigest(msgData, timestamp, signer.checkWord),
    msgData,
  }).toString();
}

export type VerifiedSfForm = { ok: true; msgData: string; requestId: string | null } | { ok: false; requestId: string | null; msgData: string | null };

/**
 * Reads a signed form: true only when it is from our partner account, for
 * this service, signed with the check word over exactly this msgData, and
 * recent enough.
 */
export function verifySfForm(signer: SfSigner, serviceCode: string, rawBody: string, nowMs: number): VerifiedSfForm {
  const form = new URLSearchParams(rawBody);
  const field = (name: string) => {
    const values = form.getAll(name);
    return values.length === 1 && values[0] !== '' ? values[0]! : null;
  };
  const requestId = field('requestID')?.slice(0, 64) ?? null;
  const msgData = field('msgData');
  const timestamp = field('timestamp');
  const digest = field('msgDigest');
  const refused = { ok: false as const, requestId, msgData };
  if (msgData === null || timestamp === null || digest === null) return refused;
  if (field('partnerID') !== signer.partnerId || field('serviceCode') !== serviceCode) return refused;
  if (!/^\d{10,16}$/.test(timestamp) || Math.abs(Number(timestamp) - nowMs) > SF_SIGNATURE_MAX_SKEW_MS) return refused;
  const expected = Buffer.from(sfDigest(msgData, timestamp, signer.checkWord), 'utf8');
  const given = Buffer.from(digest, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return refused;
  return { ok: true, msgData, requestId };
}
