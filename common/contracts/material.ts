// The material calls: the checklist with its files, deleting a file, the
// effect date, and the multipart upload (form fields, then one file).
import { z } from 'zod';
import { ORDER_EVENT_VALUES } from '../order.ts';
import { MATERIAL_CONTENT_TYPES, MATERIAL_EDIT_MODES, MATERIAL_REVIEW_STATUS_VALUES } from '../material.ts';
import { defineContract, type ResultOf } from './define.ts';
import { rowId } from './fields.ts';
import { missingMaterial } from './order.ts';
import { photoCheckView } from './photo-check.ts';

const fileKind = z.enum(['material', 'photo']);

const file = z.object({
  file_id: z.number(),
  kind: fileKind,
  material_id: z.number().nullable().describe('签证照片为 null'),
  file_name: z.string(),
  content_type: z.enum(MATERIAL_CONTENT_TYPES).describe('按文件内容检测的类型'),
  size: z.number().describe('字节'),
  url: z.string().describe('GET 获取文件，凭登录 Cookie（token）鉴权，只对订单所属企业可见；替换后地址变化'),
  review_status: z.enum(MATERIAL_REVIEW_STATUS_VALUES),
  review_status_label: z.string(),
  no_pass_memo: z.string().nullable(),
  created_at: z.number(),
  reused_from_traveller: z.boolean().describe('来自常用出行人保存的证件（同一文件，未复制）'),
});

const item = z.object({
  material_id: z.number(),
  name: z.string(),
  attention: z.string(),
  sample: z.string().nullable().describe('样例图片地址'),
  required: z.boolean(),
});

const electronicItem = item.extend({ files: z.array(file), editable: z.boolean().describe('现在可以添加、替换或删除该项的文件') });

const applicantMaterials = z.object({
  applicant_id: z.number(),
  name: z.string(),
  identity_id: z.number(),
  identity_label: z.string(),
  electronic: z.array(electronicItem).describe('电子资料（attr 0），在此上传'),
  mailed: z.array(item).describe('邮寄资料（attr 1）'),
  bring: z.array(item).describe('赴馆资料（attr 2）'),
  photo: z
    .object({
      required: z.literal(true),
      editable: z.boolean(),
      files: z.array(file),
      check: photoCheckView.nullable().describe('当前照片的自动检测结果（签证照片检测，issue 28）；未检测为 null'),
    })
    .nullable()
    .describe('产品不需要照片时为 null'),
});

const missing = z.array(missingMaterial);

export const materialList = defineContract({
  path: '/www/order/material_list',
  payload: z.object({ user_order_id: rowId }),
  result: z.object({
    user_order_id: z.number(),
    status: z.string(),
    status_label: z.string(),
    step: z.string().nullable(),
    mode: z.enum(MATERIAL_EDIT_MODES).describe('draft 可上传全部资料；reupload 只能修改审核未通过的资料；closed 不能修改'),
    allowed_events: z
      .array(z.enum(ORDER_EVENT_VALUES))
      .describe('按订单生命周期表，客户此刻可以发起的事件（material_upload、effect_date、reupload_submit…）；页面只显示这些操作'),
    need_interview: z.boolean(),
    order_date: z.string(),
    departure_date: z.string(),
    effect_date: z.string().nullable().describe('null = 自出发日期生效'),
    photo_spec: z
      .object({ visa_photo_id: z.number(), name: z.string(), width: z.number(), height: z.number(), color: z.number(), color_name: z.string() })
      .nullable()
      .describe('签证照片规格（毫米，底色 0 蓝 1 白 2 红 3 灰）；产品不需要照片时为 null'),
    max_file_bytes: z.number(),
    max_files_per_material: z.number(),
    applicants: z.array(applicantMaterials),
    missing: missing.describe('尚未上传的必需电子资料和照片'),
  }),
});

export const materialDelete = defineContract({
  path: '/www/order/material_delete',
  payload: z.object({ user_order_id: rowId, file_id: rowId }),
  result: z.object({ file_id: z.number(), missing }),
});

export const effectDateSet = defineContract({
  path: '/www/order/effect_date_set',
  payload: z.object({
    user_order_id: rowId,
    effect_date: z.string().max(32).nullish().describe('YYYY-MM-DD，不早于办理日期、不晚于出发日期；null 或省略 = 出发日期生效'),
  }),
  result: z.object({ effect_date: z.string().nullable() }),
});

/** The upload's text fields (each a string on the wire, before the file). */
export const materialUpload = defineContract({
  path: '/www/order/material_upload',
  body: 'multipart',
  payload: z.object({
    user_order_id: rowId,
    applicant_id: rowId,
    material_id: rowId.optional(),
    kind: fileKind.optional(),
    replace_file_id: rowId.optional(),
  }),
  result: z.object({
    file,
    replaced: z.boolean().describe('替换了已有文件（file_id 不变，内容更新）'),
    missing,
    photo_check: photoCheckView.nullable().describe('签证照片的自动检测结果（上传资料时为 null）'),
  }),
});

/** Re-upload done: the order goes back into the operators' review (reupload_needed → material_review). */
export const reuploadSubmit = defineContract({
  path: '/www/order/reupload_submit',
  payload: z.object({ user_order_id: rowId }),
  result: z.object({
    user_order_id: z.number(),
    status: z.string(),
    step: z.string().nullable(),
    step_label: z.string().nullable(),
    review_round: z.number().describe('新的审核轮次'),
  }),
});

export const MATERIAL_CONTRACTS = [materialList, materialDelete, effectDateSet, materialUpload, reuploadSubmit] as const;

export type MaterialFileView = z.output<typeof file>;
export type ChecklistItem = z.output<typeof item>;
export type ElectronicItem = z.output<typeof electronicItem>;
export type ApplicantMaterials = z.output<typeof applicantMaterials>;
export type PhotoSpec = NonNullable<MaterialListResult['photo_spec']>;
export type MaterialListResult = ResultOf<typeof materialList>;
export type MaterialUploadResult = ResultOf<typeof materialUpload>;
export type MaterialDeleteResult = ResultOf<typeof materialDelete>;
export type EffectDateResult = ResultOf<typeof effectDateSet>;
export type ReuploadSubmitResult = ResultOf<typeof reuploadSubmit>;
