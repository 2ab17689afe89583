// Files encrypted at rest (decision 0043), against the local disk storage: what
// is on disk is ciphertext; files of every size around the chunk size come back
// whole and by range; a changed byte, a cut-off end, swapped chunks or a master
// key the server lacks are refused; files stored before encryption are still
// served, sealed in place by encryptInPlace (which can stop and resume), and a
// rotation re-wraps every data key so that the old master key is no longer needed.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../tests/fixtures/index.ts';
import { CHUNK_BYTES, HEADER_BYTES, isEncrypted, StoredFileDamagedError, TAG_BYTES } from './envelope.ts';
import { fileKeyring, parseMasterKey } from './file-keys.ts';
import { type FileStorage, newStorageKey } from './storage.ts';
import { createEncryptedStorage } from './storage-encrypted.ts';
import { createLocalStorage } from './storage-local.ts';
import { createStoredFiles } from './stored-files.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * How the encrypted storage reads: 'position' — local disk, sealed chunks read whole
 * by position (openAt); 'stream' — the same disk seen as a bucket is, a stream
 * whose pieces cut across the chunks (S3 has no openAt).
 */
type ReadMode = 'position' | 'stream';

function rawStorage(dir: string, mode: ReadMode): FileStorage {
  const local = createLocalStorage(dir);
  return mode === 'position' ? local : { ...local, openAt: undefined };
}

function setUp(keyring = fileKeyring(randomBytes(32)), mode: ReadMode = 'position') {
  const dir = mkdtempSync(join(tmpdir(), 'visa-enc-'));
  dirs.push(dir);
  const raw = rawStorage(dir, mode);
  return { dir, raw, storage: createEncryptedStorage(raw, keyring), keyring, pathOf: (key: string) => join(dir, key) };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A plaintext that is a real JPEG at its start (as every stored file is), then random bytes. */
function content(size: number): Buffer {
  const bytes = randomBytes(size);
  fixture('jpeg').copy(bytes, 0, 0, Math.min(size, 16));
  return bytes;
}

async function put(storage: { put: (key: string, body: Readable, meta: { contentType: string }) => Promise<void> }, bytes: Buffer): Promise<string> {
  const key = newStorageKey();
  await storage.put(key, Readable.from([bytes]), { contentType: 'image/jpeg' });
  return key;
}

async function read(storage: ReturnType<typeof setUp>['storage'], key: string, range?: { start: number; end: number }) {
  const stored = await storage.get(key, range);
  if (!stored) throw new Error('missing');
  return { bytes: await readAll(stored.body), size: stored.size };
}

describe('master keys', () => {
  it('are 32 bytes in base64, nothing else', () => {
    expect(parseMasterKey(randomBytes(32).toString('base64'))).toHaveLength(32);
    expect(parseMasterKey(randomBytes(31).toString('base64'))).toBeNull();
    expect(parseMasterKey(randomBytes(33).toString('base64'))).toBeNull();
    expect(parseMasterKey('not a key at all, not even base64 ==')).toBeNull();
  });
});

describe.each(['position', 'stream'] as const)('encrypted storage, read by %s', (mode) => {
  const sizes = [0, 1, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 3 * CHUNK_BYTES + 17];
  it.each(sizes)('round trip of %i bytes: ciphertext on disk, the same bytes back', async (size) => {
    const { storage, pathOf } = setUp(undefined, mode);
    const bytes = content(size);
    const key = await put(storage, bytes);
    const onDisk = readFileSync(pathOf(key));
    expect(isEncrypted(onDisk)).toBe(true);
    const chunks = Math.max(1, Math.ceil(size / CHUNK_BYTES));
    expect(onDisk.length).toBe(HEADER_BYTES + size + chunks * TAG_BYTES);
    if (size >= 16) expect(onDisk.includes(bytes.subarray(0, 16))).toBe(false);
    const back = await read(storage, key);
    expect(back.size).toBe(size);
    expect(back.bytes.equals(bytes)).toBe(true);
  });

  it('streams 10 MB in and out: never more than a few chunks ahead of the other side', async () => {
    // Memory is what is read but not yet passed on: measured as that lag, in bytes, at every chunk
    // (a heap figure would mostly measure when the garbage collector last ran).
    const dir = mkdtempSync(join(tmpdir(), 'visa-enc-'));
    dirs.push(dir);
    const local = rawStorage(dir, mode);
    let sent = 0;
    let stored = 0;
    let readFromDisk = 0;
    let putLag = 0;
    const counting: FileStorage = {
      ...local,
      put: (key, body, meta) => {
        const counted = (async function* () {
          for await (const chunk of body) {
            stored += (chunk as Buffer).length;
            putLag = Math.max(putLag, sent - stored);
            yield chunk as Buffer;
          }
        })();
        return local.put(key, Readable.from(counted, { objectMode: false }), meta);
      },
      // Disk reads counted on either path (by position, or as a stream).
      openAt:
        local.openAt &&
        (async (key) => {
          const object = await local.openAt!(key);
          if (!object) return null;
          return {
            ...object,
            read: async (buffer, length, position) => {
              const read = await object.read(buffer, length, position);
              readFromDisk += read;
              return read;
            },
          };
        }),
      get: async (key, range) => {
        const object = await local.get(key, range);
        if (!object) return null;
        const body = object.body;
        const counted = (async function* () {
          for await (const chunk of body) {
            readFromDisk += (chunk as Buffer).length;
            yield chunk as Buffer;
          }
        })();
        return { ...object, body: Readable.from(counted, { objectMode: false }) };
      },
    };
    const storage = createEncryptedStorage(counting, fileKeyring(randomBytes(32)));
    const total = 10 * 1024 * 1024;
    const piece = randomBytes(16 * 1024);
    const source = Readable.from(
      (async function* () {
        while (sent < total) {
          sent += piece.length;
          yield piece;
        }
      })(),
    );
    const key = newStorageKey();
    await storage.put(key, source, { contentType: 'image/jpeg' });
    expect(stored).toBeGreaterThan(total);

    const object = await storage.get(key);
    expect(object?.size).toBe(total);
    let delivered = 0;
    let getLag = 0;
    for await (const chunk of object!.body) {
      delivered += (chunk as Buffer).length;
      getLag = Math.max(getLag, readFromDisk - delivered);
    }
    expect(delivered).toBe(total);
    expect(readFromDisk).toBeGreaterThan(total);
    expect(putLag).toBeLessThan(total / 10);
    expect(getLag).toBeLessThan(total / 10);
  });

  it('reads ranges at and across chunk boundaries, opening only the chunks they touch', async () => {
    const { storage } = setUp(undefined, mode);
    const bytes = content(3 * CHUNK_BYTES + 100);
    const key = await put(storage, bytes);
    const C = CHUNK_BYTES;
    const ranges = [
      [0, 0],
      [0, C - 1],
      [C - 1, C],
      [C, C],
      [C, 2 * C - 1],
      [C - 5, 2 * C + 5],
      [3 * C, 3 * C + 99],
      [3 * C + 50, 3 * C + 500], // past the end: clamped
      [17, 3 * C + 99],
    ] as const;
    for (const [start, end] of ranges) {
      const back = await read(storage, key, { start, end });
      expect(back.size, `${start}-${end}`).toBe(bytes.length);
      expect(back.bytes.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it('refuses a file with any one byte changed: header, first chunk, a later chunk, the last tag', async () => {
    const { storage, pathOf } = setUp(undefined, mode);
    const bytes = content(2 * CHUNK_BYTES + 10);
    for (const at of [2, 5, 10, 30, 80, HEADER_BYTES, HEADER_BYTES + 5, HEADER_BYTES + CHUNK_BYTES + 40, HEADER_BYTES + 2 * CHUNK_BYTES + 2 * TAG_BYTES + 3]) {
      const key = await put(storage, bytes);
      const file = readFileSync(pathOf(key));
      file[at]! ^= 0x01;
      writeFileSync(pathOf(key), file);
      const opened = storage.get(key).then((stored) => readAll(stored!.body));
      await expect(opened, `byte ${at}`).rejects.toBeInstanceOf(StoredFileDamagedError);
    }
  });

  it('refuses a damaged start before a byte is delivered, and a damaged later chunk before its bytes', async () => {
    const { storage, pathOf } = setUp(undefined, mode);
    const bytes = content(2 * CHUNK_BYTES + 10);
    const early = await put(storage, bytes);
    const file = readFileSync(pathOf(early));
    file[HEADER_BYTES + 3]! ^= 0x80;
    writeFileSync(pathOf(early), file);
    await expect(storage.get(early)).rejects.toThrow(/tampered/);

    const late = await put(storage, bytes);
    const lateFile = readFileSync(pathOf(late));
    lateFile[HEADER_BYTES + CHUNK_BYTES + TAG_BYTES + 3]! ^= 0x80;
    writeFileSync(pathOf(late), lateFile);
    const stored = await storage.get(late);
    const delivered: Buffer[] = [];
    await expect(
      (async () => {
        for await (const chunk of stored!.body) delivered.push(chunk as Buffer);
      })(),
    ).rejects.toThrow(/tampered/);
    // Only the first chunk, whose tag held, came out.
    expect(Buffer.concat(delivered).equals(bytes.subarray(0, CHUNK_BYTES))).toBe(true);
  });

  it('refuses a file cut short, or with its chunks swapped, or with bytes appended', async () => {
    const { storage, pathOf } = setUp(undefined, mode);
    const bytes = content(2 * CHUNK_BYTES);
    const sealed = CHUNK_BYTES + TAG_BYTES;
    const cut = await put(storage, bytes);
    writeFileSync(pathOf(cut), readFileSync(pathOf(cut)).subarray(0, HEADER_BYTES + sealed));
    await expect(storage.get(cut)).rejects.toBeInstanceOf(StoredFileDamagedError);

    const swapped = await put(storage, bytes);
    const file = readFileSync(pathOf(swapped));
    const [a, b] = [file.subarray(HEADER_BYTES, HEADER_BYTES + sealed), file.subarray(HEADER_BYTES + sealed)];
    writeFileSync(pathOf(swapped), Buffer.concat([file.subarray(0, HEADER_BYTES), b, a]));
    await expect(storage.get(swapped)).rejects.toBeInstanceOf(StoredFileDamagedError);

    const longer = await put(storage, bytes);
    writeFileSync(pathOf(longer), Buffer.concat([readFileSync(pathOf(longer)), Buffer.alloc(5)]));
    await expect(storage.get(longer).then((stored) => readAll(stored!.body))).rejects.toBeInstanceOf(StoredFileDamagedError);
  });

  it('refuses a file sealed under another master key', async () => {
    const first = setUp(undefined, mode);
    const key = await put(first.storage, content(1000));
    const other = createEncryptedStorage(first.raw, fileKeyring(randomBytes(32)));
    await expect(other.get(key)).rejects.toThrow(/unknown-key/);
  });

  it('serves a file stored before encryption as it is, whole and by range', async () => {
    const { raw, storage } = setUp(undefined, mode);
    const pdf = fixture('pdf');
    const key = await put(raw, pdf);
    expect((await read(storage, key)).bytes.equals(pdf)).toBe(true);
    expect((await read(storage, key, { start: 3, end: 9 })).bytes.equals(pdf.subarray(3, 10))).toBe(true);
  });

  it('refuses an object that is neither sealed nor a file type the platform accepts (a changed magic byte)', async () => {
    const { storage, pathOf } = setUp(undefined, mode);
    const key = await put(storage, content(500));
    const file = readFileSync(pathOf(key));
    file[1]! ^= 0x01;
    writeFileSync(pathOf(key), file);
    await expect(storage.get(key)).rejects.toThrow(/not-a-stored-file/);
  });

  it('encrypts files stored before encryption in place, and a second run (a resume) skips the done ones', async () => {
    const { raw, storage, pathOf } = setUp(undefined, mode);
    const files = [fixture('pdf'), fixture('png'), content(CHUNK_BYTES * 2 + 3)];
    const keys = [];
    for (const bytes of files) keys.push(await put(raw, bytes));
    // A first run stopped after one file.
    expect(await storage.encryptInPlace(keys[0]!)).toBe('encrypted');
    const results = [];
    for await (const key of storage.keys()) results.push([key, await storage.encryptInPlace(key)]);
    expect(Object.fromEntries(results)).toEqual({ [keys[0]!]: 'already-encrypted', [keys[1]!]: 'encrypted', [keys[2]!]: 'encrypted' });
    for (const [index, key] of keys.entries()) {
      expect(isEncrypted(readFileSync(pathOf(key)))).toBe(true);
      expect((await read(storage, key)).bytes.equals(files[index]!)).toBe(true);
    }
    expect(await storage.encryptInPlace(newStorageKey())).toBe('missing');
  });

  it('rotation: readers take both keys meanwhile; after the re-wrap the old key is no longer needed', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = setUp(fileKeyring(oldKey), mode);
    const bytes = content(CHUNK_BYTES + 9);
    const sealedOld = await put(before.storage, bytes);
    const legacy = await put(before.raw, fixture('pdf'));
    const ciphertextBefore = readFileSync(before.pathOf(sealedOld)).subarray(HEADER_BYTES);

    const during = createEncryptedStorage(before.raw, fileKeyring(newKey, oldKey));
    const sealedNew = await put(during, bytes);
    expect((await read(during, sealedOld)).bytes.equals(bytes)).toBe(true);
    expect((await read(during, sealedNew)).bytes.equals(bytes)).toBe(true);

    const outcome: Record<string, string> = {};
    for await (const key of during.keys()) outcome[key] = await during.rewrap(key);
    expect(outcome).toEqual({ [sealedOld]: 'rewrapped', [sealedNew]: 'current', [legacy]: 'plaintext' });
    // Only the header changed: the content was not decrypted and sealed again.
    expect(readFileSync(before.pathOf(sealedOld)).subarray(HEADER_BYTES).equals(ciphertextBefore)).toBe(true);

    const after = createEncryptedStorage(before.raw, fileKeyring(newKey));
    expect((await read(after, sealedOld)).bytes.equals(bytes)).toBe(true);
    expect((await read(after, sealedNew)).bytes.equals(bytes)).toBe(true);
    await expect(before.storage.get(sealedOld)).rejects.toThrow(/unknown-key/);
  });

  it('a rotation refuses (and leaves alone) a file under a key it was not given', async () => {
    const { raw, storage } = setUp(undefined, mode);
    const key = await put(storage, content(100));
    const stranger = createEncryptedStorage(raw, fileKeyring(randomBytes(32)));
    await expect(stranger.rewrap(key)).rejects.toThrow(/unknown-key/);
    expect((await read(storage, key)).bytes.length).toBe(100);
  });
});

describe('a damaged file is logged when opened', () => {
  it('names the kind, the key and why (never a key)', async () => {
    const { storage, pathOf } = setUp();
    const key = await put(storage, content(100));
    const file = readFileSync(pathOf(key));
    file[HEADER_BYTES + 1]! ^= 0x01;
    writeFileSync(pathOf(key), file);
    const logged: Array<[object, string]> = [];
    const files = createStoredFiles({} as never, { name: 'material', table: 'order_material_file', idColumn: 'file_id', retention: {} } as never, {
      storage,
      maxBytes: 1024,
      now: Date.now,
      log: { error: (obj, msg) => logged.push([obj, msg]) },
    });
    await expect(files.open({ storage_key: key })).rejects.toBeInstanceOf(StoredFileDamagedError);
    expect(logged).toEqual([[{ fileKind: 'material', storageKey: key, reason: 'tampered' }, 'stored file refused: it does not open (damaged or tampered)']]);
  });
});
