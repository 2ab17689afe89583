// Mounts the React Router server build on Fastify: every GET that is not an
// API call, a static file or the API reference is a page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AppLoadContext, createRequestHandler, type ServerBuild } from 'react-router';
import { STORAGE_KEYS } from '../../common/constants.ts';
import type { WebLoadContext } from '../../common/web-context.ts';
import { cookieValue } from './cookies.ts';
import { acceptsEncoding, encodedBody, negotiateEncoding } from './encoding.ts';
import type { CachedPage, PageCache } from './page-cache.ts';
import { fillGzip, fillIdentity, templateOf } from './page-template.ts';
import { cspNonce } from './security-headers.ts';

export type LoadContextFactory = (request: FastifyRequest) => WebLoadContext;

function toHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

function acceptEncoding(request: FastifyRequest): string | undefined {
  const accept = request.headers['accept-encoding'];
  return typeof accept === 'string' ? accept : undefined;
}

/** Pages only a session may see, whoever asks (the login-only pages, the notices, the personal centre, the back office). */
const PERSONAL_PATH = /^\/(?:order|ordering|notice|user|admin)(?:[/?#]|$)/;

/**
 * A page rendered for a session (either side's cookie) or on a personal path:
 * never kept by a browser's back-forward store of another user, a shared
 * proxy or a CDN. Guest pages keep today's caching (none set here).
 */
export function isPersonalPage(request: FastifyRequest): boolean {
  const pathname = request.url.split('?')[0] ?? '/';
  return (
    PERSONAL_PATH.test(pathname) ||
    cookieValue(request, STORAGE_KEYS.tokenCookie) !== undefined ||
    cookieValue(request, STORAGE_KEYS.adminTokenCookie) !== undefined
  );
}

function sendHead(request: FastifyRequest, reply: FastifyReply, status: number, headers: Array<[string, string]>, cacheState: string) {
  reply.status(status);
  for (const [name, value] of headers) reply.header(name, value);
  if (isPersonalPage(request)) reply.header('cache-control', 'private, no-store');
  reply.header('x-page-cache', cacheState);
  reply.header('vary', 'Accept-Encoding, Cookie');
}

/** A page rendered for this response: it already carries this response's nonce. */
function sendRendered(request: FastifyRequest, reply: FastifyReply, status: number, headers: Array<[string, string]>, body: Buffer, cacheState: string) {
  sendHead(request, reply, status, headers, cacheState);
  const { body: sent, encoding } = encodedBody({ identity: body }, negotiateEncoding(acceptEncoding(request)));
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(sent);
}

/** A cached page, filled with this response's nonce. */
function sendCached(request: FastifyRequest, reply: FastifyReply, page: CachedPage) {
  sendHead(request, reply, page.status, page.headers, 'hit');
  const nonce = cspNonce(request);
  // gzip is the compression that can be spliced around the nonce (page-template.ts).
  if (acceptsEncoding(acceptEncoding(request), 'gzip')) {
    reply.header('content-encoding', 'gzip');
    return reply.send(fillGzip(page.template, nonce));
  }
  return reply.send(fillIdentity(page.template, nonce));
}

export function registerPages(app: FastifyInstance, build: ServerBuild, cache: PageCache, getLoadContext: LoadContextFactory): void {
  const handle = createRequestHandler(build, 'production');
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    schema: { hide: true },
    // Pages compress themselves (server/web/encoding.ts, page-template.ts).
    compress: false,
    handler: async (request, reply) => {
      const url = new URL(request.url, `${request.protocol}://${request.host}`);
      // Only a guest's full-page GET is cacheable: a logged-in header differs per user.
      const guest = request.method === 'GET' && !cookieValue(request, STORAGE_KEYS.tokenCookie);
      const version = guest ? await cache.versionOf(url.pathname) : null;
      if (version) {
        const hit = cache.get(request.url, version);
        if (hit) return sendCached(request, reply, hit);
      }

      const controller = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      const response = await handle(
        new Request(url, { method: request.method, headers: toHeaders(request), signal: controller.signal }),
        getLoadContext(request) as AppLoadContext,
      );
      const cookies = response.headers.getSetCookie();
      const headers = [...response.headers].filter(([name]) => name !== 'set-cookie');
      const body = Buffer.from(await response.arrayBuffer());
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      if (version && response.status === 200 && cookies.length === 0) {
        cache.set(request.url, version, { status: response.status, headers, template: templateOf(body, cspNonce(request)) });
        return sendRendered(request, reply, response.status, headers, body, 'miss');
      }
      return sendRendered(request, reply, response.status, headers, body, version ? 'bypass' : 'off');
    },
  });
}
