// The saved travellers' calls (常用出行人, issue 28 part 3): list, save (with
// the traveller's consent), delete, their documents (multipart upload,
// delete), and on an order's upload step the documents offered for each
// applicant and taking one. Text fields are loose in the payload: the service
// answers each broken rule with its own Chinese error (2401–2419).
import { z } from 'zod';
import { MATERIAL_CONTENT_TYPES } from '../material.ts';
import { TRAVELLER_DOCUMENT_TYPE_VALUES } from '../traveller.ts';
import { defineContract, type ResultOf } from './define.ts';
import { idField, rowId } from './fields.ts';
import { missingMaterial } from './order.ts';

const docType = z.enum(TRAVELLER_DOCUMENT_TYPE_VALUES);

const document = z.object({
  document_id: z.number(),
  doc_type: docType,
  doc_type_label: z.string(),
  file_name: z.string(),
  content_type: z.enum(MATERIAL_CONTENT_TYPES),
  size: z.number(),
  taken_date: z.string().nullable().describe('拍摄（扫描）日期'),
  expiry_date: z.string().nullable().describe('证件有效期至'),
  usable: z.boolean().describe('现在可用于订单（未过期；照片拍摄不超过六个月）'),
  unusable_reason: z.string().nullable(),
  url: z.string().describe('GET 获取文件，凭登录 Cookie（token）鉴权，只对本企业可见'),
  created_at: z.number(),
});

const traveller = z.object({
  traveller_id: z.number(),
  name: z.string(),
  pinyin: z.string(),
  sex: z.enum(['M', 'F']),
  birth_date: z.string(),
  mobile_phone: z.string(),
  email: z.string().nullable(),
  identity_id: z.number(),
  identity_label: z.string(),
  passport_no: z.string().nullable(),
  passport_expiry: z.string().nullable(),
  consent_at: z.number().describe('出行人同意保存其资料的时间（每次保存时记录）'),
  documents: z.array(document),
  updated_at: z.number(),
});

export const travellerList = defineContract({
  path: '/www/traveller/traveller_list',
  payload: z.object({}),
  result: z.object({ list: z.array(traveller) }),
});

export const travellerSave = defineContract({
  path: '/www/traveller/traveller_save',
  payload: z.object({
    traveller_id: idField.nullish().describe('修改时传入；不传为新增'),
    name: z.string().max(200),
    pinyin: z.string().max(200).describe('姓名拼音（护照上的写法），如 ZHANG SAN'),
    sex: z.string().max(4).describe('M 男 / F 女'),
    birth_date: z.string().max(32).describe('YYYY-MM-DD'),
    mobile_phone: z.string().max(40),
    email: z.string().max(200).nullish(),
    identity_id: z.number().int().min(-1).max(99).describe('0 在职人员 1 自由职业者 2 退休人员 3 在校学生 4 学龄前儿童'),
    passport_no: z.string().max(40).nullish(),
    passport_expiry: z.string().max(32).nullish(),
    consent: z.boolean().describe('出行人已同意保存其个人信息和证件（必须为 true）'),
  }),
  result: traveller,
});

export const travellerDelete = defineContract({
  path: '/www/traveller/traveller_delete',
  payload: z.object({ traveller_id: idField }),
  result: z.object({
    traveller_id: z.number(),
    documents_deleted: z.number(),
    documents_kept_for_orders: z.number().describe('仍被订单使用的证件文件：随订单保留，订单结束后按保留期限删除'),
  }),
});

/** The upload's text fields (each a string on the wire, before the file). */
export const travellerDocumentUpload = defineContract({
  path: '/www/traveller/document_upload',
  body: 'multipart',
  payload: z.object({
    traveller_id: rowId,
    doc_type: z.string().max(20),
    taken_date: z.string().max(32).optional(),
    expiry_date: z.string().max(32).optional(),
  }),
  result: document,
});

export const travellerDocumentDelete = defineContract({
  path: '/www/traveller/document_delete',
  payload: z.object({ document_id: idField }),
  result: z.object({ document_id: z.number(), kept_for_orders: z.boolean() }),
});

const offer = z.object({
  document_id: z.number(),
  doc_type: docType,
  doc_type_label: z.string(),
  file_name: z.string(),
  taken_date: z.string().nullable(),
  expiry_date: z.string().nullable(),
  url: z.string(),
  material_id: z.number().nullable().describe('资料项；null = 签证照片'),
  material_name: z.string(),
  /** The item already holds this very file. */
  used: z.boolean().describe('该资料项已使用此证件'),
});

export const travellerOffers = defineContract({
  path: '/www/traveller/offer_list',
  payload: z.object({ user_order_id: rowId }),
  result: z.object({
    applicants: z.array(
      z.object({
        applicant_id: z.number(),
        applicant_name: z.string(),
        traveller_id: z.number(),
        offers: z.array(offer),
        skipped: z.array(z.object({ document_id: z.number(), doc_type_label: z.string(), reason: z.string() })).describe('过期或照片过旧而不提供的证件'),
      }),
    ),
  }),
});

export const travellerOfferAccept = defineContract({
  path: '/www/traveller/offer_accept',
  payload: z.object({
    user_order_id: rowId,
    applicant_id: rowId,
    document_id: rowId,
    material_id: rowId.nullish().describe('资料项；不传 = 签证照片'),
  }),
  result: z.object({ file_id: z.number(), replaced: z.boolean(), missing: z.array(missingMaterial) }),
});

export const TRAVELLER_CONTRACTS = [
  travellerList,
  travellerSave,
  travellerDelete,
  travellerDocumentUpload,
  travellerDocumentDelete,
  travellerOffers,
  travellerOfferAccept,
] as const;

export type TravellerView = z.output<typeof traveller>;
export type TravellerDocumentView = z.output<typeof document>;
export type TravellerListResult = ResultOf<typeof travellerList>;
export type TravellerOffersResult = ResultOf<typeof travellerOffers>;
export type TravellerDeleteResult = ResultOf<typeof travellerDelete>;
