// TOTP against the RFC 6238 test vectors (SHA-1 seed "12345678901234567890").
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totpCode, totpStep } from './totp.ts';

const SEED = base32Encode(Buffer.from('12345678901234567890'));

describe('TOTP', () => {
  it('matches the RFC 6238 vectors (last 6 digits of the 8-digit values)', () => {
    const vectors: Array<[number, string]> = [
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
      [20000000000, '353130'],
    ];
    for (const [seconds, code] of vectors) expect(totpCode(SEED, seconds * 1000)).toBe(code);
  });

  it('round-trips Base32', () => {
    expect(SEED).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(SEED).toString()).toBe('12345678901234567890');
  });

  it('accepts the current step and one either side, never a step at or before the last accepted one', () => {
    const at = 1_700_000_000_000;
    const step = totpStep(at);
    expect(matchTotp(SEED, hotp(SEED, step), at, null)).toBe(step);
    expect(matchTotp(SEED, hotp(SEED, step - 1), at, null)).toBe(step - 1);
    expect(matchTotp(SEED, hotp(SEED, step + 1), at, null)).toBe(step + 1);
    expect(matchTotp(SEED, hotp(SEED, step - 2), at, null)).toBeNull();
    expect(matchTotp(SEED, hotp(SEED, step + 2), at, null)).toBeNull();
    expect(matchTotp(SEED, hotp(SEED, step), at, step)).toBeNull();
    expect(matchTotp(SEED, hotp(SEED, step - 1), at, step - 1)).toBeNull();
    expect(matchTotp(SEED, hotp(SEED, step + 1), at, step)).toBe(step + 1);
    expect(matchTotp(SEED, '12345', at, null)).toBeNull();
    expect(matchTotp(SEED, 'abcdef', at, null)).toBeNull();
  });

  it('writes the otpauth URI authenticator apps read', () => {
    expect(otpauthUri(SEED, 'demo_operator')).toBe(
      `otpauth://totp/${encodeURIComponent('易签通后台:demo_operator')}?secret=${SEED}&issuer=${encodeURIComponent('易签通后台')}&algorithm=SHA1&digits=6&period=30`,
    );
  });
});
