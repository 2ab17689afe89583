// Reading an uploaded file exactly once, as a stream: its first bytes decide
// its type before anything is stored, then the rest flows to the storage
// while it is counted and hashed. Past the size limit the stream fails (the
// storage then drops what it wrote). Memory stays at a few chunks whatever
// the file's size.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { MaterialContentType } from '../../../common/material.ts';
import { detectContentType, SNIFF_BYTES } from './file-type.ts';

export interface InspectedUpload {
  /** null when the first bytes match no accepted type; 0 bytes read means an empty file. */
  contentType: MaterialContentType | null;
  empty: boolean;
  /** The whole file (the sniffed bytes first); fails with tooLarge() past maxBytes. */
  body: Readable;
  /** Size and SHA-256 of what `body` delivered; complete once it has ended. */
  digest(): { size: number; sha256: string };
  /** Stops reading the source (a refused file). */
  discard(): Promise<void>;
}

export async function inspectUpload(source: AsyncIterable<Buffer>, options: { maxBytes: number; tooLarge: () => Error }): Promise<InspectedUpload> {
  const iterator = source[Symbol.asyncIterator]();
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let sourceDone = false;
  while (headLength < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      sourceDone = true;
      break;
    }
    headChunks.push(next.value);
    headLength += next.value.length;
  }
  const head = Buffer.concat(headChunks);

  const hash = createHash('sha256');
  let size = 0;
  const take = (chunk: Buffer): Buffer => {
    size += chunk.length;
    if (size > options.maxBytes) throw options.tooLarge();
    hash.update(chunk);
    return chunk;
  };
  let sha256: string | null = null;

  async function* chunks(): AsyncGenerator<Buffer> {
    let finished = sourceDone;
    try {
      if (head.length > 0) yield take(head);
      while (!finished) {
        const next = await iterator.next();
        if (next.done) {
          finished = true;
          break;
        }
        yield take(next.value);
      }
      sha256 = hash.digest('hex');
    } finally {
      // Stopped early (limit, storage error, client gone): release the source.
      if (!finished) await iterator.return?.();
    }
  }

  return {
    contentType: detectContentType(head),
    empty: head.length === 0,
    body: Readable.from(chunks(), { objectMode: false }),
    digest() {
      if (sha256 === null) throw new Error('the upload has not been read to its end');
      return { size, sha256 };
    },
    async discard() {
      if (!sourceDone) await iterator.return?.();
    },
  };
}
