// Every stored file encrypted at rest (decision 0043): this wraps the raw
// storage (disk or bucket) so that whatever any kind of file stores is sealed
// on its way in and opened on its way out (envelope.ts), and nothing else in
// the code base sees ciphertext or keys. A file stored before encryption (no
// header) is still served as it is, if its first bytes are those of a type the
// platform accepts; `npm run files:encrypt` seals those in place. A file that
// does not open — a changed byte, cut short, a master key this server lacks —
// is refused with StoredFileDamagedError, never served: get() opens the first
// chunk before it answers, so a damaged start fails before any byte is sent,
// and a later damaged chunk ends the stream with that error instead of its bytes.
import { Readable } from 'node:stream';
import {
  ByteReader,
  CHUNK_BYTES,
  decryptAt,
  decryptChunks,
  encryptStream,
  HEADER_BYTES,
  isEncrypted,
  layoutOf,
  type OpenPlan,
  parseHeader,
  rewrapHeader,
  StoredFileDamagedError,
  TAG_BYTES,
  unwrapDataKey,
} from './envelope.ts';
import { type FileKeyring, keyById } from './file-keys.ts';
import { detectContentType } from './file-type.ts';
import type { ByteRange, FileStorage, StoredObject } from './storage.ts';

export interface EncryptedFileStorage extends FileStorage {
  readonly encrypted: true;
  /** Seals a file stored before encryption, in place (the object is replaced whole, atomically). */
  encryptInPlace(key: string): Promise<'encrypted' | 'already-encrypted' | 'missing'>;
  /** Re-wraps a file's data key under the current master key (its content is not touched). */
  rewrap(key: string): Promise<'rewrapped' | 'current' | 'plaintext' | 'missing'>;
}

/** The bytes already read, then the rest of the stream. */
async function* prepend(first: Buffer[], rest: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for (const chunk of first) if (chunk.length > 0) yield chunk;
  yield* rest;
}

/** A stream of a generator whose first piece is already taken (so its failure came before the answer). */
function streamOf(first: IteratorResult<Buffer>, rest: AsyncGenerator<Buffer>): Readable {
  // A quarter MiB buffered ahead: with the default 16 KiB the stream waited for the socket between
  // every two chunks and served at about half the plain file's speed (bench:files, 2026-11-29).
  return Readable.from(prepend(first.done ? [] : [first.value], rest), { objectMode: false, highWaterMark: 256 * 1024 });
}

export function createEncryptedStorage(raw: FileStorage, keyring: FileKeyring): EncryptedFileStorage {
  /** Which chunks of a sealed object of `storedBytes` hold `range` (or all of it), and its data key. */
  function planOf(head: Buffer, storedBytes: number, range?: ByteRange): OpenPlan & { plainBytes: number } {
    const header = parseHeader(head);
    const dataKey = unwrapDataKey(head, keyring);
    const layout = layoutOf(storedBytes, header.chunkBytes);
    const start = range ? Math.min(range.start, layout.plainBytes) : 0;
    const end = range ? Math.min(range.end, layout.plainBytes - 1) : layout.plainBytes - 1;
    const first = Math.min(Math.floor(start / header.chunkBytes), layout.chunks - 1);
    const last = range ? Math.max(first, Math.min(Math.floor(end / header.chunkBytes), layout.chunks - 1)) : layout.chunks - 1;
    return {
      dataKey,
      header,
      chunks: layout.chunks,
      lastSealedBytes: layout.lastSealedBytes,
      first,
      last,
      skip: start - first * header.chunkBytes,
      take: Math.max(0, end - start + 1),
      plainBytes: layout.plainBytes,
    };
  }

  /**
   * A sealed object on a store that reads by position (local disk): each chunk read
   * whole into one reused buffer. Undefined when the object is not sealed (the
   * stream path below serves files stored before encryption).
   */
  async function getAt(open: NonNullable<FileStorage['openAt']>, key: string, range?: ByteRange): Promise<StoredObject | null | undefined> {
    const object = await open(key);
    if (!object) return null;
    let owned = false;
    try {
      const head = Buffer.alloc(HEADER_BYTES);
      const read = await object.read(head, HEADER_BYTES, 0);
      if (!isEncrypted(head.subarray(0, read))) return undefined;
      const plan = planOf(head, object.size, range);
      const chunks = decryptAt((buffer, length, position) => object.read(buffer, length, position), plan);
      // The first chunk is opened (and its tag checked) before anything is answered.
      let first: IteratorResult<Buffer> | null = await chunks.next();
      owned = true;
      // A plain Readable over the chunks (no generator layers between them and the socket),
      // a quarter MiB read ahead; the object is closed when the stream ends or is destroyed.
      const body = new Readable({
        highWaterMark: 256 * 1024,
        read() {
          const ready = first;
          first = null;
          if (ready) this.push(ready.done ? null : ready.value);
          else
            chunks.next().then(
              (next) => this.push(next.done ? null : next.value),
              (error: Error) => this.destroy(error),
            );
        },
        destroy(error, callback) {
          object.close().then(
            () => callback(error),
            (closeError: Error) => callback(error ?? closeError),
          );
        },
      });
      return { body, size: plan.plainBytes };
    } finally {
      if (!owned) await object.close();
    }
  }

  /** The raw object's first bytes (its header, if sealed) and a reader positioned after them. */
  async function openRaw(key: string, range?: ByteRange) {
    const stored = await raw.get(key, range);
    if (!stored) return null;
    const reader = new ByteReader(stored.body[Symbol.asyncIterator]());
    const head = await reader.read(HEADER_BYTES);
    return { stored, reader, head };
  }

  async function get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    if (raw.openAt) {
      const sealed = await getAt(raw.openAt, key, range);
      if (sealed !== undefined) return sealed;
    }
    // A range needs only the header first; the chunks it touches are a second read.
    const opened = await openRaw(key, range ? { start: 0, end: HEADER_BYTES - 1 } : undefined);
    if (!opened) return null;
    const { stored, reader, head } = opened;
    if (!isEncrypted(head)) {
      // Stored before encryption: served as it is only if it is what it claims to be (a changed
      // magic byte would otherwise pass a sealed file off as plaintext).
      if (detectContentType(head) === null) {
        await reader.close();
        throw new StoredFileDamagedError('not-a-stored-file');
      }
      if (!range) return { body: Readable.from(prepend([head], reader.rest()), { objectMode: false }), size: stored.size };
      await reader.close();
      return raw.get(key, range);
    }
    let plan: OpenPlan & { plainBytes: number };
    try {
      if (stored.size === null) throw new Error(`stored object ${key} has no known size`);
      plan = planOf(head, stored.size, range);
    } catch (error) {
      await reader.close();
      throw error;
    }
    let chunkReader = reader;
    if (range) {
      await reader.close();
      const sealed = plan.header.chunkBytes + TAG_BYTES;
      const from = HEADER_BYTES + plan.first * sealed;
      const chunks = await raw.get(key, { start: from, end: HEADER_BYTES + (plan.last + 1) * sealed - 1 });
      if (!chunks) return null;
      chunkReader = new ByteReader(chunks.body[Symbol.asyncIterator]());
    }
    const plain = decryptChunks(chunkReader, plan);
    // The first chunk is opened (and its tag checked) before anything is answered.
    const first = await plain.next();
    return { body: streamOf(first, plain), size: plan.plainBytes };
  }

  return {
    kind: raw.kind,
    encrypted: true,

    async put(key, body) {
      // The object is ciphertext whatever the file is (its type is in the database).
      await raw.put(key, Readable.from(encryptStream(body, keyring), { objectMode: false }), { contentType: 'application/octet-stream' });
    },

    get,

    delete: (key) => raw.delete(key),

    keys: () => raw.keys(),

    async encryptInPlace(key) {
      const opened = await openRaw(key);
      if (!opened) return 'missing';
      if (isEncrypted(opened.head)) {
        await opened.reader.close();
        return 'already-encrypted';
      }
      const plain = prepend([opened.head], opened.reader.rest());
      await raw.put(key, Readable.from(encryptStream(plain, keyring), { objectMode: false }), { contentType: 'application/octet-stream' });
      return 'encrypted';
    },

    async rewrap(key) {
      const opened = await openRaw(key);
      if (!opened) return 'missing';
      const { head, reader } = opened;
      if (!isEncrypted(head)) {
        await reader.close();
        return 'plaintext';
      }
      let rewrapped: Buffer;
      try {
        const header = parseHeader(head);
        if (keyring.current.id.equals(header.keyId)) {
          await reader.close();
          return 'current';
        }
        if (!keyById(keyring, header.keyId)) throw new StoredFileDamagedError('unknown-key');
        rewrapped = rewrapHeader(head, keyring);
      } catch (error) {
        await reader.close();
        throw error;
      }
      await raw.put(key, Readable.from(prepend([rewrapped], reader.rest()), { objectMode: false }), { contentType: 'application/octet-stream' });
      return 'rewrapped';
    },
  };
}

export { CHUNK_BYTES, StoredFileDamagedError };
