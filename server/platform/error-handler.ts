// Maps every error to the envelope, in one place. Client mistakes are HTTP 200
// with ret ≠ 0 (spec §7); a missing session is 401; anything unexpected is a
// 500 with a generic message, its details only in the log.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ERROR_CATALOGUE, ErrorCode, type ErrorCodeValue } from '../../common/error-codes.ts';
import { AppError } from './errors.ts';

const FASTIFY_CLIENT_ERRORS: Record<string, ErrorCodeValue> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ErrorCode.BODY_TOO_LARGE,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ErrorCode.MALFORMED_BODY,
  FST_ERR_CTP_EMPTY_JSON_BODY: ErrorCode.MALFORMED_BODY,
  FST_ERR_CTP_INVALID_JSON_BODY: ErrorCode.MALFORMED_BODY,
  FST_ERR_VALIDATION: ErrorCode.INVALID_PARAMS,
  // PostgreSQL refusing a text it cannot store: 22021 invalid byte sequence (a NUL),
  // 22P05 untranslatable character. The text rule (common/contracts/text.ts) refuses
  // these before any query; this is the net for a text that reaches the database
  // some other way: the caller's mistake, not a failure of ours.
  '22021': ErrorCode.INVALID_PARAMS,
  '22P05': ErrorCode.INVALID_PARAMS,
};

function envelopeOf(ret: ErrorCodeValue, msg?: string) {
  return { ret, msg: msg ?? ERROR_CATALOGUE[ret].msg, body: null };
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const isApi = request.url.startsWith('/www/') || request.url.startsWith('/admin-api/');
    if (error instanceof AppError) {
      if (error.httpStatus >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(error.httpStatus).send(envelopeOf(error.ret, error.message));
    }
    const mapped = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    const clientError = mapped ?? (error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? ErrorCode.INVALID_PARAMS : undefined);
    if (clientError !== undefined) {
      request.log.info({ code: error.code, message: error.message }, 'client error');
      return isApi
        ? reply.status(200).send(envelopeOf(clientError))
        : reply
            .status(error.statusCode ?? 400)
            .type('text/plain; charset=utf-8')
            .send('Bad Request');
    }
    request.log.error({ err: error }, 'unexpected error');
    return isApi ? reply.status(500).send(envelopeOf(ErrorCode.INTERNAL)) : reply.status(500).type('text/plain; charset=utf-8').send('Internal Server Error');
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(envelopeOf(ErrorCode.NOT_FOUND));
  });
}

/** JSON bodies: an empty body is {}, anything that is not a JSON object is refused. */
export function installJsonParser(app: FastifyInstance): void {
  // JSON only: any other content type is refused (1004) rather than half-parsed.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      const value: unknown = JSON.parse(text);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return done(new AppError(ErrorCode.MALFORMED_BODY), undefined);
      done(null, value);
    } catch {
      done(new AppError(ErrorCode.MALFORMED_BODY), undefined);
    }
  });
}
