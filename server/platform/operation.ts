// Declares an API operation once: its path, payload and result schemas (zod),
// whether it needs a session, and the error codes it can answer. The same
// declaration validates requests, types the handler and feeds the OpenAPI
// reference.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ERROR_CATALOGUE, ErrorCode, type ErrorCodeValue } from '../../common/error-codes.ts';
import { AppError } from './errors.ts';
import type { AuthenticatedAccount } from '../modules/account/account.types.ts';

export interface OperationContext {
  request: FastifyRequest;
  reply: FastifyReply;
  /** Present when the operation is declared with auth: 'required'. */
  account: AuthenticatedAccount | null;
}

export interface Operation<P extends z.ZodType, R extends z.ZodType> {
  path: `/www/${string}`;
  summary: string;
  description?: string;
  tag: string;
  auth: 'required' | 'none';
  payload: P;
  result: R;
  errors: ErrorCodeValue[];
  handle(payload: z.output<P>, context: OperationContext): Promise<z.input<R>>;
}

export function defineOperation<P extends z.ZodType, R extends z.ZodType>(op: Operation<P, R>): Operation<P, R> {
  return op;
}

/** Errors every signed operation can answer with. */
const COMMON_ERRORS: ErrorCodeValue[] = [
  ErrorCode.MALFORMED_BODY,
  ErrorCode.BODY_TOO_LARGE,
  ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  ErrorCode.SIGNATURE_MISSING,
  ErrorCode.SIGNATURE_INVALID,
  ErrorCode.UNKNOWN_PLATFORM,
  ErrorCode.REQUEST_DATE_INVALID,
  ErrorCode.REQUEST_REPLAYED,
  ErrorCode.REQUEST_ID_INVALID,
  ErrorCode.VERSION_UNSUPPORTED,
  ErrorCode.INTERNAL,
];

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function errorTable(codes: ErrorCodeValue[]): string {
  const rows = codes.map((code) => `| ${code} | ${ERROR_CATALOGUE[code].http} | ${ERROR_CATALOGUE[code].msg} | ${ERROR_CATALOGUE[code].meaning} |`);
  return ['| ret | HTTP | msg | 含义 |', '|---|---|---|---|', ...rows].join('\n');
}

/** Registers the operation on Fastify; the session hook reads config.auth. */
export function registerOperation(app: FastifyInstance, op: Operation<z.ZodType, z.ZodType>): void {
  const codes = [...new Set([...op.errors, ...(op.auth === 'required' ? [ErrorCode.NOT_LOGGED_IN] : []), ErrorCode.INVALID_PARAMS, ...COMMON_ERRORS])].sort(
    (a, b) => a - b,
  );
  app.route({
    method: 'POST',
    url: op.path,
    config: { auth: op.auth },
    schema: {
      summary: op.summary,
      description: `${op.description ?? ''}\n\n需要登录：${op.auth === 'required' ? '是（X-Token）' : '否'}\n\n**错误码**\n\n${errorTable(codes)}`,
      tags: [op.tag],
      body: toJsonSchema(op.payload, 'input'),
      response: {
        200: {
          type: 'object',
          properties: {
            ret: { type: 'integer', description: '0 为成功' },
            msg: { type: 'string' },
            body: { ...toJsonSchema(op.result, 'output'), nullable: true },
          },
          required: ['ret', 'msg', 'body'],
        },
      },
    },
    handler: async (request, reply) => {
      const parsed = op.payload.safeParse(request.body ?? {});
      if (!parsed.success) throw new AppError(ErrorCode.INVALID_PARAMS);
      const account = (request as FastifyRequest & { account?: AuthenticatedAccount }).account ?? null;
      const body = await op.handle(parsed.data, { request, reply, account });
      return { ret: 0, msg: 'ok', body };
    },
  });
}
