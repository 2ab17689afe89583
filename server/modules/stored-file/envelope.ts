// The format of an encrypted stored file (decision 0043). Each file has its own
// random 256-bit data key; the content is sealed with AES-256-GCM in chunks of
// 64 KiB, each with its own nonce (a per-file random prefix and the chunk's
// index) and its own tag, the index and whether it is the last chunk being
// authenticated too — so chunks can be neither reordered, nor dropped, nor cut
// off at the end. Whole files and byte ranges are sealed and opened as streams:
// memory holds a chunk or two whatever the file's size, and a range opens only
// the chunks it touches. The data key is wrapped (AES-256-GCM) by a master key
// (file-keys.ts) in a fixed-size header at the start of the object, the same on
// disk and in a bucket:
//
//   0  magic 89 'V' 'F' 'E'       4   version (1)       5  log2 of the chunk size
//   6  master key id (8)          14  wrap nonce (12)   26 wrapped data key (32)
//   58 wrap tag (16)              74  content nonce prefix (8)               = 82
//
// The magic cannot begin any file the platform accepts (JPEG, PNG, PDF, …), so
// a file stored before encryption is told apart by its first bytes.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type FileKeyring, keyById, type MasterKey } from './file-keys.ts';

export const MAGIC = Buffer.from([0x89, 0x56, 0x46, 0x45]);
export const VERSION = 1;
export const HEADER_BYTES = 82;
export const CHUNK_LOG2 = 16;
export const CHUNK_BYTES = 1 << CHUNK_LOG2;
export const TAG_BYTES = 16;

/** A stored file that cannot be opened: changed, cut short, or sealed under a master key this server lacks. Never served. */
export class StoredFileDamagedError extends Error {
  constructor(readonly reason: 'tampered' | 'truncated' | 'unknown-key' | 'not-a-stored-file') {
    super(`stored file cannot be opened (${reason})`);
    this.name = 'StoredFileDamagedError';
  }
}

export interface FileHeader {
  keyId: Buffer;
  chunkBytes: number;
  noncePrefix: Buffer;
  wrapNonce: Buffer;
  wrappedKey: Buffer;
  wrapTag: Buffer;
}

export function isEncrypted(head: Buffer): boolean {
  return head.length >= MAGIC.length + 1 && head.subarray(0, 4).equals(MAGIC) && head[4] === VERSION;
}

/** What the wrap authenticates besides the key: the header's fixed fields and the nonce prefix. */
function wrapAad(header: Buffer): Buffer {
  return Buffer.concat([header.subarray(0, 14), header.subarray(74, 82)]);
}

export function parseHeader(header: Buffer): FileHeader {
  if (header.length < HEADER_BYTES || !isEncrypted(header)) throw new StoredFileDamagedError('tampered');
  const log2 = header[5]!;
  if (log2 < 10 || log2 > 24) throw new StoredFileDamagedError('tampered');
  return {
    keyId: header.subarray(6, 14),
    chunkBytes: 1 << log2,
    wrapNonce: header.subarray(14, 26),
    wrappedKey: header.subarray(26, 58),
    wrapTag: header.subarray(58, 74),
    noncePrefix: header.subarray(74, 82),
  };
}

/** A header sealing `dataKey` under `master`. */
export function buildHeader(dataKey: Buffer, master: MasterKey, noncePrefix: Buffer, chunkLog2 = CHUNK_LOG2): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header[4] = VERSION;
  header[5] = chunkLog2;
  master.id.copy(header, 6);
  const wrapNonce = randomBytes(12);
  wrapNonce.copy(header, 14);
  noncePrefix.copy(header, 74);
  const cipher = createCipheriv('aes-256-gcm', master.key, wrapNonce);
  cipher.setAAD(wrapAad(header));
  const wrapped = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  wrapped.copy(header, 26);
  cipher.getAuthTag().copy(header, 58);
  return header;
}

/** The file's data key (refused: a master key this server does not have, or a changed header). */
export function unwrapDataKey(header: Buffer, keyring: FileKeyring): Buffer {
  const parsed = parseHeader(header);
  const master = keyById(keyring, parsed.keyId);
  if (!master) throw new StoredFileDamagedError('unknown-key');
  try {
    const decipher = createDecipheriv('aes-256-gcm', master.key, parsed.wrapNonce);
    decipher.setAAD(wrapAad(header));
    decipher.setAuthTag(parsed.wrapTag);
    return Buffer.concat([decipher.update(parsed.wrappedKey), decipher.final()]);
  } catch {
    throw new StoredFileDamagedError('tampered');
  }
}

/** The same file's header with its data key wrapped under the keyring's current key (rotation). */
export function rewrapHeader(header: Buffer, keyring: FileKeyring): Buffer {
  const parsed = parseHeader(header);
  return buildHeader(unwrapDataKey(header, keyring), keyring.current, Buffer.from(parsed.noncePrefix), Math.log2(parsed.chunkBytes));
}

function chunkNonce(prefix: Buffer, index: number): Buffer {
  const nonce = Buffer.alloc(12);
  prefix.copy(nonce, 0);
  nonce.writeUInt32BE(index, 8);
  return nonce;
}

function chunkAad(index: number, final: boolean): Buffer {
  const aad = Buffer.alloc(5);
  aad.writeUInt32BE(index, 0);
  aad[4] = final ? 1 : 0;
  return aad;
}

export function sealChunk(dataKey: Buffer, prefix: Buffer, index: number, final: boolean, plain: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', dataKey, chunkNonce(prefix, index));
  cipher.setAAD(chunkAad(index, final));
  const sealed = cipher.update(plain);
  const last = cipher.final();
  return Buffer.concat([sealed, last, cipher.getAuthTag()]);
}

/** A chunk's plaintext, returned only once its tag is verified (nothing unauthenticated leaves here). */
export function openChunk(dataKey: Buffer, prefix: Buffer, index: number, final: boolean, sealed: Buffer): Buffer {
  if (sealed.length < TAG_BYTES) throw new StoredFileDamagedError('truncated');
  try {
    const decipher = createDecipheriv('aes-256-gcm', dataKey, chunkNonce(prefix, index));
    decipher.setAAD(chunkAad(index, final));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    const plain = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
    const last = decipher.final();
    return last.length === 0 ? plain : Buffer.concat([plain, last]);
  } catch {
    throw new StoredFileDamagedError('tampered');
  }
}

/** The layout of an encrypted object of `storedBytes` bytes: its chunks and the plaintext's size. */
export function layoutOf(storedBytes: number, chunkBytes: number): { chunks: number; plainBytes: number; lastSealedBytes: number } {
  const body = storedBytes - HEADER_BYTES;
  if (body < TAG_BYTES) throw new StoredFileDamagedError('truncated');
  const sealedChunk = chunkBytes + TAG_BYTES;
  const chunks = Math.max(1, Math.ceil(body / sealedChunk));
  const lastSealedBytes = body - (chunks - 1) * sealedChunk;
  if (lastSealedBytes < TAG_BYTES) throw new StoredFileDamagedError('truncated');
  return { chunks, plainBytes: body - chunks * TAG_BYTES, lastSealedBytes };
}

/** Reads exact byte counts from a stream of buffers (without copying when a buffer holds enough). */
export class ByteReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private done = false;
  constructor(private readonly source: AsyncIterator<Buffer | string>) {}

  private async pull(): Promise<boolean> {
    if (this.done) return false;
    const next = await this.source.next();
    if (next.done) {
      this.done = true;
      return false;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    if (chunk.length > 0) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
    }
    return true;
  }

  /** Exactly n bytes, or fewer at the end of the stream. */
  async read(n: number): Promise<Buffer> {
    while (this.pendingBytes < n && (await this.pull()));
    const first = this.pending[0];
    if (first && first.length >= n) {
      const taken = first.subarray(0, n);
      if (first.length === n) this.pending.shift();
      else this.pending[0] = first.subarray(n);
      this.pendingBytes -= n;
      return taken;
    }
    const all = Buffer.concat(this.pending);
    const taken = all.subarray(0, n);
    const rest = all.subarray(n);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    return taken;
  }

  /** Exactly n bytes (fewer at the end of the stream) as the pieces they arrive in: nothing is copied. */
  async *pieces(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0 && (this.pending.length > 0 || (await this.pull()))) {
      const first = this.pending[0]!;
      const piece = first.length <= left ? first : first.subarray(0, left);
      if (piece === first) this.pending.shift();
      else this.pending[0] = first.subarray(left);
      this.pendingBytes -= piece.length;
      left -= piece.length;
      yield piece;
    }
  }

  async atEnd(): Promise<boolean> {
    while (this.pendingBytes === 0 && (await this.pull()));
    return this.pendingBytes === 0;
  }

  /** Everything not read yet, as it comes. */
  async *rest(): AsyncGenerator<Buffer> {
    while (this.pending.length > 0 || (await this.pull())) {
      const chunk = this.pending.shift();
      if (chunk) {
        this.pendingBytes -= chunk.length;
        yield chunk;
      }
    }
  }

  /** Stops reading the source (its stream is destroyed). */
  async close(): Promise<void> {
    this.done = true;
    await this.source.return?.();
  }
}

/** The encrypted object of a plaintext stream: a new data key, the header, then the sealed chunks. */
export async function* encryptStream(source: AsyncIterable<Buffer | string>, keyring: FileKeyring): AsyncGenerator<Buffer> {
  const dataKey = randomBytes(32);
  const prefix = randomBytes(8);
  yield buildHeader(dataKey, keyring.current, prefix);
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  try {
    for (let index = 0; ; index++) {
      const plain = await reader.read(CHUNK_BYTES);
      const final = plain.length < CHUNK_BYTES || (await reader.atEnd());
      yield sealChunk(dataKey, prefix, index, final, plain);
      if (final) return;
    }
  } finally {
    await reader.close();
  }
}

export interface OpenPlan {
  dataKey: Buffer;
  header: FileHeader;
  /** The object's chunks, in all. */
  chunks: number;
  lastSealedBytes: number;
  /** Chunks read: first … last (inclusive); `reader` starts at the first one's first byte. */
  first: number;
  last: number;
  /** Plaintext bytes skipped at the start of the first chunk, and how many are delivered. */
  skip: number;
  take: number;
}

/**
 * One sealed chunk's plaintext, returned only once its tag is verified (nothing
 * unauthenticated leaves here). The ciphertext goes through the decipher in the
 * pieces the storage delivers it in — a sealed chunk (64 KiB + its tag) never
 * lines up with a disk read or a bucket's packets, and joining the pieces first
 * cost a copy of every chunk (bench:files, 2026-11-29).
 */
async function openChunkFrom(reader: ByteReader, dataKey: Buffer, prefix: Buffer, index: number, final: boolean, sealedBytes: number): Promise<Buffer[]> {
  const decipher = createDecipheriv('aes-256-gcm', dataKey, chunkNonce(prefix, index));
  decipher.setAAD(chunkAad(index, final));
  const plain: Buffer[] = [];
  let read = 0;
  for await (const piece of reader.pieces(sealedBytes - TAG_BYTES)) {
    read += piece.length;
    plain.push(decipher.update(piece));
  }
  const tag = await reader.read(TAG_BYTES);
  if (read + tag.length < sealedBytes) throw new StoredFileDamagedError('truncated');
  try {
    decipher.setAuthTag(tag);
    const last = decipher.final();
    if (last.length > 0) plain.push(last);
  } catch {
    throw new StoredFileDamagedError('tampered');
  }
  return plain;
}

/** Sealed chunks read at once by decryptAt (a quarter MiB of content per read). */
const CHUNKS_PER_READ = 4;

/** Bytes of chunk `index` as stored (the last one is shorter). */
function sealedBytesOf(plan: OpenPlan, index: number): number {
  return index === plan.chunks - 1 ? plan.lastSealedBytes : plan.header.chunkBytes + TAG_BYTES;
}

/** The part of each opened piece that the plan delivers: `plan.skip` bytes dropped, then `plan.take` passed. */
function plainWindow(plan: OpenPlan): (piece: Buffer) => Buffer {
  let skip = plan.skip;
  let left = plan.take;
  return (piece) => {
    if (skip > 0) {
      const skipped = Math.min(skip, piece.length);
      piece = piece.subarray(skipped);
      skip -= skipped;
    }
    if (piece.length > left) piece = piece.subarray(0, left);
    left -= piece.length;
    return piece;
  };
}

/**
 * The same from an object read by position: a few sealed chunks are read whole
 * into one buffer used again for the next few (the decipher copies what it
 * keeps), so serving a file allocates no more than its plaintext.
 */
export async function* decryptAt(read: (buffer: Buffer, length: number, position: number) => Promise<number>, plan: OpenPlan): AsyncGenerator<Buffer> {
  const { dataKey, header } = plan;
  const sealedChunk = header.chunkBytes + TAG_BYTES;
  const buffer = Buffer.allocUnsafe(sealedChunk * Math.min(CHUNKS_PER_READ, plan.last - plan.first + 1));
  const window = plainWindow(plan);
  for (let index = plan.first; index <= plan.last;) {
    const count = Math.min(CHUNKS_PER_READ, plan.last - index + 1);
    const bytes = (count - 1) * sealedChunk + sealedBytesOf(plan, index + count - 1);
    if ((await read(buffer, bytes, HEADER_BYTES + index * sealedChunk)) < bytes) throw new StoredFileDamagedError('truncated');
    for (let offset = 0; offset < bytes; index++) {
      const sealedBytes = sealedBytesOf(plan, index);
      const plain = window(openChunk(dataKey, header.noncePrefix, index, index === plan.chunks - 1, buffer.subarray(offset, offset + sealedBytes)));
      offset += sealedBytes;
      if (plain.length > 0) yield plain;
    }
  }
}

/** The plaintext of chunks plan.first … plan.last, each only after its tag is verified. */
export async function* decryptChunks(reader: ByteReader, plan: OpenPlan): AsyncGenerator<Buffer> {
  const { dataKey, header } = plan;
  const window = plainWindow(plan);
  try {
    for (let index = plan.first; index <= plan.last; index++) {
      const final = index === plan.chunks - 1;
      for (const piece of await openChunkFrom(reader, dataKey, header.noncePrefix, index, final, sealedBytesOf(plan, index))) {
        const plain = window(piece);
        if (plain.length > 0) yield plain;
      }
    }
    // A whole file: nothing may follow its final chunk.
    if (plan.last === plan.chunks - 1 && !(await reader.atEnd())) throw new StoredFileDamagedError('tampered');
  } finally {
    await reader.close();
  }
}
