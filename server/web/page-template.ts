// A rendered page kept as a template: the HTML split where its CSP nonce
// stood, so every response can carry a fresh nonce (decision 0013). Filling
// the identity body is a copy. The gzip body is spliced from parts compressed
// once: each part is its own raw-deflate run ending byte-aligned (sync flush),
// the nonce goes between them as a stored (uncompressed) block, and only the
// CRC of the whole is computed per response. Brotli has no such seams, so a
// cached page goes out gzip-compressed.
import { constants, crc32, deflateRawSync } from 'node:zlib';

export interface PageTemplate {
  /** The HTML between the nonce's occurrences. */
  parts: Buffer[];
  /** Each part raw-deflated, made on first use. */
  deflated?: Buffer[];
}

export function templateOf(body: Buffer, nonce: string): PageTemplate {
  const needle = Buffer.from(nonce);
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(needle, from); at !== -1; at = body.indexOf(needle, from)) {
    parts.push(body.subarray(from, at));
    from = at + needle.length;
  }
  parts.push(body.subarray(from));
  return { parts };
}

export function templateBytes(template: PageTemplate): number {
  const sum = (buffers: Buffer[] | undefined) => (buffers ?? []).reduce((total, b) => total + b.length, 0);
  return sum(template.parts) + sum(template.deflated);
}

export function fillIdentity(template: PageTemplate, nonce: string): Buffer {
  const filler = Buffer.from(nonce);
  const pieces: Buffer[] = [];
  template.parts.forEach((part, i) => {
    if (i > 0) pieces.push(filler);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}

// Header: magic, deflate, no flags, no mtime, no extra flags, unknown OS.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);

/** A non-final stored block: the bytes as they are (at most 65,535). */
function storedBlock(bytes: Buffer): Buffer {
  const length = bytes.length;
  if (length > 0xffff) throw new Error('stored block too long');
  return Buffer.concat([Buffer.from([0x00, length & 0xff, length >> 8, ~length & 0xff, (~length >> 8) & 0xff]), bytes]);
}

export function fillGzip(template: PageTemplate, nonce: string): Buffer {
  const last = template.parts.length - 1;
  template.deflated ??= template.parts.map((part, i) =>
    deflateRawSync(part, { level: 6, finishFlush: i === last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH }),
  );
  const filler = Buffer.from(nonce);
  const pieces: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  template.parts.forEach((part, i) => {
    if (i > 0) {
      pieces.push(storedBlock(filler));
      crc = crc32(filler, crc);
      size += filler.length;
    }
    pieces.push(template.deflated![i]!);
    crc = crc32(part, crc);
    size += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  pieces.push(trailer);
  return Buffer.concat(pieces);
}
