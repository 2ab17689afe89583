// npm run files:encrypt and npm run keys:rotate as processes, on a folder of
// stored files: plaintext files get sealed, a second run (a resume) finds
// nothing left to do; a rotation re-wraps every data key so that the server
// reads them with the new key alone; the commands print counts, never a key.
// Then the resume of a pass stopped halfway (a failing write).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../../tests/fixtures/index.ts';
import { encryptStoredFiles } from '../modules/stored-file/at-rest-commands.ts';
import { isEncrypted } from '../modules/stored-file/envelope.ts';
import { fileKeyring } from '../modules/stored-file/file-keys.ts';
import { newStorageKey } from '../modules/stored-file/storage.ts';
import { createEncryptedStorage } from '../modules/stored-file/storage-encrypted.ts';
import { createLocalStorage } from '../modules/stored-file/storage-local.ts';

const dir = mkdtempSync(join(tmpdir(), 'visa-at-rest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(script: string, env: Record<string, string>) {
  return spawnSync('node', ['--import', 'tsx', `server/cli/${script}.ts`], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, APP_ENV: 'test', UPLOAD_DIR: dir, ...env },
  });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('files:encrypt and keys:rotate', () => {
  it('seal plaintext files, resume to nothing left, re-wrap under a new key', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const raw = createLocalStorage(dir);
    const files = [fixture('pdf'), fixture('png'), fixture('jpeg')];
    const keys: string[] = [];
    for (const bytes of files) {
      const key = newStorageKey();
      await raw.put(key, Readable.from([bytes]), { contentType: 'application/octet-stream' });
      keys.push(key);
    }

    const first = run('files-encrypt', { FILE_ENCRYPTION_KEY: oldKey.toString('base64') });
    expect(first.stdout).toContain('files:encrypt: 3 files encrypted, 0 already encrypted, 0 failed');
    expect(first.status).toBe(0);
    for (const key of keys) expect(isEncrypted(readFileSync(join(dir, key)))).toBe(true);
    const again = run('files-encrypt', { FILE_ENCRYPTION_KEY: oldKey.toString('base64') });
    expect(again.stdout).toContain('0 files encrypted, 3 already encrypted, 0 failed');

    const withoutOld = run('keys-rotate', { FILE_ENCRYPTION_KEY: newKey.toString('base64') });
    expect(withoutOld.status).toBe(2);
    expect(withoutOld.stderr).toContain('FILE_ENCRYPTION_KEY_OLD');

    const rotated = run('keys-rotate', { FILE_ENCRYPTION_KEY: newKey.toString('base64'), FILE_ENCRYPTION_KEY_OLD: oldKey.toString('base64') });
    expect(rotated.stdout).toContain('keys:rotate: 3 data keys re-wrapped');
    expect(rotated.status).toBe(0);
    for (const output of [first, again, rotated]) {
      for (const key of [oldKey, newKey]) expect(output.stdout + output.stderr).not.toContain(key.toString('base64'));
    }

    const after = createEncryptedStorage(raw, fileKeyring(newKey));
    for (const [index, key] of keys.entries()) expect((await readAll((await after.get(key))!.body)).equals(files[index]!)).toBe(true);
    await expect(createEncryptedStorage(raw, fileKeyring(oldKey)).get(keys[0]!)).rejects.toThrow(/unknown-key/);
  });

  it('a pass stopped halfway (a write failing) leaves every file readable, and the next run finishes it', async () => {
    const own = mkdtempSync(join(tmpdir(), 'visa-at-rest-'));
    try {
      const raw = createLocalStorage(own);
      const keyring = fileKeyring(randomBytes(32));
      const files = [fixture('pdf'), fixture('png'), fixture('jpeg'), fixture('pdf')];
      const keys: string[] = [];
      for (const bytes of files) {
        const key = newStorageKey();
        await raw.put(key, Readable.from([bytes]), { contentType: 'application/octet-stream' });
        keys.push(key);
      }
      let writes = 0;
      const flaky = createEncryptedStorage(
        {
          ...raw,
          put: (key, body, meta) => {
            writes += 1;
            return writes === 2 ? Promise.reject(new Error('disk full')) : raw.put(key, body, meta);
          },
        },
        keyring,
      );
      const failures: string[] = [];
      const stopped = await encryptStoredFiles(flaky, { failed: (key) => failures.push(key) });
      expect(stopped).toEqual({ done: 3, skipped: 0, failed: 1 });
      const storage = createEncryptedStorage(raw, keyring);
      for (const [index, key] of keys.entries()) expect((await readAll((await storage.get(key))!.body)).equals(files[index]!)).toBe(true);

      const resumed = await encryptStoredFiles(storage, { failed: (key) => failures.push(key) });
      expect(resumed).toEqual({ done: 1, skipped: 3, failed: 0 });
      expect(failures).toHaveLength(1);
      for (const key of keys) expect(isEncrypted(readFileSync(join(own, key)))).toBe(true);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});
