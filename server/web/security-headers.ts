// The headers every answer carries (pages, API, static files, the API
// reference): a Content-Security-Policy, no framing, no MIME sniffing, a
// referrer policy, a permissions policy, and HSTS over HTTPS in production.
//
// Scripts run only from this origin or with the response's nonce (never
// 'unsafe-inline'); so do <style> elements. A page asks for its nonce with
// cspNonce(request): one fresh random value per response, put into the header
// when the answer is sent. Style attributes (React's style={…}, antd's
// positioning) cannot carry a nonce and are allowed on their own
// (style-src-attr): they cannot run code. docs/decisions/0013-csp-and-page-cache.md.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANALYTICS_ENV } from '../../common/constants.ts';

export interface SecurityHeaderOptions {
  appEnv: string;
  /** The analytics script; its origin is allowed in production only. */
  analyticsScriptUrl?: string | null;
}

const NONCES = new WeakMap<FastifyRequest, string>();

/** This response's nonce for inline scripts and styles, made on first use. */
export function cspNonce(request: FastifyRequest): string {
  let nonce = NONCES.get(request);
  if (!nonce) {
    // base64url: valid in CSP's nonce grammar and never escaped inside HTML attributes.
    nonce = randomBytes(16).toString('base64url');
    NONCES.set(request, nonce);
  }
  return nonce;
}

/** Browser features the site never uses, refused for it and anything it embeds. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
].join(', ');

export const HSTS = 'max-age=31536000; includeSubDomains';

/** The policy, with the nonce of a response that has inline scripts or styles. */
export function contentSecurityPolicy(options: { nonce?: string; analyticsOrigin?: string | null; https?: boolean }): string {
  const nonce = options.nonce ? ` 'nonce-${options.nonce}'` : '';
  const analytics = options.analyticsOrigin ? ` ${options.analyticsOrigin}` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${nonce}${analytics}`,
    "script-src-attr 'none'",
    // style-src is the fallback of browsers without the -elem/-attr split.
    `style-src 'self'${nonce}`,
    `style-src-elem 'self'${nonce}`,
    "style-src-attr 'unsafe-inline'",
    `img-src 'self' data: blob:${analytics}`,
    "font-src 'self' data:",
    `connect-src 'self'${analytics}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** /admin, /admin/…, /admin-api/…, /admin-files/… */
export function isBackOffice(url: string): boolean {
  return /^\/admin(?:$|[/?#-])/.test(url);
}

export function installSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  const production = options.appEnv === ANALYTICS_ENV;
  const analyticsOrigin = production && options.analyticsScriptUrl ? new URL(options.analyticsScriptUrl).origin : null;
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    const https = request.protocol === 'https';
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // For browsers that predate frame-ancestors.
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (production && https) reply.header('strict-transport-security', HSTS);
    // The back office (pages, calls, files) is never indexed, whatever links to it.
    if (isBackOffice(request.url)) reply.header('x-robots-tag', 'noindex, nofollow');
    // A route with a policy of its own keeps it (the sandbox's pay page: no script at all).
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', contentSecurityPolicy({ nonce: NONCES.get(request), analyticsOrigin, https: production && https }));
    }
    return payload;
  });
}
