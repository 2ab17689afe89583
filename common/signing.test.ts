import { describe, expect, it } from 'vitest';
import { REQUEST_ID_PATTERN } from './constants.ts';
import { newRequestId, sha256Hex, signRequest, stringToSign } from './signing.ts';

// Expected values computed independently with openssl:
//   printf 'visa-web-test\nSat, 21 Nov 2026 04:23:49 GMT\n1.0.0\nabcdefghijklmnopqrstuvwxyz012345' \
//     | openssl dgst -sha256 -hmac 'test-secret-0123456789' -binary | base64
//   printf 'Demo@123456' | sha256sum
const VECTOR = {
  accessKey: 'visa-web-test',
  date: 'Sat, 21 Nov 2026 04:23:49 GMT',
  version: '1.0.0',
  requestId: 'abcdefghijklmnopqrstuvwxyz012345',
};

describe('request signing', () => {
  it('joins the four lines with \\n and no trailing newline', () => {
    expect(stringToSign(VECTOR)).toBe('visa-web-test\nSat, 21 Nov 2026 04:23:49 GMT\n1.0.0\nabcdefghijklmnopqrstuvwxyz012345');
  });

  it('matches the openssl HMAC-SHA256 vector', () => {
    expect(signRequest(VECTOR, 'test-secret-0123456789')).toBe('ED4zwPIWZPG44QfXw6RawRPk5b5E2Z/hl6akEj+fMII=');
  });

  it('changes when any line or the secret changes', () => {
    const base = signRequest(VECTOR, 'test-secret-0123456789');
    expect(signRequest({ ...VECTOR, requestId: 'bbcdefghijklmnopqrstuvwxyz012345' }, 'test-secret-0123456789')).not.toBe(base);
    expect(signRequest(VECTOR, 'test-secret-0123456780')).not.toBe(base);
  });

  it('hashes the password to lowercase SHA-256 hex', () => {
    expect(sha256Hex('Demo@123456')).toBe('7063b467783b2f3b96cfc3a80ffc6da1d551a64fa139530a7af1a4bcc425d909');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('makes 32-character [a-z0-9] request ids that do not repeat', () => {
    const ids = new Set(Array.from({ length: 2000 }, newRequestId));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(REQUEST_ID_PATTERN);
  });
});
