// Compression of rendered pages: the encoding a client accepts, and a freshly
// rendered body compressed for its one response (a cached page is spliced
// instead: page-template.ts).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'identity';

/** Whether the client accepts this encoding (honouring q=0 and *). */
export function acceptsEncoding(acceptEncoding: string | undefined, name: 'br' | 'gzip'): boolean {
  if (!acceptEncoding) return false;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    if (coding) accepted.set(coding, q ? Number(q[1]) : 1);
  }
  return (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
}

/** The best encoding the client accepts (br over gzip), honouring q=0. */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding {
  if (acceptsEncoding(acceptEncoding, 'br')) return 'br';
  if (acceptsEncoding(acceptEncoding, 'gzip')) return 'gzip';
  return 'identity';
}

export interface EncodedBodies {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** Bodies below this size are sent as they are. */
const MIN_COMPRESS_BYTES = 1024;

export function encodedBody(bodies: EncodedBodies, encoding: Encoding): { body: Buffer; encoding: Encoding } {
  if (encoding === 'identity' || bodies.identity.length < MIN_COMPRESS_BYTES) return { body: bodies.identity, encoding: 'identity' };
  if (encoding === 'br') {
    // Quality 5: most of brotli's gain at a small fraction of quality 11's time.
    bodies.br ??= brotliCompressSync(bodies.identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bodies.identity.length },
    });
    return { body: bodies.br, encoding };
  }
  bodies.gzip ??= gzipSync(bodies.identity, { level: 6 });
  return { body: bodies.gzip, encoding };
}
