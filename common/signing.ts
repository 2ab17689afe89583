// Request signing of spec §7, shared by the browser client and the server check.
// @noble/hashes keeps it synchronous and available outside secure contexts,
// where crypto.subtle is missing.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export interface SignatureInput {
  accessKey: string;
  date: string;
  version: string;
  requestId: string;
}

/** The four lines of the string to sign, joined by \n with no trailing newline. */
export function stringToSign({ accessKey, date, version, requestId }: SignatureInput): string {
  return [accessKey, date, version, requestId].join('\n');
}

/** Base64 of the raw HMAC-SHA256 digest; the Authorization header is 'Basic ' + this. */
export function signRequest(input: SignatureInput, secret: string): string {
  const digest = hmac(sha256, utf8ToBytes(secret), utf8ToBytes(stringToSign(input)));
  return bytesToBase64(digest);
}

/** SHA-256 hex of the typed password: what the login call sends (spec §5). */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

const REQUEST_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** 32 random characters of [a-z0-9], from the platform CSPRNG. */
export function newRequestId(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  // 252 = 7 × 36: rejecting bytes above it keeps every character equally likely.
  let id = '';
  while (id.length < 32) {
    for (const byte of bytes) {
      if (byte < 252 && id.length < 32) id += REQUEST_ID_ALPHABET[byte % 36];
    }
    globalThis.crypto.getRandomValues(bytes);
  }
  return id;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
