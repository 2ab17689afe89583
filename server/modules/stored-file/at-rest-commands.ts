// The two maintenance passes of encryption at rest (decision 0043), over every
// stored object (storage.keys(): the folder or the bucket, whatever kind of
// file): `npm run files:encrypt` seals the files stored before encryption, and
// `npm run keys:rotate` re-wraps every data key under the current master key.
// Each object is replaced whole and atomically (a rename on disk, a PUT in a
// bucket), so a pass stopped at any point leaves every file readable, and the
// next run simply carries on: a file already done is recognised and skipped.
// A file that fails is reported and the pass goes on; the command then exits 1.
import type { EncryptedFileStorage } from './storage-encrypted.ts';

export interface PassTotals {
  done: number;
  skipped: number;
  failed: number;
}

export interface PassLog {
  failed(key: string, error: unknown): void;
}

async function pass(storage: EncryptedFileStorage, step: (key: string) => Promise<boolean>, log: PassLog): Promise<PassTotals> {
  const totals: PassTotals = { done: 0, skipped: 0, failed: 0 };
  for await (const key of storage.keys()) {
    try {
      if (await step(key)) totals.done += 1;
      else totals.skipped += 1;
    } catch (error) {
      totals.failed += 1;
      log.failed(key, error);
    }
  }
  return totals;
}

/** Seals every file still in plaintext; done: sealed now, skipped: sealed already (or deleted meanwhile). */
export function encryptStoredFiles(storage: EncryptedFileStorage, log: PassLog): Promise<PassTotals> {
  return pass(storage, async (key) => (await storage.encryptInPlace(key)) === 'encrypted', log);
}

/** Re-wraps every data key not under the current master key; skipped: current already, or not sealed yet. */
export function rotateFileKeys(storage: EncryptedFileStorage, log: PassLog): Promise<PassTotals> {
  return pass(storage, async (key) => (await storage.rewrap(key)) === 'rewrapped', log);
}
