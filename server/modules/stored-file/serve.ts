// The two GET routes of a kind of stored file: the customer's under its
// customerPath (the session from X-Token or the `token` cookie) and the
// operators' under its adminPath (X-Token or the `admin_token` cookie).
// Who may see which file is fileFor's (stored-files.ts); anything it refuses,
// a bad id, no session or a missing object is the same plain 404 (nothing to
// tell apart). Files are served inline under their cleaned name with the real
// type's extension, never sniffed, never kept by shared caches: the customer's
// copy is revalidated each time (private, no-cache) so a deleted file or an
// ended session shows at once; an operator's open is logged, so it is never
// answered from a cache (private, no-store). A single `Range: bytes=…` is
// answered 206 with only those bytes (the interview video, a long PDF), which
// the storage decrypts chunk by chunk (decision 0043). A file that does not
// open — changed on disk, cut short — is never served: its start fails before
// the answer (1836 in the envelope), a later chunk ends the download unfinished.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STORAGE_KEYS } from '../../../common/constants.ts';
import { ERROR_CATALOGUE, ErrorCode } from '../../../common/error-codes.ts';
import type { MaterialContentType } from '../../../common/material.ts';
import { cookieValue } from '../../web/cookies.ts';
import { contentDisposition } from './file-name.ts';
import type { StoredFileRow, StoredFileTable } from './kind.ts';
import { StoredFileDamagedError } from './envelope.ts';
import type { ByteRange, StoredObject } from './storage.ts';
import type { StoredFiles } from './stored-files.ts';

/** Who is asking, from a session token (the account and operator services). */
export interface FileRouteAuth {
  customer: (token: string | undefined) => Promise<{ enterpriseId: number } | null>;
  operator: (token: string | undefined) => Promise<{ operatorId: number } | null>;
}

/** What a frame of our own pages needs (PDFs inline): framing by our origin only, nothing else loaded. */
const FRAMED_HEADERS = {
  'x-frame-options': 'SAMEORIGIN',
  'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
  'x-robots-tag': 'noindex',
};

export function notFound(reply: FastifyReply) {
  return reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not Found');
}

/**
 * The one range of a `Range` header within `size` bytes; null: answer the whole file
 * (no header, several ranges, a malformed one), 'unsatisfiable': 416.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim()) : null;
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Number(to);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end: Math.min(end, size - 1) };
}

/** A row id of the URL (1 … 2^31 − 1), else 0. */
export function idOf(raw: string): number {
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : 0;
  return id > 2_147_483_647 ? 0 : id;
}

export function tokenOf(request: FastifyRequest, cookie: string): string | undefined {
  const header = request.headers['x-token'];
  return typeof header === 'string' && header !== '' ? header : cookieValue(request, cookie);
}

/** A stored file's columns the answer needs. */
export interface ServedFile {
  storage_key: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
}

/** The file's headers: inline under its cleaned name, its real type, never sniffed; framed: by our own pages only. */
export function describeFile(reply: FastifyReply, file: ServedFile, cache: string, framed: boolean) {
  reply
    .header('content-type', file.content_type)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', contentDisposition(file.file_name, file.content_type as MaterialContentType))
    .header('cache-control', cache);
  if (framed) reply.headers(FRAMED_HEADERS);
}

/** The stored bytes (or the range asked for); a row whose object is gone is the same plain 404 (`open` logs it). */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: ServedFile,
  open: (file: ServedFile, range?: ByteRange) => Promise<StoredObject | null>,
) {
  const clear = () => {
    for (const name of ['etag', 'content-type', 'content-disposition', 'accept-ranges', ...Object.keys(FRAMED_HEADERS)]) reply.removeHeader(name);
  };
  reply.header('accept-ranges', 'bytes');
  const size = file.size_bytes;
  // If-Range naming another version of the file: the whole file, as if no range was asked.
  const ifRange = request.headers['if-range'];
  const rangeHeader = ifRange === undefined || ifRange === reply.getHeader('etag') ? request.headers.range : undefined;
  const range = parseRange(rangeHeader, size);
  if (range === 'unsatisfiable') {
    clear();
    return reply.code(416).header('content-range', `bytes */${size}`).header('cache-control', 'no-store').send();
  }
  let stored;
  try {
    stored = await open(file, range ?? undefined);
  } catch (error) {
    if (!(error instanceof StoredFileDamagedError)) throw error;
    // Refused before any byte (open logged it): the envelope, not the file's headers.
    clear();
    const ret = ErrorCode.STORED_FILE_DAMAGED;
    return reply.code(ERROR_CATALOGUE[ret].http).header('cache-control', 'no-store').send({ ret, msg: ERROR_CATALOGUE[ret].msg, body: null });
  }
  if (!stored) {
    clear();
    return notFound(reply);
  }
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', String(range.end - range.start + 1));
  } else {
    reply.header('content-length', String(stored.size ?? size));
  }
  return reply.send(stored.body);
}

export function registerFileRoutes<T extends StoredFileTable>(app: FastifyInstance, files: StoredFiles<T>, auth: FileRouteAuth): void {
  const { kind } = files;
  const describe = describeFile;
  const send = (request: FastifyRequest, reply: FastifyReply, file: StoredFileRow<T>) => sendStoredFile(request, reply, file, files.open);

  app.get<{ Params: { fileId: string } }>(`${kind.customerPath}:fileId`, { compress: false, schema: { hide: true } }, async (request, reply) => {
    const id = idOf(request.params.fileId);
    if (id === 0) return notFound(reply);
    const account = await auth.customer(tokenOf(request, STORAGE_KEYS.tokenCookie));
    const file = account ? await files.fileFor({ kind: 'customer', enterpriseId: account.enterpriseId }, id) : null;
    if (!file) return notFound(reply);
    describe(reply, file, 'private, no-cache', kind.customerCopy.framed);
    if (kind.customerCopy.etag) {
      // Revalidated each time: a cheap 304 while the content is the same.
      const etag = `"${file.sha256}"`;
      reply.header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    }
    return send(request, reply, file);
  });

  app.get<{ Params: { fileId: string } }>(`${kind.adminPath}:fileId`, { compress: false, schema: { hide: true } }, async (request, reply) => {
    const id = idOf(request.params.fileId);
    if (id === 0) return notFound(reply);
    const operator = await auth.operator(tokenOf(request, STORAGE_KEYS.adminTokenCookie));
    if (!operator) return notFound(reply);
    const file = await files.fileFor({ kind: 'operator', operatorId: operator.operatorId, ip: request.ip }, id);
    if (!file) return notFound(reply);
    describe(reply, file, 'private, no-store', true);
    return send(request, reply, file);
  });
}

/** A module's `registerFileRoutes(app, auth)`: the two routes of its kind of stored file. */
export function fileRoutesOf<T extends StoredFileTable>(files: StoredFiles<T>) {
  return (app: FastifyInstance, auth: FileRouteAuth): void => registerFileRoutes(app, files, auth);
}
