// The material calls: the JSON operations (checklist, delete, effect date),
// the multipart upload inside the signed /www scope, and the file routes
// (/files/material/:fileId for the owners, /admin-files/material/:fileId for
// the back office), both the stored-file module's.
import type { Kysely } from 'kysely';
import { effectDateSet, materialDelete, materialList, materialUpload, reuploadSubmit } from '../../../common/contracts/material.ts';
import { photoChoice } from '../../../common/contracts/photo-check.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { defineOperation } from '../../platform/operation.ts';
import { uploadRoute } from '../stored-file/multipart.ts';
import { fileRoutesOf } from '../stored-file/serve.ts';
import type { FileStorage } from '../stored-file/storage.ts';
import type { StoredFileDeps } from '../stored-file/stored-files.ts';
import type { FaceDetector } from '../photo-check/face-detector.ts';
import { createMaterialService, type MaterialService, type UploadInput } from './material.service.ts';

const TAG = '资料上传';

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
      ...photoChoice,
      tag: TAG,
      summary: '签证照片自动处理后：使用处理后的照片或保留原照片（只能选择一次）',
      description:
        '上传签证照片时按订单的照片要求（背景颜色、尺寸）自动检测；可自动处理（verdict=fixed）时生成处理后的照片。' +
        'processed：文件内容替换为处理后的照片（记为“替换资料”）；original：保留原照片，删除处理后的照片。',
      auth: 'customer',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_ALREADY_CANCELLED,
        ErrorCode.MATERIAL_ORDER_LOCKED,
        ErrorCode.MATERIAL_ALREADY_REVIEWED,
        ErrorCode.PHOTO_CHECK_NOT_FOUND,
        ErrorCode.PHOTO_CHOICE_CLOSED,
        ErrorCode.ORDER_CONFLICT,
      ],
      handle: async ({ user_order_id, file_id, choice }, context) => ({ check: await service.choosePhoto(context.caller, user_order_id, file_id, choice) }),
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

export interface MaterialModuleOptions {
  db: Kysely<Database>;
  config: Pick<AppConfig, 'UPLOAD_MAX_BYTES'>;
  now: () => number;
  log: StoredFileDeps['log'];
  /** The stored files' storage (stored-file/open-storage.ts). */
  storage: FileStorage;
  /** The visa photo check's face detector (default: face-api, photo-check/face-detector.ts). */
  photoDetector?: FaceDetector;
}

/** Everything app.ts needs: the service, the JSON operations, the upload plugin and the file routes. */
export function createMaterialModule({ db, config, now, log, storage, photoDetector }: MaterialModuleOptions) {
  const service = createMaterialService(db, { now, storage, maxBytes: config.UPLOAD_MAX_BYTES, log, photoDetector });
  const { maxBytes } = service.storedFiles;

  /** Register inside the signed /www scope: `await api.register(module.uploadRoutes)`. */
  const uploadRoutes = uploadRoute({
    contract: materialUpload,
    auth: 'customer',
    maxBytes,
    fields: 8,
    schema: {
      summary: '上传一个资料文件或签证照片（multipart/form-data）',
      description:
        '字段须在文件之前：user_order_id、applicant_id，material_id（电子资料项）或 kind=photo（签证照片），可选 replace_file_id（替换该文件）；最后是 file。' +
        `\n\n文件类型按内容（开头字节）判断：JPEG、PNG 或 PDF，签证照片只能是 JPEG 或 PNG；单个文件不超过 ${Math.round(maxBytes / 1048576)} MB，超过时中止接收并删除已写入的部分。` +
        '\n\n签证照片在保存前按订单的照片要求自动检测（人脸、头部大小与位置、双眼、阴影、清晰度、分辨率、背景颜色），结果在 photo_check 中返回；无法解码的图片（2441）或超过 4000 万像素（2442）不保存。' +
        '\n\n草稿订单可上传；办理中“待重新上传资料”时只能替换或补充审核未通过的资料。每项资料最多 10 个文件；每位申请人一张照片，再次上传即替换。' +
        '上传、替换均在同一事务中写入“上传资料”/“替换资料”记录。\n\n需要登录：是（X-Token）',
      tags: [TAG],
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
    parse: parseFields,
    handle: (customer, input, file) => service.upload(customer, input, file),
  });

  return {
    service,
    operations: materialOperations(service),
    uploadRoutes,
    /** GET /files/material/:fileId (the order's enterprise) and /admin-files/material/:fileId (operators, every open logged). */
    registerFileRoutes: fileRoutesOf(service.storedFiles),
  };
}

export type MaterialModule = ReturnType<typeof createMaterialModule>;
