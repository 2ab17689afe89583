// Server rendering: React Router's shell plus antd's styles. antd's styles come
// from static stylesheets made before the build (scripts/antd-styles.tsx);
// the whole page is rendered before it is sent (onAllReady) so that a style
// those files lack can still be extracted and inlined in <head>: the first
// paint is styled without waiting for JavaScript.
import { PassThrough } from 'node:stream';
import { StyleProvider, createCache, extractStyle } from '@ant-design/cssinjs';
import { renderToPipeableStream } from 'react-dom/server';
import type { AppLoadContext, EntryContext, HandleErrorFunction } from 'react-router';
import { ServerRouter, isRouteErrorResponse } from 'react-router';
import { CspNonceContext } from './lib/csp-nonce';
import { paintFirst } from './lib/paint-first';
import type { RouteHandle } from './lib/route-handle';
// Generated with the static stylesheets: the antd style entries they hold.
import staticStyleKeys from './generated/antd/keys.json?raw';

const STATIC_STYLE_KEYS = new Set<string>(JSON.parse(staticStyleKeys) as string[]);

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
    // Every inline script and style of the page carries this response's CSP nonce.
    const nonce = loadContext.cspNonce;
    let status = responseStatusCode;
    const { pipe, abort } = renderToPipeableStream(
      <CspNonceContext value={nonce}>
        <StyleProvider cache={cache}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </StyleProvider>
      </CspNonceContext>,
      {
        nonce,
        // The whole page is ready when it is sent: every Suspense boundary
        // (app/components/hydration-boundary.tsx) goes inline, in place. By
        // default React moves a large one out into a hidden <div> that an inline
        // script reveals, which a reader without JavaScript never sees.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady() {
          const chunks: Buffer[] = [];
          const sink = new PassThrough();
          sink.on('data', (chunk: Buffer) => chunks.push(chunk));
          sink.on('end', () => {
            // At the top of <head> (after the charset), where antd's client runtime
            // also puts them, so the app's stylesheets (equal specificity, thanks
            // to :where) come later and win.
            const rendered = Buffer.concat(chunks)
              .toString('utf8')
              // Preloads of this origin's modules need no nonce ('self' allows them);
              // without it the page has a handful of nonce positions, not a hundred,
              // which keeps a cached page's spliced gzip small (server/web/page-template.ts).
              .replace(/(<link rel="modulepreload"[^>]*?) nonce="[^"]*"/g, '$1')
              .replace(/<head>(<meta charSet="utf-8"\/>)?/, (head) => `${head}${missingStyles(cache, nonce)}`);
            // The guest catalogue pages paint before their JavaScript loads (app/lib/paint-first.ts).
            const html = status === 200 && wantsPaintFirst(routerContext) ? paintFirst(rendered) : rendered;
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

/**
 * antd styles this page used that the static stylesheets lack, as <style>
 * elements with the nonce (usually none). Without antd's cache-path marker:
 * the stylesheets' marker must stay the only one the browser reads, and the
 * browser simply computes these few again.
 */
function missingStyles(cache: ReturnType<typeof createCache>, nonce: string): string {
  for (const key of cache.cache.keys()) if (STATIC_STYLE_KEYS.has(key)) cache.extracted.add(key);
  return extractStyle(cache, { once: true })
    .replace(/<style[^>]*data-ant-cssinjs-cache-path[^>]*>[\s\S]*?<\/style>/, '')
    .replace(/<style(?=[\s>])/g, `<style nonce="${nonce}"`);
}

function wantsPaintFirst(routerContext: EntryContext): boolean {
  return routerContext.staticHandlerContext.matches.some((match) => (match.route.handle as RouteHandle | undefined)?.paintFirst === true);
}

/** Unmatched routes and failed parameter checks are ordinary 404s, not errors to log. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  if (error instanceof Error && /^No route matches URL/.test(error.message)) return;
  context.logError(error);
};
