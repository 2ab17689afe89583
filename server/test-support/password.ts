// Password hashes for test data. Accounts and operators that tests insert get
// scrypt with N=2^10 instead of the production 2^17: a login verifies with the
// N stored in the hash, so each test login costs about a millisecond instead of
// ~0.4 s of CPU (seconds on a loaded CI machine) — hundreds of them per run.
// Accounts the app creates itself (registration, 新建操作员) keep the production
// cost, and account.test.ts / operator.test.ts check that they do.
import { sha256Hex } from '../../common/signing.ts';
import { hashPasswordDigestWithCost } from '../modules/account/password.ts';

const TEST_SCRYPT_N = 2 ** 10;
const hashes = new Map<string, Promise<string>>();

/** The stored hash of a SHA-256 password digest, at the test cost (one per digest, reused). */
export function testPasswordHash(digest: string): Promise<string> {
  let hash = hashes.get(digest);
  if (!hash) {
    hash = hashPasswordDigestWithCost(digest, TEST_SCRYPT_N);
    hashes.set(digest, hash);
  }
  return hash;
}

/** The same for a plain password. */
export const testPasswordHashOf = (password: string): Promise<string> => testPasswordHash(sha256Hex(password));
