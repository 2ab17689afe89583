// Mounts the React Router server build on Fastify: every GET that is not an
// API call, a static file or the API reference is a page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AppLoadContext, createRequestHandler, type ServerBuild } from 'react-router';
import { STORAGE_KEYS } from '../../common/constants.ts';
import type { WebLoadContext } from '../../common/web-context.ts';
import { cookieValue } from './cookies.ts';
import { encodedBody, negotiateEncoding } from './encoding.ts';
import type { CachedPage, PageCache } from './page-cache.ts';

export type LoadContextFactory = (request: FastifyRequest) => WebLoadContext;

function toHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

function send(request: FastifyRequest, reply: FastifyReply, page: CachedPage, cacheState: string) {
  reply.status(page.status);
  for (const [name, value] of page.headers) reply.header(name, value);
  reply.header('x-page-cache', cacheState);
  reply.header('vary', 'Accept-Encoding, Cookie');
  const accept = request.headers['accept-encoding'];
  const { body, encoding } = encodedBody(page.bodies, negotiateEncoding(typeof accept === 'string' ? accept : undefined));
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(body);
}

export function registerPages(app: FastifyInstance, build: ServerBuild, cache: PageCache, getLoadContext: LoadContextFactory): void {
  const handle = createRequestHandler(build, 'production');
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    schema: { hide: true },
    // Pages compress themselves (server/web/encoding.ts), once per cached page.
    compress: false,
    handler: async (request, reply) => {
      const url = new URL(request.url, `${request.protocol}://${request.host}`);
      // Only a guest's full-page GET is cacheable: a logged-in header differs per user.
      const guest = request.method === 'GET' && !cookieValue(request, STORAGE_KEYS.tokenCookie);
      const version = guest ? await cache.versionOf(url.pathname) : null;
      if (version) {
        const hit = cache.get(request.url, version);
        if (hit) return send(request, reply, hit, 'hit');
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
      const page: CachedPage = {
        status: response.status,
        headers: [...response.headers].filter(([name]) => name !== 'set-cookie'),
        bodies: { identity: Buffer.from(await response.arrayBuffer()) },
      };
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      if (version && response.status === 200 && cookies.length === 0) {
        cache.set(request.url, version, page);
        return send(request, reply, page, 'miss');
      }
      return send(request, reply, page, version ? 'bypass' : 'off');
    },
  });
}
