// The upload calls' requests: multipart/form-data, text fields first, then
// one file, streamed (never buffered whole). Each upload call is a plugin of
// its own inside the signed scope (`await api.register(uploadRoute({...}))`):
// the scope's signature and session checks run onRequest, before a byte of
// the body is read, and @fastify/multipart (with tight limits) is registered
// only there, so no other route accepts multipart bodies. Refusals answer in
// the spec's envelope once the rest of the request has been read.
import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Contract } from '../../../common/contracts/define.ts';
import { textProblem } from '../../../common/contracts/text.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { AppError } from '../../platform/errors.ts';
import { refusedTextError } from '../../platform/payload.ts';
import { type Customer, customer, type Operator } from '../../platform/principal.ts';
import type { StaffAccess } from '../../../common/staff-access.ts';
import type { UploadSource } from './stored-files.ts';

/** An error of the request body itself (parser, truncated stream, client gone), not of our code or storage. */
class UploadSourceError extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

async function* guardedSource(file: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of file) yield chunk;
  } catch (error) {
    throw new UploadSourceError(error);
  }
}

function toAppError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string } | null)?.code;
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, '请使用 multipart/form-data 上传文件');
  if (
    code === 'FST_PARTS_LIMIT' ||
    code === 'FST_FIELDS_LIMIT' ||
    code === 'FST_FILES_LIMIT' ||
    code === 'FST_PROTO_VIOLATION' ||
    code === 'FST_INVALID_JSON_FIELD_ERROR'
  ) {
    return new AppError(ErrorCode.INVALID_PARAMS, '上传表单不合法：只能包含订单、申请人、资料项字段和一个文件');
  }
  if (error instanceof UploadSourceError) return new AppError(ErrorCode.MATERIAL_UPLOAD_INCOMPLETE);
  return error;
}

/** How much of a refused upload is read and dropped so that the client sees our answer. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_LIMIT_MS = 30_000;

/**
 * The handler of a multipart upload call: `read` consumes the fields and the
 * file; anything left of the request (the closing boundary, ignored parts, or
 * the rest of a refused upload) is read before answering, in the spec's envelope.
 */
function uploadHandler<T>(read: (request: FastifyRequest) => Promise<T>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const body = await read(request);
      await drainRequest(request, reply);
      return { ret: 0, msg: 'ok', body };
    } catch (error) {
      await drainRequest(request, reply);
      const mapped = toAppError(error);
      if (mapped instanceof AppError) throw mapped;
      throw error;
    }
  };
}

/**
 * Reads and drops whatever is left of the request before we answer. Node's
 * server stops reading a request body once its response has ended, so an
 * early answer to a refused upload would leave the browser stuck sending
 * (it never sees the message). Past the limits the connection is closed
 * after the answer instead (abuse: a client sending far more than allowed).
 */
function drainRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return Promise.resolve();
  raw.unpipe();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (giveUp: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onEnd);
      raw.off('error', onEnd);
      if (giveUp) {
        raw.pause();
        reply.header('connection', 'close');
      }
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_LIMIT_BYTES) finish(true);
    };
    const onEnd = () => finish(false);
    const timer = setTimeout(() => finish(true), DRAIN_LIMIT_MS);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onEnd);
    raw.once('error', onEnd);
    raw.resume();
  });
}

/**
 * Reads a multipart upload up to its file: the text fields sent before it (held to the text rule,
 * then trimmed) and the file part. A stream that breaks, a field over its limit and no file at all answer in the envelope.
 * Anything after the file is ignored.
 */
async function fieldsThenFile(request: FastifyRequest): Promise<{ fields: Record<string, string>; part: MultipartFile }> {
  const parts = request.parts();
  const fields: Record<string, string> = {};
  for (;;) {
    let next: IteratorResult<Awaited<ReturnType<typeof parts.next>>['value']>;
    try {
      next = await parts.next();
    } catch (error) {
      const mapped = toAppError(error);
      throw mapped === error ? new AppError(ErrorCode.MATERIAL_UPLOAD_INCOMPLETE) : mapped;
    }
    if (next.done) throw new AppError(ErrorCode.MATERIAL_NO_FILE);
    const part = next.value;
    if (part.type === 'field') {
      if (part.valueTruncated || part.fieldnameTruncated) throw new AppError(ErrorCode.INVALID_PARAMS, '上传参数过长');
      const value = String(part.value ?? '');
      // The text rule of every payload (common/contracts/text.ts), on the field as sent: no upload field is multi-line.
      const problem = textProblem(part.fieldname) ?? textProblem(value);
      if (problem) {
        request.log.info({ field: part.fieldname, problem }, 'text refused');
        throw refusedTextError();
      }
      fields[part.fieldname] = value.trim();
      continue;
    }
    return { fields, part };
  }
}

type UploadCaller<A extends 'customer' | StaffAccess> = A extends 'customer' ? Customer : Operator;

/** The form's fields as the contract's payload; anything else is refused with 1001 and `message` (which fields, before the file). */
export function payloadOf<P extends z.ZodType>(contract: { payload: P }, message: string) {
  return (fields: Record<string, string>): z.output<P> => {
    const parsed = contract.payload.safeParse(fields);
    if (!parsed.success) throw new AppError(ErrorCode.INVALID_PARAMS, message);
    return parsed.data;
  };
}

type FieldsParser = (fields: Record<string, string>) => unknown;

export interface UploadRoute<A extends 'customer' | StaffAccess, P extends FieldsParser, R> {
  /** The call (its path). */
  contract: Contract<string, z.ZodType, z.ZodType, 'multipart'>;
  auth: A;
  /** The largest file (its kind's files' maxBytes): the parser stops one byte past it, after the meter has refused. */
  maxBytes: number;
  /** How many text fields the form may send before its file. */
  fields: number;
  /** The API reference's entry. */
  schema: { summary: string; description: string; tags: string[]; body: Record<string, unknown> };
  /** The form's fields (held to the text rule, trimmed) → the call's input, or the refusal (payloadOf). */
  parse: P;
  /** The call itself: the caller, its input and the file as a stream. */
  handle: (caller: UploadCaller<A>, input: ReturnType<P>, file: UploadSource) => Promise<R>;
}

/** An upload call as a plugin to register inside the signed scope. */
export function uploadRoute<A extends 'customer' | StaffAccess, P extends FieldsParser, R>(route: UploadRoute<A, P, R>) {
  return async function uploadRoutes(scope: FastifyInstance): Promise<void> {
    await scope.register(fastifyMultipart, {
      throwFileSizeLimit: false,
      limits: {
        // One byte over the limit reaches our meter, which refuses and aborts.
        fileSize: route.maxBytes + 1,
        files: 1,
        fields: route.fields,
        parts: route.fields + 2,
        fieldNameSize: 40,
        fieldSize: 100,
        headerPairs: 20,
      },
    });
    scope.route({
      method: 'POST',
      url: route.contract.path,
      config: { auth: route.auth },
      schema: { ...route.schema, consumes: ['multipart/form-data'] },
      handler: uploadHandler(async (request) => {
        if (!request.isMultipart()) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, '请使用 multipart/form-data 上传文件');
        let caller: Customer | Operator;
        if (route.auth === 'customer') {
          if (!request.account) throw new AppError(ErrorCode.NOT_LOGGED_IN);
          caller = customer(request.account.accountId, request.account.enterpriseId);
        } else {
          if (!request.operator) throw new AppError(ErrorCode.NOT_LOGGED_IN);
          caller = { kind: 'operator', operatorId: request.operator.operatorId, role: request.operator.role };
        }
        // The file: the fields must have come first. Anything after it is ignored.
        const { fields, part } = await fieldsThenFile(request);
        const input = route.parse(fields) as ReturnType<P>;
        const file = part.file;
        return route.handle(caller as UploadCaller<A>, input, { fileName: part.filename, stream: guardedSource(file), truncated: () => file.truncated });
      }),
    });
  };
}
