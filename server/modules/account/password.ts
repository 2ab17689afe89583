// Slow, salted hash of the SHA-256 digest the client sends (spec §5).
// scrypt with the OWASP password-storage parameters: N=2^17, r=8, p=1.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
// scrypt needs 128·N·r bytes (128 MiB here); Node's default cap is 32 MiB.
const MAX_MEMORY = 256 * 1024 * 1024;

function derive(secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Stored as scrypt$N$r$p$salt$hash (base64), so parameters can be raised later. */
export async function hashPasswordDigest(digest: string): Promise<string> {
  return hashPasswordDigestWithCost(digest, N);
}

/**
 * The same with another N. Only test data uses it (server/test-support/password.ts):
 * a verify reads N from the stored hash, so test accounts log in without spending
 * the production cost hundreds of times per run; every account the app itself
 * creates still gets N=2^17.
 */
export async function hashPasswordDigestWithCost(digest: string, n: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(digest, salt, n, R, P);
  return ['scrypt', n, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPasswordDigest(digest: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(digest, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Spent on unknown accounts so that their answer takes as long as a wrong password. */
let dummyHash: Promise<string> | undefined;
export async function spendEqualTime(digest: string): Promise<void> {
  dummyHash ??= hashPasswordDigest('0'.repeat(64));
  await verifyPasswordDigest(digest, await dummyHash);
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;
