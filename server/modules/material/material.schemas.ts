// Payload and result schemas of the material calls. Results are checked
// against the types of common/material.ts at compile time.
import { z } from 'zod';
import {
  type EffectDateResult,
  MATERIAL_CONTENT_TYPES,
  type MaterialDeleteResult,
  type MaterialListResult,
  type MaterialUploadResult,
} from '../../../common/material.ts';
import { idField } from '../catalogue/catalogue.schemas.ts';

/** Ids are 32-bit in the database: a larger one is refused here rather than by PostgreSQL. */
export const rowId = idField.pipe(z.number().max(2_147_483_647));

export const materialListPayload = z.object({ user_order_id: rowId });

export const materialDeletePayload = z.object({ user_order_id: rowId, file_id: rowId });

export const effectDatePayload = z.object({
  user_order_id: rowId,
  effect_date: z.string().max(32).nullish().describe('YYYY-MM-DD，不早于办理日期、不晚于出发日期；null 或省略 = 出发日期生效'),
});

/** The text fields of the multipart upload (each a string on the wire). */
export const uploadFields = z.object({
  user_order_id: rowId,
  applicant_id: rowId,
  material_id: rowId.optional(),
  kind: z.enum(['material', 'photo']).optional(),
  replace_file_id: rowId.optional(),
});

const file = z.object({
  file_id: z.number(),
  kind: z.enum(['material', 'photo']),
  material_id: z.number().nullable(),
  file_name: z.string(),
  content_type: z.enum(MATERIAL_CONTENT_TYPES).describe('按文件内容检测的类型'),
  size: z.number().describe('字节'),
  url: z.string().describe('GET 获取文件，凭登录 Cookie（token）鉴权，只对订单所属企业可见'),
  review_status: z.enum(['pending', 'passed', 'no_pass']),
  review_status_label: z.string(),
  no_pass_memo: z.string().nullable(),
  created_at: z.number(),
});

const item = z.object({
  material_id: z.number(),
  name: z.string(),
  attention: z.string(),
  sample: z.string().nullable(),
  required: z.boolean(),
});

const missing = z.array(z.object({ applicant_id: z.number(), applicant_name: z.string(), material_id: z.number().nullable(), name: z.string() }));

export const materialListResult = z.object({
  user_order_id: z.number(),
  status: z.string(),
  status_label: z.string(),
  step: z.string().nullable(),
  mode: z.enum(['draft', 'reupload', 'closed']).describe('draft 可上传全部资料；reupload 只能修改审核未通过的资料；closed 不能修改'),
  need_interview: z.boolean(),
  order_date: z.string(),
  departure_date: z.string(),
  effect_date: z.string().nullable(),
  photo_spec: z
    .object({ visa_photo_id: z.number(), name: z.string(), width: z.number(), height: z.number(), color: z.number(), color_name: z.string() })
    .nullable()
    .describe('签证照片规格（毫米，底色 0 蓝 1 白 2 红 3 灰）；产品不需要照片时为 null'),
  max_file_bytes: z.number(),
  max_files_per_material: z.number(),
  applicants: z.array(
    z.object({
      applicant_id: z.number(),
      name: z.string(),
      identity_id: z.number(),
      identity_label: z.string(),
      electronic: z.array(item.extend({ files: z.array(file), editable: z.boolean() })).describe('电子资料（attr 0），在此上传'),
      mailed: z.array(item).describe('邮寄资料（attr 1）'),
      bring: z.array(item).describe('赴馆资料（attr 2）'),
      photo: z.object({ required: z.literal(true), editable: z.boolean(), files: z.array(file) }).nullable(),
    }),
  ),
  missing: missing.describe('尚未上传的必需电子资料和照片'),
}) satisfies z.ZodType<MaterialListResult>;

export const materialUploadResult = z.object({ file, replaced: z.boolean(), missing }) satisfies z.ZodType<MaterialUploadResult>;

export const materialDeleteResult = z.object({ file_id: z.number(), missing }) satisfies z.ZodType<MaterialDeleteResult>;

export const effectDateResult = z.object({ effect_date: z.string().nullable() }) satisfies z.ZodType<EffectDateResult>;
