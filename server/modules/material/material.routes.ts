// The material calls: the JSON operations (checklist, delete, effect date),
// the multipart upload inside the signed /www scope, and the file route that
// serves stored files back to their owners.
//
// The upload route lives in a plugin of its own inside the /www scope: the
// scope's signature and session checks run onRequest, before a byte of the
// body is read, and @fastify/multipart (with tight limits) is registered only
// there, so no other route accepts multipart bodies.
import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { ResultOf } from '../../../common/contracts/define.ts';
import { effectDateSet, materialDelete, materialList, materialUpload, reuploadSubmit } from '../../../common/contracts/material.ts';
import { STORAGE_KEYS } from '../../../common/constants.ts';
import { textProblem } from '../../../common/contracts/text.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { MaterialContentType } from '../../../common/material.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { refusedTextError } from '../../platform/payload.ts';
import { customer as principalCustomer } from '../../platform/principal.ts';
import { defineOperation } from '../../platform/operation.ts';
import { cookieValue } from '../../web/cookies.ts';
import type { AuthenticatedAccount } from '../account/account.types.ts';
import { contentDisposition } from './file-name.ts';
import { createMaterialService, type FileViewer, type Logger, type MaterialService, type UploadInput } from './material.service.ts';
import { createFileStorage, type FileStorage, type StoredObject } from './storage.ts';

const TAG = '资料上传';
export const UPLOAD_PATH = materialUpload.path;
export const FILE_ROUTE_PREFIX = '/files/material/';
export const ADMIN_FILE_ROUTE_PREFIX = '/admin-files/material/';

export function materialOperations(service: MaterialService) {
  return [
    defineOperation({
      ...materialList,
      tag: TAG,
      summary: '订单资料清单：每位申请人按身份的电子资料（含已上传文件）、邮寄和赴馆资料、签证照片规格、尚缺的必需资料',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, context) => service.list(context.caller, user_order_id),
    }),
    defineOperation({
      ...materialDelete,
      tag: TAG,
      summary: '删除一个已上传的文件（草稿订单；待重新上传时只能删除审核未通过的文件）',
      description: '删除与“删除资料”记录在同一个事务中写入；存储中的文件在提交后删除。',
      auth: 'customer',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_ALREADY_CANCELLED,
        ErrorCode.MATERIAL_ORDER_LOCKED,
        ErrorCode.MATERIAL_FILE_NOT_FOUND,
        ErrorCode.MATERIAL_ALREADY_REVIEWED,
        ErrorCode.ORDER_CONFLICT,
      ],
      handle: ({ user_order_id, file_id }, context) => service.remove(context.caller, user_order_id, file_id),
    }),
    defineOperation({
      ...effectDateSet,
      tag: TAG,
      summary: '选择签证生效日期（草稿订单）：办理日期至出发日期之间；null = 出发日期生效',
      auth: 'customer',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_ALREADY_CANCELLED,
        ErrorCode.MATERIAL_ORDER_LOCKED,
        ErrorCode.MATERIAL_EFFECT_DATE_INVALID,
        ErrorCode.ORDER_CONFLICT,
      ],
      handle: ({ user_order_id, effect_date }, context) => service.setEffectDate(context.caller, user_order_id, effect_date ?? null),
    }),
    defineOperation({
      ...reuploadSubmit,
      tag: TAG,
      summary: '重新上传完成，提交审核：订单回到“资料审核中”，替换的文件待审核（审核轮次加一）',
      description: '只能在“待重新上传资料”时提交；审核未通过的文件须全部替换（或删除且该项仍完整），且至少有一个新文件待审核。',
      auth: 'customer',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_STATE_INVALID,
        ErrorCode.REUPLOAD_NO_PASS_LEFT,
        ErrorCode.REUPLOAD_MATERIALS_MISSING,
        ErrorCode.REUPLOAD_NOTHING_REPLACED,
        ErrorCode.ORDER_CONFLICT,
      ],
      handle: ({ user_order_id }, context) => service.submitReupload(context.caller, user_order_id),
    }),
  ];
}

/** An error of the request body itself (parser, truncated stream, client gone), not of our code or storage. */
class UploadSourceError extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

export async function* guardedSource(file: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of file) yield chunk;
  } catch (error) {
    throw new UploadSourceError(error);
  }
}

export function toAppError(error: unknown): unknown {
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

/** The form's text fields → the upload's target, with a precise message for each mistake. */
function parseFields(fields: Record<string, string>): UploadInput {
  const parsed = materialUpload.payload.safeParse(fields);
  if (!parsed.success) {
    const missing = ['user_order_id', 'applicant_id'].filter((name) => !fields[name]);
    throw new AppError(ErrorCode.INVALID_PARAMS, missing.length > 0 ? `缺少 ${missing.join('、')}（请在文件之前发送）` : '上传参数错误：编号须为正整数');
  }
  const { user_order_id, applicant_id, material_id, kind, replace_file_id } = parsed.data;
  const photo = kind === 'photo';
  if (photo && material_id !== undefined) throw new AppError(ErrorCode.INVALID_PARAMS, '签证照片不属于资料项：kind=photo 时不要传 material_id');
  if (!photo && material_id === undefined) throw new AppError(ErrorCode.INVALID_PARAMS, '请指定资料项（material_id），照片请传 kind=photo');
  return { user_order_id, applicant_id, material_id: photo ? null : material_id!, replace_file_id: replace_file_id ?? null };
}

/** How much of a refused upload is read and dropped so that the client sees our answer. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_LIMIT_MS = 30_000;

/**
 * The handler of a multipart upload call: `read` consumes the fields and the
 * file; anything left of the request (the closing boundary, ignored parts, or
 * the rest of a refused upload) is read before answering, in the spec's envelope.
 */
export function uploadHandler<T>(read: (request: FastifyRequest) => Promise<T>) {
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

/** Who opens a stored file: a customer of an enterprise, or an operator (whose opens are logged). */
export type StoredFileViewer = { kind: 'customer'; enterpriseId: number } | { kind: 'operator'; operatorId: number; ip: string | null };

/** A stored file as the owner-checked file routes serve it. */
export interface ServedFile {
  content_type: string;
  file_name: string;
  size_bytes: number;
}

/**
 * GET routes of a module's stored files (page-check pages, visa results): the
 * customer's under `customerPath` (the session from the `token` cookie or
 * X-Token), the operators' under `adminPath` (the `admin_token` cookie).
 * `fileFor` decides who may see which file; anything it refuses, a bad id, no
 * session or a missing object is the same plain 404 (nothing to tell apart).
 * Files are served inline (our pages show PDFs in a frame), never cached by
 * shared caches, never sniffed or indexed.
 */
export function registerStoredFileRoutes<F extends ServedFile>(
  app: FastifyInstance,
  routes: {
    customerPath: string;
    adminPath: string;
    auth: {
      customer: (token: string | undefined) => Promise<{ enterpriseId: number } | null>;
      operator: (token: string | undefined) => Promise<{ operatorId: number } | null>;
    };
    fileFor: (viewer: StoredFileViewer, id: number) => Promise<F | null>;
    open: (file: F) => Promise<StoredObject | null>;
  },
): void {
  const notFound = (reply: FastifyReply) => reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not Found');
  const idOf = (raw: string) => {
    const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : 0;
    return id > 2_147_483_647 ? 0 : id;
  };
  const tokenOf = (request: FastifyRequest, cookie: string) => {
    const header = request.headers['x-token'];
    return typeof header === 'string' && header !== '' ? header : cookieValue(request, cookie);
  };
  async function send(reply: FastifyReply, file: F, cache: string) {
    const stored = await routes.open(file);
    if (!stored) return notFound(reply);
    reply
      .header('content-type', file.content_type)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', contentDisposition(file.file_name, file.content_type as MaterialContentType))
      .header('cache-control', cache)
      // Our own pages show PDFs inline in a frame.
      .header('x-frame-options', 'SAMEORIGIN')
      .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'")
      .header('x-robots-tag', 'noindex')
      .header('content-length', String(stored.size ?? file.size_bytes));
    return reply.send(stored.body);
  }

  app.get<{ Params: { fileId: string } }>(`${routes.customerPath}:fileId`, { compress: false, schema: { hide: true } }, async (request, reply) => {
    const id = idOf(request.params.fileId);
    if (id === 0) return notFound(reply);
    const account = await routes.auth.customer(tokenOf(request, STORAGE_KEYS.tokenCookie));
    const file = account ? await routes.fileFor({ kind: 'customer', enterpriseId: account.enterpriseId }, id) : null;
    if (!file) return notFound(reply);
    return send(reply, file, 'private, no-cache');
  });

  app.get<{ Params: { fileId: string } }>(`${routes.adminPath}:fileId`, { compress: false, schema: { hide: true } }, async (request, reply) => {
    const id = idOf(request.params.fileId);
    if (id === 0) return notFound(reply);
    const operator = await routes.auth.operator(tokenOf(request, STORAGE_KEYS.adminTokenCookie));
    if (!operator) return notFound(reply);
    const file = await routes.fileFor({ kind: 'operator', operatorId: operator.operatorId, ip: request.ip }, id);
    if (!file) return notFound(reply);
    return send(reply, file, 'private, no-store');
  });
}

/**
 * Reads and drops whatever is left of the request before we answer. Node's
 * server stops reading a request body once its response has ended, so an
 * early answer to a refused upload would leave the browser stuck sending
 * (it never sees the message). Past the limits the connection is closed
 * after the answer instead (abuse: a client sending far more than allowed).
 */
export function drainRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
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
 * The customers' material upload and the operators' page-check upload both read this way.
 */
export async function fieldsThenFile(request: FastifyRequest): Promise<{ fields: Record<string, string>; part: MultipartFile }> {
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

async function handleUpload(service: MaterialService, request: FastifyRequest): Promise<ResultOf<typeof materialUpload>> {
  if (!request.isMultipart()) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, '请使用 multipart/form-data 上传文件');
  if (!request.account) throw new AppError(ErrorCode.NOT_LOGGED_IN);
  const customer = principalCustomer(request.account.accountId, request.account.enterpriseId);
  // The file: fields must have come first. Anything after it is ignored.
  const { fields, part } = await fieldsThenFile(request);
  const input = parseFields(fields);
  const file = part.file;
  return service.upload(customer, input, { fileName: part.filename, stream: guardedSource(file), truncated: () => file.truncated });
}

export interface MaterialModuleOptions {
  db: Kysely<Database>;
  config: Pick<AppConfig, 'UPLOAD_DIR' | 'UPLOAD_MAX_BYTES' | 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'>;
  now: () => number;
  log: Logger;
  /** Tests pass their own; the configured one (disk or S3) otherwise. */
  storage?: FileStorage;
}

/** Everything app.ts needs: the service, the JSON operations, the upload plugin and the file route. */
export function createMaterialModule({ db, config, now, log, storage = createFileStorage(config) }: MaterialModuleOptions) {
  const maxBytes = config.UPLOAD_MAX_BYTES;
  const service = createMaterialService(db, { now, storage, maxBytes, log });

  /** Register inside the signed /www scope: `await api.register(module.uploadRoutes)`. */
  async function uploadRoutes(scope: FastifyInstance): Promise<void> {
    await scope.register(fastifyMultipart, {
      throwFileSizeLimit: false,
      limits: {
        // One byte over the limit reaches our meter, which refuses and aborts.
        fileSize: maxBytes + 1,
        files: 1,
        fields: 8,
        parts: 10,
        fieldNameSize: 40,
        fieldSize: 100,
        headerPairs: 20,
      },
    });
    scope.route({
      method: 'POST',
      url: UPLOAD_PATH,
      config: { auth: 'customer' },
      schema: {
        summary: '上传一个资料文件或签证照片（multipart/form-data）',
        description:
          '字段须在文件之前：user_order_id、applicant_id，material_id（电子资料项）或 kind=photo（签证照片），可选 replace_file_id（替换该文件）；最后是 file。' +
          `\n\n文件类型按内容（开头字节）判断：JPEG、PNG 或 PDF，签证照片只能是 JPEG 或 PNG；单个文件不超过 ${Math.round(maxBytes / 1048576)} MB，超过时中止接收并删除已写入的部分。` +
          '\n\n草稿订单可上传；办理中“待重新上传资料”时只能替换或补充审核未通过的资料。每项资料最多 10 个文件；每位申请人一张照片，再次上传即替换。' +
          '上传、替换均在同一事务中写入“上传资料”/“替换资料”记录。\n\n需要登录：是（X-Token）',
        tags: [TAG],
        consumes: ['multipart/form-data'],
        body: {
          type: 'object',
          properties: {
            user_order_id: { type: 'integer' },
            applicant_id: { type: 'integer' },
            material_id: { type: 'integer' },
            kind: { type: 'string', enum: ['material', 'photo'] },
            replace_file_id: { type: 'integer' },
            file: { type: 'string', format: 'binary' },
          },
          required: ['user_order_id', 'applicant_id', 'file'],
        },
      },
      handler: uploadHandler((request) => handleUpload(service, request)),
    });
  }

  /** GET /files/material/:fileId — the caller's session from the `token` cookie (or X-Token). */
  function registerFileRoutes(app: FastifyInstance, authenticate: (token: string | undefined) => Promise<AuthenticatedAccount | null>): void {
    const notFound = (reply: FastifyReply) => reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not Found');

    /** Who is asking. Seam for the back office: an operator session becomes an operator viewer here. */
    async function viewerOf(request: FastifyRequest): Promise<FileViewer | null> {
      const header = request.headers['x-token'];
      const token = typeof header === 'string' && header !== '' ? header : cookieValue(request, STORAGE_KEYS.tokenCookie);
      const account = await authenticate(token);
      return account ? { kind: 'customer', accountId: account.accountId, enterpriseId: account.enterpriseId } : null;
    }

    app.get<{ Params: { fileId: string } }>(`${FILE_ROUTE_PREFIX}:fileId`, { compress: false, schema: { hide: true } }, async (request, reply) => {
      const id = /^[1-9]\d{0,9}$/.test(request.params.fileId) ? Number(request.params.fileId) : 0;
      if (id === 0 || id > 2_147_483_647) return notFound(reply);
      const viewer = await viewerOf(request);
      // No session, another enterprise's file, a missing file: the same 404.
      const file = viewer ? await service.fileFor(viewer, id) : null;
      if (!file) return notFound(reply);
      const etag = `"${file.sha256}"`;
      reply
        .header('content-type', file.content_type)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', contentDisposition(file.file_name, file.content_type as MaterialContentType))
        // Private: never kept by shared caches; revalidated each time (cheap 304) so a deleted file or an ended session shows at once.
        .header('cache-control', 'private, no-cache')
        .header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const stored = await service.open(file);
      if (!stored) return notFound(reply.removeHeader('etag').removeHeader('content-disposition'));
      reply.header('content-length', String(stored.size ?? file.size_bytes));
      return reply.send(stored.body);
    });
  }

  /**
   * GET /admin-files/material/:fileId — any customer's file for the back
   * office: the operator's session from X-Token or the `admin_token` cookie;
   * every open is written to file_access_log before a byte is sent. PDFs may
   * be framed by our own pages (the workbench shows them inline).
   */
  function registerAdminFileRoutes(app: FastifyInstance, authenticate: (token: string | undefined) => Promise<{ operatorId: number } | null>): void {
    const notFound = (reply: FastifyReply) => reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not Found');
    app.get<{ Params: { fileId: string } }>(`${ADMIN_FILE_ROUTE_PREFIX}:fileId`, { compress: false, schema: { hide: true } }, async (request, reply) => {
      const id = /^[1-9]\d{0,9}$/.test(request.params.fileId) ? Number(request.params.fileId) : 0;
      if (id === 0 || id > 2_147_483_647) return notFound(reply);
      const header = request.headers['x-token'];
      const token = typeof header === 'string' && header !== '' ? header : cookieValue(request, STORAGE_KEYS.adminTokenCookie);
      const operator = await authenticate(token);
      if (!operator) return notFound(reply);
      const file = await service.fileFor({ kind: 'operator', operatorId: operator.operatorId, ip: request.ip }, id);
      if (!file) return notFound(reply);
      const stored = await service.open(file);
      if (!stored) return notFound(reply);
      reply
        .header('content-type', file.content_type)
        .header('content-disposition', contentDisposition(file.file_name, file.content_type as MaterialContentType))
        // Every open is logged: never answered from a cache.
        .header('cache-control', 'private, no-store')
        .header('x-frame-options', 'SAMEORIGIN')
        .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'")
        .header('x-robots-tag', 'noindex')
        .header('content-length', String(stored.size ?? file.size_bytes));
      return reply.send(stored.body);
    });
  }

  return { service, storage, operations: materialOperations(service), uploadRoutes, registerFileRoutes, registerAdminFileRoutes };
}

export type MaterialModule = ReturnType<typeof createMaterialModule>;
