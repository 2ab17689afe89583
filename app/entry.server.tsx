// Server rendering: React Router's shell plus antd's styles. The whole page is
// rendered before it is sent (onAllReady) so antd's CSS-in-JS styles can be
// extracted and inlined in <head>: the first paint is styled without waiting
// for JavaScript.
import { PassThrough } from 'node:stream';
import { StyleProvider, createCache, extractStyle } from '@ant-design/cssinjs';
import { renderToPipeableStream } from 'react-dom/server';
import type { AppLoadContext, EntryContext, HandleErrorFunction } from 'react-router';
import { ServerRouter, isRouteErrorResponse } from 'react-router';

export const streamTimeout = 10_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  return new Promise<Response>((resolve, reject) => {
    const cache = createCache();
    let status = responseStatusCode;
    const { pipe, abort } = renderToPipeableStream(
      <StyleProvider cache={cache}>
        <ServerRouter context={routerContext} url={request.url} />
      </StyleProvider>,
      {
        onAllReady() {
          const chunks: Buffer[] = [];
          const sink = new PassThrough();
          sink.on('data', (chunk: Buffer) => chunks.push(chunk));
          sink.on('end', () => {
            // At the top of <head> (after the charset), where antd's client runtime
            // also puts them, so the app's stylesheets (equal specificity, thanks
            // to :where) come later and win.
            const html = Buffer.concat(chunks)
              .toString('utf8')
              .replace(/<head>(<meta charSet="utf-8"\/>)?/, (head) => `${head}${extractStyle(cache)}`);
            responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
            resolve(new Response(`<!DOCTYPE html>${html.replace(/^<!DOCTYPE html>/i, '')}`, { status, headers: responseHeaders }));
          });
          pipe(sink);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          status = 500;
          loadContext.logError(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

/** Unmatched routes and failed parameter checks are ordinary 404s, not errors to log. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  if (error instanceof Error && /^No route matches URL/.test(error.message)) return;
  context.logError(error);
};
