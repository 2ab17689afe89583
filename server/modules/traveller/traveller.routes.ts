// The saved travellers' calls (常用出行人): the JSON operations, the
// multipart document upload inside the signed /www scope, and two GET routes
// for the session's customer: a saved document's file
// (/files/traveller-document/:id) and one traveller's export as a zip
// (/files/traveller-export/:id). Anything of another enterprise is the same
// plain 404 as a missing one.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { STORAGE_KEYS } from '../../../common/constants.ts';
import {
  travellerDelete,
  travellerDocumentDelete,
  travellerDocumentUpload,
  travellerList,
  travellerOfferAccept,
  travellerOffers,
  travellerSave,
} from '../../../common/contracts/traveller.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { MaterialService } from '../material/material.service.ts';
import { uploadRoute } from '../stored-file/multipart.ts';
import { describeFile, type FileRouteAuth, idOf, notFound, sendStoredFile, tokenOf } from '../stored-file/serve.ts';
import type { FileStorage } from '../stored-file/storage.ts';
import type { StoredFileDeps } from '../stored-file/stored-files.ts';
import {
  createTravellerService,
  type DocumentUploadInput,
  TRAVELLER_DOCUMENT_PATH,
  TRAVELLER_EXPORT_PATH,
  type TravellerService,
} from './traveller.service.ts';

const TAG = '常用出行人';

const SAVE_ERRORS = [
  ErrorCode.TRAVELLER_NOT_FOUND,
  ErrorCode.TRAVELLER_CONSENT_REQUIRED,
  ErrorCode.TRAVELLER_NAME_INVALID,
  ErrorCode.TRAVELLER_PINYIN_INVALID,
  ErrorCode.TRAVELLER_SEX_INVALID,
  ErrorCode.TRAVELLER_BIRTH_DATE_INVALID,
  ErrorCode.TRAVELLER_MOBILE_INVALID,
  ErrorCode.TRAVELLER_EMAIL_INVALID,
  ErrorCode.TRAVELLER_IDENTITY_INVALID,
  ErrorCode.TRAVELLER_PASSPORT_INVALID,
  ErrorCode.TRAVELLER_PASSPORT_EXPIRY_INVALID,
  ErrorCode.TRAVELLER_LIMIT_REACHED,
  ErrorCode.TRAVELLER_DUPLICATE,
];

export function travellerOperations(service: TravellerService) {
  return [
    defineOperation({
      ...travellerList,
      tag: TAG,
      summary: '本企业的常用出行人及其保存的证件（证件是否仍可使用：未过期，照片拍摄不超过六个月）',
      auth: 'customer',
      errors: [],
      handle: async (_payload, context) => ({ list: await service.list(context.caller) }),
    }),
    defineOperation({
      ...travellerSave,
      tag: TAG,
      summary: '新增或修改常用出行人；须带 consent: true（出行人同意保存其资料），同意时间随每次保存记录',
      description: '同一企业内姓名和手机号相同的出行人只能有一位；每个企业最多 200 位。其他企业的出行人与不存在的一样回答 2401。',
      auth: 'customer',
      errors: SAVE_ERRORS,
      handle: (payload, context) => service.save(context.caller, payload),
    }),
    defineOperation({
      ...travellerDelete,
      tag: TAG,
      summary: '删除常用出行人及其保存的证件',
      description:
        '出行人记录和证件记录立即删除；仍被订单使用的证件文件（订单中选用的是同一文件）随订单保留，订单结束后按保留期限删除，返回其数量 documents_kept_for_orders。',
      auth: 'customer',
      errors: [ErrorCode.TRAVELLER_NOT_FOUND],
      handle: ({ traveller_id }, context) => service.remove(context.caller, traveller_id),
    }),
    defineOperation({
      ...travellerDocumentDelete,
      tag: TAG,
      summary: '删除一份保存的证件（仍被订单使用的文件随订单保留：kept_for_orders）',
      auth: 'customer',
      errors: [ErrorCode.TRAVELLER_DOCUMENT_NOT_FOUND],
      handle: ({ document_id }, context) => service.removeDocument(context.caller, document_id),
    }),
    defineOperation({
      ...travellerOffers,
      tag: TAG,
      summary: '上传资料步骤：每位申请人（姓名和手机号与常用出行人相同）可选用的已保存证件，按资料项对应',
      description: '只对草稿订单提供；已过期的证件和拍摄超过六个月的照片不提供（列在 skipped 中并说明原因）。',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, context) => service.offers(context.caller, user_order_id),
    }),
    defineOperation({
      ...travellerOfferAccept,
      tag: TAG,
      summary: '选用一份保存的证件作为申请人某资料项（或签证照片）的文件：同一文件按引用共享，不复制',
      description: '与上传资料相同的订单规则（草稿、资料项、数量、照片替换）和“上传资料”记录；审核界面标注“来自常用出行人”。',
      auth: 'customer',
      errors: [
        ErrorCode.TRAVELLER_DOCUMENT_NOT_FOUND,
        ErrorCode.TRAVELLER_DOCUMENT_UNUSABLE,
        ErrorCode.TRAVELLER_DOCUMENT_NOT_MATCHING,
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_ALREADY_CANCELLED,
        ErrorCode.MATERIAL_ORDER_LOCKED,
        ErrorCode.MATERIAL_APPLICANT_NOT_FOUND,
        ErrorCode.MATERIAL_NOT_IN_CHECKLIST,
        ErrorCode.MATERIAL_NOT_ELECTRONIC,
        ErrorCode.MATERIAL_PHOTO_NOT_NEEDED,
        ErrorCode.MATERIAL_PHOTO_TYPE,
        ErrorCode.MATERIAL_TOO_MANY_FILES,
        ErrorCode.ORDER_CONFLICT,
      ],
      handle: (payload, context) => service.acceptOffer(context.caller, { ...payload, material_id: payload.material_id ?? null }),
    }),
  ];
}

function parseFields(fields: Record<string, string>): DocumentUploadInput {
  const parsed = travellerDocumentUpload.payload.safeParse(fields);
  if (!parsed.success) throw new AppError(ErrorCode.INVALID_PARAMS, '缺少 traveller_id 或 doc_type（请在文件之前发送），编号须为正整数');
  const { traveller_id, doc_type, taken_date, expiry_date } = parsed.data;
  return { traveller_id, doc_type, taken_date, expiry_date };
}

export interface TravellerModuleOptions {
  db: Kysely<Database>;
  config: Pick<AppConfig, 'UPLOAD_MAX_BYTES'>;
  now: () => number;
  log: StoredFileDeps['log'];
  storage: FileStorage;
  material: Pick<MaterialService, 'list' | 'reuse'>;
}

export function createTravellerModule({ db, config, now, log, storage, material }: TravellerModuleOptions) {
  const service = createTravellerService(db, { now, storage, maxBytes: config.UPLOAD_MAX_BYTES, log, material });
  const { maxBytes } = service.objects;

  const uploadRoutes = uploadRoute({
    contract: travellerDocumentUpload,
    auth: 'customer',
    maxBytes,
    fields: 6,
    schema: {
      summary: '为常用出行人保存一份证件（multipart/form-data）',
      description:
        '字段须在文件之前：traveller_id、doc_type（passport 护照首页 / id_card 身份证 / hukou 户口本 / photo 证件照片）、taken_date（拍摄日期，照片必填）、expiry_date（有效期至，护照必填）；最后是 file。' +
        `\n\n文件类型按内容（开头字节）判断：JPEG、PNG 或 PDF，照片只能是 JPEG 或 PNG；单个文件不超过 ${Math.round(maxBytes / 1048576)} MB。与订单资料相同的存储（加密保存）。每类证件最多 3 份。\n\n需要登录：是（X-Token）`,
      tags: [TAG],
      body: {
        type: 'object',
        properties: {
          traveller_id: { type: 'integer' },
          doc_type: { type: 'string', enum: ['passport', 'id_card', 'hukou', 'photo'] },
          taken_date: { type: 'string', format: 'date' },
          expiry_date: { type: 'string', format: 'date' },
          file: { type: 'string', format: 'binary' },
        },
        required: ['traveller_id', 'doc_type', 'file'],
      },
    },
    parse: parseFields,
    handle: (customer, input, file) => service.uploadDocument(customer, input, file),
  });

  /** GET /files/traveller-document/:id and /files/traveller-export/:id, for the session's customer only. */
  function registerFileRoutes(app: FastifyInstance, auth: FileRouteAuth): void {
    app.get<{ Params: { id: string } }>(`${TRAVELLER_DOCUMENT_PATH}:id`, { compress: false, schema: { hide: true } }, async (request, reply) => {
      const id = idOf(request.params.id);
      if (id === 0) return notFound(reply);
      const account = await auth.customer(tokenOf(request, STORAGE_KEYS.tokenCookie));
      const doc = account ? await service.documentFor(account, id) : null;
      if (!doc) return notFound(reply);
      describeFile(reply, doc, 'private, no-cache', true);
      return sendStoredFile(request, reply, doc, service.objects.open);
    });
    app.get<{ Params: { id: string } }>(`${TRAVELLER_EXPORT_PATH}:id`, { compress: false, schema: { hide: true } }, async (request, reply) => {
      const id = idOf(request.params.id);
      if (id === 0) return notFound(reply);
      const account = await auth.customer(tokenOf(request, STORAGE_KEYS.tokenCookie));
      const exported = account ? await service.exportZip(account, id) : null;
      if (!exported) return notFound(reply);
      const ascii = `traveller-${id}.zip`;
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(exported.name)}`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(exported.zip);
    });
  }

  return { service, operations: travellerOperations(service), uploadRoutes, registerFileRoutes };
}

export type TravellerModule = ReturnType<typeof createTravellerModule>;
