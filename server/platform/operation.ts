// An API operation: a call's contract (common/contracts: path, payload and
// result schemas) spread into what only the server knows — whether it needs a
// session, the error codes it can answer, the reference's words and the
// handler, whose answer must be the contract's result type. The same
// declaration validates requests, types the handler and feeds the OpenAPI
// reference.
//
//   defineOperation({ ...orderDetailGet, tag, summary, auth: 'customer', errors, handle })
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Contract } from '../../common/contracts/define.ts';
import { ERROR_CATALOGUE, ErrorCode, type ErrorCodeValue } from '../../common/error-codes.ts';
import { AppError } from './errors.ts';
import type { Customer } from './principal.ts';

/** Who may call: a logged-in customer (X-Token of a customer session), or anyone signed. */
export type OperationAuth = 'customer' | 'none';

type CallerOf<A extends OperationAuth> = A extends 'customer' ? Customer : null;

export interface OperationContext<A extends OperationAuth = OperationAuth> {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The session's principal; null only for auth 'none'. */
  caller: CallerOf<A>;
}

/** A JSON call's contract plus the server's side of it (multipart uploads are routes of their own). */
export interface Operation<P extends z.ZodType, R extends z.ZodType, A extends OperationAuth = OperationAuth> extends Contract<string, P, R, 'json'> {
  summary: string;
  description?: string;
  tag: string;
  auth: A;
  errors: ErrorCodeValue[];
  handle(payload: z.output<P>, context: OperationContext<A>): Promise<z.input<R>>;
}

export function defineOperation<P extends z.ZodType, R extends z.ZodType, A extends OperationAuth>(op: Operation<P, R, A>): Operation<P, R, A> {
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
export function registerOperation(app: FastifyInstance, op: Operation<z.ZodType, z.ZodType, any>): void {
  const codes = [...new Set([...op.errors, ...(op.auth === 'customer' ? [ErrorCode.NOT_LOGGED_IN] : []), ErrorCode.INVALID_PARAMS, ...COMMON_ERRORS])].sort(
    (a, b) => a - b,
  );
  app.route({
    method: 'POST',
    url: op.path,
    config: { auth: op.auth },
    schema: {
      summary: op.summary,
      description: `${op.description ?? ''}\n\n需要登录：${op.auth === 'customer' ? '是（X-Token）' : '否'}\n\n**错误码**\n\n${errorTable(codes)}`,
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
      let caller: Customer | null = null;
      if (op.auth === 'customer') {
        // The scope's hook authenticated the session; a principal of another kind never gets here.
        if (!request.account) throw new AppError(ErrorCode.NOT_LOGGED_IN);
        caller = { kind: 'customer', accountId: request.account.accountId, enterpriseId: request.account.enterpriseId };
      }
      const body = await op.handle(parsed.data, { request, reply, caller });
      return { ret: 0, msg: 'ok', body };
    },
  });
}
