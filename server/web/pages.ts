// Mounts the React Router server build on Fastify: every GET that is not an
// API call, a static file or the API reference is a page.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AppLoadContext, createRequestHandler, type ServerBuild } from 'react-router';
import type { WebLoadContext } from '../../common/web-context.ts';

export type LoadContextFactory = (request: FastifyRequest) => WebLoadContext;

function toHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

export function registerPages(app: FastifyInstance, build: ServerBuild, getLoadContext: LoadContextFactory): void {
  const handle = createRequestHandler(build, 'production');
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      const url = new URL(request.url, `${request.protocol}://${request.host}`);
      const controller = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      const response = await handle(
        new Request(url, { method: request.method, headers: toHeaders(request), signal: controller.signal }),
        getLoadContext(request) as AppLoadContext,
      );
      reply.status(response.status);
      for (const [name, value] of response.headers) {
        if (name !== 'set-cookie') reply.header(name, value);
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
    },
  });
}
