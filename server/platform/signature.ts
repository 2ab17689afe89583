// Verifies the spec §7 signature on every /www/ call before its body is read:
// known platform, supported version, fresh X-Date, well-formed X-Request-Id,
// correct HMAC, and a request id not seen before (replay).
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { API_VERSION, REQUEST_ID_PATTERN } from '../../common/constants.ts';
import { ErrorCode } from '../../common/error-codes.ts';
import { stringToSign } from '../../common/signing.ts';
import { AppError } from './errors.ts';
import type { ReplayStore } from './replay-store.ts';

export interface SignatureCheckOptions {
  clients: Map<string, { accessKey: string; secret: string }>;
  maxSkewMs: number;
  replayStore: ReplayStore;
  now?: () => number;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

export function createSignatureCheck(options: SignatureCheckOptions) {
  const now = options.now ?? Date.now;
  // Each secret imported once: createHmac on a KeyObject skips copying the key in on every call.
  const keys = new Map<string, KeyObject>();
  for (const [platform, client] of options.clients) keys.set(platform, createSecretKey(Buffer.from(client.secret, 'utf8')));
  return async function verifySignature(request: FastifyRequest): Promise<void> {
    const authorization = header(request, 'authorization');
    const platform = header(request, 'platform');
    const date = header(request, 'x-date');
    const version = header(request, 'x-version');
    const requestId = header(request, 'x-request-id');

    if (!authorization || !platform || !date || !version || !requestId) throw new AppError(ErrorCode.SIGNATURE_MISSING);
    const client = options.clients.get(platform);
    if (!client) throw new AppError(ErrorCode.UNKNOWN_PLATFORM);
    if (version !== API_VERSION) throw new AppError(ErrorCode.VERSION_UNSUPPORTED);
    if (!REQUEST_ID_PATTERN.test(requestId)) throw new AppError(ErrorCode.REQUEST_ID_INVALID);
    const sentAt = Date.parse(date);
    if (Number.isNaN(sentAt) || Math.abs(now() - sentAt) > options.maxSkewMs) throw new AppError(ErrorCode.REQUEST_DATE_INVALID);

    const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/.exec(authorization);
    if (!match) throw new AppError(ErrorCode.SIGNATURE_INVALID);
    // Native HMAC here; common/signing.ts (the browser's) is tested against the same vector.
    const expected = createHmac('sha256', keys.get(platform)!)
      .update(stringToSign({ accessKey: client.accessKey, date, version, requestId }))
      .digest();
    const given = Buffer.from(match[1]!, 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError(ErrorCode.SIGNATURE_INVALID);

    // Only a correctly signed request may use up a request id.
    const fresh = await options.replayStore.remember(requestId, platform, now());
    if (!fresh) throw new AppError(ErrorCode.REQUEST_REPLAYED);
  };
}
