// The session cookies, read and written by the server only (decision 0032):
// both are HttpOnly, so a script injected into a page cannot carry a token
// away. The customer's `token` (spec §3: path /) is SameSite=Lax, since a
// link from an e-mail to an order page must arrive logged in; the operator's
// `admin_token` is SameSite=Strict — the back office is never entered from
// another site's link. Both are Secure when the request came over HTTPS
// (through a proxy: X-Forwarded-Proto with TRUST_PROXY).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STORAGE_KEYS } from '../../common/constants.ts';

/** One cookie's value from the Cookie header, or undefined. */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(rest.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export interface SessionCookie {
  name: string;
  sameSite: 'Lax' | 'Strict';
}

function attributes(request: FastifyRequest, cookie: SessionCookie): string {
  return `Path=/; HttpOnly; SameSite=${cookie.sameSite}${request.protocol === 'https' ? '; Secure' : ''}`;
}

/** The customer's session cookie (spec §3) and the operator's. */
export const CUSTOMER_COOKIE: SessionCookie = { name: STORAGE_KEYS.tokenCookie, sameSite: 'Lax' };
export const OPERATOR_COOKIE: SessionCookie = { name: STORAGE_KEYS.adminTokenCookie, sameSite: 'Strict' };

/** Sets the session cookie on this answer, until the session's absolute expiry. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, cookie: SessionCookie, token: string, expiresAt: number): void {
  reply.header('set-cookie', `${cookie.name}=${encodeURIComponent(token)}; Expires=${new Date(expiresAt).toUTCString()}; ${attributes(request, cookie)}`);
}

/** Clears the session cookie on this answer. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, cookie: SessionCookie): void {
  reply.header('set-cookie', `${cookie.name}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; ${attributes(request, cookie)}`);
}
