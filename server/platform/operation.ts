// An API operation: a call's contract (common/contracts: path, payload and
// result schemas) spread into what only the server knows — whether it needs a
// session, the error codes it can answer, the reference's words and the
// handler, whose answer must be the contract's result type. The same
// declaration validates requests, types the handler and feeds the OpenAPI
// reference.
//
//   defineOperation({ ...orderDetailGet, tag, summary, auth: 'customer', errors, handle })
//   defineOperation({ ...operatorList, tag, summary, auth: 'supervisor', errors, handle })
//
// Customer calls live under /www/ and back-office calls under /admin-api/;
// registering an operation whose auth does not fit its prefix throws.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Contract } from '../../common/contracts/define.ts';
import { ERROR_CATALOGUE, ErrorCode, type ErrorCodeValue } from '../../common/error-codes.ts';
import { AppError } from './errors.ts';
import { parsePayload } from './payload.ts';
import type { Customer, Operator, OperatorRole } from './principal.ts';
import { STAFF_ACCESS_TEXT, type StaffAccess, staffMay, staffRefusalMessage } from '../../common/staff-access.ts';

/**
 * Who may call: a logged-in customer (X-Token of a customer session, /www/
 * only), a logged-in operator whose role may (X-Token of an operator session,
 * /admin-api/ only; common/staff-access.ts: 'staff' any role, 'operator' the
 * order work, 'supervisor', 'catalogue' 产品管理), or anyone signed.
 */
export type OperationAuth = 'customer' | StaffAccess | 'none';

type CallerOf<A extends OperationAuth> = A extends 'customer' ? Customer : A extends StaffAccess ? Operator : null;

/** The auth kinds of the back office's calls. */
export function isStaffAuth(auth: OperationAuth | undefined): auth is StaffAccess {
  return auth === 'staff' || auth === 'operator' || auth === 'supervisor' || auth === 'catalogue';
}

const AUTH_TEXT: Record<OperationAuth, string> = {
  customer: '是（客户 X-Token）',
  ...STAFF_ACCESS_TEXT,
  none: '否',
};

function authErrors(auth: OperationAuth): ErrorCodeValue[] {
  if (auth === 'customer' || auth === 'staff') return [ErrorCode.NOT_LOGGED_IN];
  if (isStaffAuth(auth)) return [ErrorCode.NOT_LOGGED_IN, ErrorCode.OPERATOR_FORBIDDEN];
  return [];
}

/** A staff call's role check (the session hook's, and the in-process reads'): 2003 before anything is read. */
export function requireStaffAccess(role: OperatorRole, access: StaffAccess): void {
  if (!staffMay(role, access)) throw new AppError(ErrorCode.OPERATOR_FORBIDDEN, staffRefusalMessage(role));
}

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
  const admin = op.path.startsWith('/admin-api/');
  if (admin ? op.auth === 'customer' : isStaffAuth(op.auth) || !op.path.startsWith('/www/')) {
    throw new Error(`${op.path}: auth '${op.auth}' does not fit the path (customers: /www/, operators: /admin-api/)`);
  }
  const codes = [...new Set([...op.errors, ...authErrors(op.auth), ErrorCode.INVALID_PARAMS, ...COMMON_ERRORS])].sort((a, b) => a - b);
  app.route({
    method: 'POST',
    url: op.path,
    config: { auth: op.auth },
    schema: {
      summary: op.summary,
      description: `${op.description ?? ''}\n\n需要登录：${AUTH_TEXT[op.auth as OperationAuth]}\n\n**错误码**\n\n${errorTable(codes)}`,
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
      let caller: Customer | Operator | null = null;
      if (op.auth === 'customer') {
        // The scope's hook authenticated the session; a principal of another kind never gets here.
        if (!request.account) throw new AppError(ErrorCode.NOT_LOGGED_IN);
        caller = { kind: 'customer', accountId: request.account.accountId, enterpriseId: request.account.enterpriseId };
      } else if (isStaffAuth(op.auth)) {
        // The hook looked the token up among operator sessions only: a customer's token is unknown there.
        if (!request.operator) throw new AppError(ErrorCode.NOT_LOGGED_IN);
        requireStaffAccess(request.operator.role, op.auth);
        caller = { kind: 'operator', operatorId: request.operator.operatorId, role: request.operator.role };
      }
      // The text rule (every string and key, line breaks only in the contract's multi-line fields), then the schema.
      const parsed = parsePayload(op, request.body ?? {});
      if (!parsed.success) {
        if (parsed.refused) request.log.info({ field: parsed.refused.path, problem: parsed.refused.problem, key: parsed.refused.key }, 'text refused');
        throw parsed.error;
      }
      const body = await op.handle(parsed.data, { request, reply, caller: caller as CallerOf<typeof op.auth> });
      return { ret: 0, msg: 'ok', body };
    },
  });
}
