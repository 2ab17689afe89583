// The back office's 产品管理 calls (issue 26, `/admin-api/catalogue/…`):
// the product list, the editor's read, saving a draft, publishing it (audited)
// and discarding it, and a product's publications. A change is a draft until
// published; the draft carries a version, so a second editor's save is refused
// (2324) rather than overwriting the first one's.
//
// The payload's shapes are checked here (types, lengths); the business rules
// — a price in whole cents, a photo size in range, a checklist for every
// offered identity — are the service's, each with its own Chinese message.
import { z } from 'zod';
import { defineContract, type ResultOf } from './define.ts';
import { idField, noResult, pageField } from './fields.ts';

const text = (max: number) => z.string().max(max);
/** A number as sent: the service says what is wrong with it (negative, not whole cents, out of range). */
const amount = z.number();

export const PROCEDURE_ICON_NAMES = ['form', 'upload', 'review', 'submit', 'interview', 'visa', 'express'] as const;
export const PROCEDURE_ICON_LABELS: Record<(typeof PROCEDURE_ICON_NAMES)[number], string> = {
  form: '填写表单',
  upload: '上传资料',
  review: '资料审核',
  submit: '递交使馆',
  interview: '面试/录指纹',
  visa: '出签',
  express: '快递寄回',
};

export const materialContent = z.object({
  required: z.boolean(),
  attr: z.union([z.literal(0), z.literal(1), z.literal(2)]).describe('0 电子资料，1 邮寄资料，2 赴馆资料'),
  name: text(100),
  attention: text(2000),
  sample: text(200).nullable().describe('样例图片地址（站内路径或 https 地址）'),
});

export const checklistContent = z.object({
  identity_id: z.number().int().min(0).max(4),
  offered: z.boolean().describe('是否接受该身份的申请人；接受的身份须至少有一项资料'),
  materials: z.array(materialContent).max(60),
});

/** Everything the editor edits: the fields of spec §3 that the catalogue stores, and the five checklists. */
export const productContent = z.object({
  visa_country_id: idField,
  visa_type_id: idField,
  consular_district_id: idField.nullable().describe('null：不分领区'),
  product_special_desc: text(100),
  entry_times: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  stay_days: amount,
  valid_days: amount,
  need_days: amount,
  need_days_detail: text(100),
  pass_rate: amount.describe('出签率 × 100（9850 = 98.5%）'),
  sell_price: amount.describe('分'),
  distributor_discount: z.object({ desc: text(50), price: amount.describe('分') }).nullable(),
  basic_info: z.array(z.object({ title: text(50), content: text(2000) })).max(20),
  common_info: z.array(z.object({ type: z.union([z.literal(0), z.literal(1)]), num: amount, unit: text(50), title: text(50) })).max(10),
  reject_refund: z.boolean(),
  procedure: z.array(z.object({ icon: z.enum(PROCEDURE_ICON_NAMES), title: text(50) })).max(10),
  handle_process: z.array(z.object({ title: text(100), content: text(2000) })).max(20),
  reminder: text(5000),
  photo: z.object({ color: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]), width: amount, height: amount }).nullable(),
  offline: z.boolean().describe('true：支持线下办理（网页下单）；false：仅小程序'),
  listed: z.boolean().describe('false：已下架'),
  need_interview: z.boolean(),
  checklists: z.array(checklistContent).length(5),
});

const MULTILINE = ['content.basic_info[].content', 'content.handle_process[].content', 'content.reminder', 'content.checklists[].materials[].attention'];

const productRow = z.object({
  visa_product_id: z.number(),
  title: z.string(),
  country: z.string(),
  visa_type: z.string(),
  sell_price: z.number(),
  listed: z.boolean(),
  offline: z.boolean(),
  updated_at: z.number(),
  draft: z.object({ draft_id: z.number(), updated_at: z.number(), updated_by: z.string() }).nullable().describe('未发布的草稿'),
});

export const adminCatalogueProductList = defineContract({
  path: '/admin-api/catalogue/product_list',
  payload: z.object({ keyword: text(50).optional(), page: pageField }),
  result: z.object({
    list: z.array(productRow),
    total_count: z.number(),
    new_drafts: z.array(z.object({ draft_id: z.number(), title: z.string(), updated_at: z.number(), updated_by: z.string() })).describe('尚未发布的新产品草稿'),
  }),
});

const reference = z.object({
  countries: z.array(z.object({ visa_country_id: z.number(), name: z.string(), iso_code: z.string(), continent_id: z.number() })),
  visa_types: z.array(z.object({ visa_type_id: z.number(), name: z.string() })),
  districts: z.array(z.object({ consular_district_id: z.number(), visa_country_id: z.number(), name: z.string() })),
});

export const adminCatalogueProductEditor = defineContract({
  path: '/admin-api/catalogue/product_editor',
  payload: z.object({ visa_product_id: idField.optional(), draft_id: idField.optional() }),
  result: z.object({
    visa_product_id: z.number().nullable(),
    draft_id: z.number().nullable().describe('null：没有草稿（编辑的是已发布的内容）'),
    version: z.number().describe('草稿的版本；没有草稿时为 0。保存、发布时原样带上'),
    content: productContent,
    published: productContent.nullable().describe('已发布的内容；新产品为 null'),
    reviews: z.object({ sum_score: z.number(), reviews: z.number() }),
    reference,
  }),
});

export const adminCatalogueDraftSave = defineContract({
  path: '/admin-api/catalogue/draft_save',
  payload: z.object({
    visa_product_id: idField.optional().describe('编辑已有产品时'),
    draft_id: idField.optional().describe('已有草稿时'),
    version: z.number().int().min(0).max(2_000_000_000),
    content: productContent,
  }),
  multiline: MULTILINE,
  result: z.object({ draft_id: z.number(), version: z.number() }),
});

export const adminCatalogueDraftPublish = defineContract({
  path: '/admin-api/catalogue/draft_publish',
  payload: z.object({ draft_id: idField, version: z.number().int().min(0).max(2_000_000_000) }),
  result: z.object({ visa_product_id: z.number(), publication_id: z.number() }),
});

export const adminCatalogueDraftDiscard = defineContract({
  path: '/admin-api/catalogue/draft_discard',
  payload: z.object({ draft_id: idField, version: z.number().int().min(0).max(2_000_000_000) }),
  result: noResult,
});

export const publicationChange = z.object({ field: z.string(), label: z.string(), before: z.unknown(), after: z.unknown() });

export const adminCataloguePublicationList = defineContract({
  path: '/admin-api/catalogue/publication_list',
  payload: z.object({ visa_product_id: idField }),
  result: z.object({
    list: z.array(z.object({ publication_id: z.number(), operator_name: z.string(), published_at: z.number(), changes: z.array(publicationChange) })),
  }),
});

// ── The catalogue workbook in the back office (issue 26): download, preview an upload, import it ──

/** The largest workbook a supervisor may upload. */
export const CATALOGUE_WORKBOOK_MAX_BYTES = 10 * 1024 * 1024;

export const adminCatalogueWorkbookExport = defineContract({
  path: '/admin-api/catalogue/workbook_export',
  payload: z.object({}),
  result: z.object({ file_name: z.string(), content_base64: z.string().describe('xlsx 的内容（base64）') }),
});

const workbookRowChange = z.object({
  change: z.enum(['added', 'changed', 'removed']),
  row: z.number().describe('工作表中的行号；删除的行为 0'),
  label: z.string(),
  columns: z.array(z.string()).describe('修改的行改动的列（表头）'),
  values: z
    .array(z.object({ column: z.string(), before: z.string(), after: z.string() }))
    .describe('这些列改动前后的值，按工作表的写法（元、百分比、文字标签）；空单元格为空字符串'),
});
const workbookSheetChanges = z.object({
  sheet: z.string(),
  added: z.number(),
  changed: z.number(),
  unchanged: z.number(),
  removed: z.number(),
  rows: z.array(workbookRowChange),
});
const workbookProblem = z.object({ sheet: z.string(), row: z.number(), column: z.string(), reason: z.string() });

export const adminCatalogueWorkbookPreview = defineContract({
  path: '/admin-api/catalogue/workbook_preview',
  body: 'multipart',
  payload: z.object({}),
  result: z.object({
    file_name: z.string(),
    size_bytes: z.number(),
    sha256: z.string().describe('确认导入时带上，保证导入的是预览过的文件'),
    sheets: z.array(workbookSheetChanges),
    problems: z.array(workbookProblem).describe('有任何一行错误时不能导入'),
  }),
});

export const adminCatalogueWorkbookImport = defineContract({
  path: '/admin-api/catalogue/workbook_import',
  body: 'multipart',
  payload: z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  result: z.object({ import_id: z.number(), sheets: z.array(workbookSheetChanges) }),
});

export type WorkbookPreview = ResultOf<typeof adminCatalogueWorkbookPreview>;

export const CATALOGUE_ADMIN_CONTRACTS = [
  adminCatalogueProductList,
  adminCatalogueProductEditor,
  adminCatalogueDraftSave,
  adminCatalogueDraftPublish,
  adminCatalogueDraftDiscard,
  adminCataloguePublicationList,
  adminCatalogueWorkbookExport,
  adminCatalogueWorkbookPreview,
  adminCatalogueWorkbookImport,
] as const;

export type ProductContent = z.output<typeof productContent>;
export type MaterialContent = z.output<typeof materialContent>;
export type ProductEditor = ResultOf<typeof adminCatalogueProductEditor>;
export type CatalogueReference = ProductEditor['reference'];
export type CatalogueProductList = ResultOf<typeof adminCatalogueProductList>;
export type Publication = ResultOf<typeof adminCataloguePublicationList>['list'][number];

/** The labels of the content's fields (the publication's diff, the editor). */
export const PRODUCT_FIELD_LABELS: Record<keyof ProductContent, string> = {
  visa_country_id: '国家',
  visa_type_id: '签证类型',
  consular_district_id: '领区',
  product_special_desc: '产品说明',
  entry_times: '入境次数',
  stay_days: '停留天数',
  valid_days: '有效期（天）',
  need_days: '办理工作日',
  need_days_detail: '办理时长说明',
  pass_rate: '出签率',
  sell_price: '价格',
  distributor_discount: '企业价',
  basic_info: '基本信息',
  common_info: '特色信息条',
  reject_refund: '拒签退全款',
  procedure: '办理步骤图标',
  handle_process: '办理流程',
  reminder: '温馨提示',
  photo: '照片要求',
  offline: '支持线下办理',
  listed: '上架',
  need_interview: '需要面试/录指纹',
  checklists: '材料清单',
};
