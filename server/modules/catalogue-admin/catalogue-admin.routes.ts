// The back office's 产品管理 calls (/admin-api/catalogue/…): supervisors and catalogue editors
// (产品编辑, common/staff-access.ts 'catalogue').
import {
  adminCatalogueDraftDiscard,
  adminCatalogueDraftPublish,
  adminCatalogueDraftSave,
  adminCatalogueProductEditor,
  adminCatalogueProductList,
  adminCataloguePublicationList,
  adminCatalogueWorkbookExport,
  adminCatalogueWorkbookImport,
  adminCatalogueWorkbookPreview,
  CATALOGUE_WORKBOOK_MAX_BYTES,
} from '../../../common/contracts/catalogue-admin.ts';
import {
  adminCatalogueCountryEditor,
  adminCatalogueCountryList,
  adminCatalogueCountrySave,
  adminCatalogueReviewList,
  adminCatalogueReviewModerate,
} from '../../../common/contracts/catalogue-places.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import { payloadOf, uploadRoute } from '../stored-file/multipart.ts';
import type { CatalogueAdminService } from './catalogue-admin.service.ts';
import type { CatalogueWorkbook } from './catalogue-workbook.ts';

const TAG = '后台 · 产品管理';

const CONTENT_ERRORS = [
  ErrorCode.CATALOGUE_PRICE_INVALID,
  ErrorCode.CATALOGUE_PHOTO_SIZE_INVALID,
  ErrorCode.CATALOGUE_CHECKLIST_EMPTY,
  ErrorCode.CATALOGUE_REFERENCE_INVALID,
  ErrorCode.CATALOGUE_FIELD_INVALID,
];

export function catalogueAdminOperations(service: CatalogueAdminService) {
  return [
    defineOperation({
      ...adminCatalogueProductList,
      tag: TAG,
      summary: '产品列表（主管、产品编辑）：每页 20 个，含未发布的草稿',
      auth: 'catalogue',
      errors: [],
      handle: (payload) => service.list(payload),
    }),
    defineOperation({
      ...adminCatalogueProductEditor,
      tag: TAG,
      summary: '打开产品编辑（主管、产品编辑）：有草稿时为草稿，否则为已发布的内容；不带 id 为新产品',
      auth: 'catalogue',
      errors: [ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND, ErrorCode.CATALOGUE_DRAFT_NOT_FOUND],
      handle: (payload) => service.editor(payload),
    }),
    defineOperation({
      ...adminCatalogueDraftSave,
      tag: TAG,
      summary: '保存草稿（主管、产品编辑）：客人看到的页面不变，发布后才生效',
      description:
        '首次保存带 version=0（编辑已有产品时带 visa_product_id）；之后带上次返回的 draft_id 和 version。' +
        '他人已保存过（version 不一致，或该产品已有他人的草稿）时返回 2324，本次内容不保存，请刷新后再编辑。',
      auth: 'catalogue',
      errors: [...CONTENT_ERRORS, ErrorCode.CATALOGUE_DRAFT_CONFLICT, ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND, ErrorCode.CATALOGUE_DRAFT_NOT_FOUND],
      handle: (payload, { caller }) => service.saveDraft(caller, payload),
    }),
    defineOperation({
      ...adminCatalogueDraftPublish,
      tag: TAG,
      summary: '发布草稿（主管、产品编辑）：写入产品，记录发布人、时间和改动；客人页面的缓存随即失效（各实例）',
      description: '已下的订单保留下单时的价格和产品快照。清单中去掉的资料若已有订单上传了文件，拒绝发布（2329）。',
      auth: 'catalogue',
      errors: [
        ...CONTENT_ERRORS,
        ErrorCode.CATALOGUE_DRAFT_CONFLICT,
        ErrorCode.CATALOGUE_DRAFT_NOT_FOUND,
        ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND,
        ErrorCode.CATALOGUE_MATERIAL_IN_USE,
      ],
      handle: (payload, { caller }) => service.publish(caller, payload),
    }),
    defineOperation({
      ...adminCatalogueDraftDiscard,
      tag: TAG,
      summary: '放弃草稿（主管、产品编辑）',
      auth: 'catalogue',
      errors: [ErrorCode.CATALOGUE_DRAFT_CONFLICT, ErrorCode.CATALOGUE_DRAFT_NOT_FOUND],
      handle: async (payload) => {
        await service.discard(payload);
        return {};
      },
    }),
    defineOperation({
      ...adminCataloguePublicationList,
      tag: TAG,
      summary: '产品的发布记录（主管、产品编辑）：发布人、时间和改动的字段（改前、改后）',
      auth: 'catalogue',
      errors: [],
      handle: (payload) => service.publications(payload.visa_product_id),
    }),
    defineOperation({
      ...adminCatalogueReviewList,
      tag: TAG,
      summary: '产品的评价（主管、产品编辑）：每页 20 条，含已隐藏的，及最近一次隐藏或恢复的人、时间和原因',
      auth: 'catalogue',
      errors: [ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND],
      handle: (payload) => service.reviews.list(payload),
    }),
    defineOperation({
      ...adminCatalogueReviewModerate,
      tag: TAG,
      summary: '隐藏或恢复一条评价（主管、产品编辑，须填原因）：评价内容不可修改；客人页面的评分和评价数随之变化',
      description: '每次隐藏或恢复都记录操作人、时间和原因。客人产品页的缓存随即失效（各实例）。',
      auth: 'catalogue',
      errors: [ErrorCode.CATALOGUE_REVIEW_NOT_FOUND, ErrorCode.CATALOGUE_REVIEW_REASON_REQUIRED, ErrorCode.CATALOGUE_REVIEW_ALREADY],
      handle: (payload, { caller }) => service.reviews.moderate(caller, payload),
    }),
    defineOperation({
      ...adminCatalogueCountryList,
      tag: TAG,
      summary: '国家列表（主管、产品编辑）：大洲、国家代码、国旗、领区数和产品数',
      auth: 'catalogue',
      errors: [],
      handle: () => service.places.list(),
    }),
    defineOperation({
      ...adminCatalogueCountryEditor,
      tag: TAG,
      summary: '打开国家编辑（主管、产品编辑）：国家和它的全部领区（受理省份、领馆地址）；不带 id 为新国家',
      auth: 'catalogue',
      errors: [ErrorCode.CATALOGUE_COUNTRY_NOT_FOUND],
      handle: (payload) => service.places.editor(payload),
    }),
    defineOperation({
      ...adminCatalogueCountrySave,
      tag: TAG,
      summary: '保存国家和它的领区（主管、产品编辑）：与目录导入相同的校验规则',
      description:
        '国家代码重复返回 2346；领区未受理任何省份返回 2347；其他不符合导入规则的内容返回 2345，msg 说明是哪一项。' +
        '带上编辑器读到的 version（新国家为 0）：他人已保存过该国家（含其领区、闭馆日）时返回 2620，本次内容不保存，请刷新后再编辑。',
      auth: 'catalogue',
      errors: [
        ErrorCode.CATALOGUE_COUNTRY_CONFLICT,
        ErrorCode.CATALOGUE_COUNTRY_NOT_FOUND,
        ErrorCode.CATALOGUE_PLACE_INVALID,
        ErrorCode.CATALOGUE_ISO_TAKEN,
        ErrorCode.CATALOGUE_DISTRICT_NO_PROVINCE,
        ErrorCode.CATALOGUE_DISTRICT_IN_USE,
      ],
      handle: (payload) => service.places.save(payload),
    }),
  ];
}

// ── The catalogue workbook (issue 26) ──

const WORKBOOK_UPLOAD_ERRORS = '文件按内容判断（xlsx 是 zip 包），不能超过 10 MB：不是 xlsx 返回 2351，过大 2352，无法读取 2353。';

export function catalogueWorkbookOperations(workbook: CatalogueWorkbook) {
  return [
    defineOperation({
      ...adminCatalogueWorkbookExport,
      tag: TAG,
      summary: '下载产品目录工作簿（主管、产品编辑）：与 npm run catalogue:export 相同的 xlsx（base64）',
      auth: 'catalogue',
      errors: [],
      handle: () => workbook.export(),
    }),
  ];
}

const previewInput = payloadOf(adminCatalogueWorkbookPreview, '只需上传一个文件（file）');
const importInput = payloadOf(adminCatalogueWorkbookImport, '请在文件之前发送预览返回的 sha256');

/** The two multipart calls, each a plugin to register inside the signed scope. */
export function catalogueWorkbookUploadRoutes(workbook: CatalogueWorkbook) {
  const preview = uploadRoute({
    contract: adminCatalogueWorkbookPreview,
    // Anyone else is refused by the session hook before the workbook is read.
    auth: 'catalogue',
    maxBytes: CATALOGUE_WORKBOOK_MAX_BYTES,
    fields: 1,
    schema: {
      summary: '预览导入产品目录工作簿（主管、产品编辑，multipart/form-data）：列出每个工作表新增、修改、删除的行，或每一处错误；不写入',
      description: `只有一个字段 file。${WORKBOOK_UPLOAD_ERRORS}\n\n需要登录：是（主管或产品编辑）`,
      tags: [TAG],
      body: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] },
    },
    parse: previewInput,
    handle: (_caller, _input, file) => workbook.preview(file),
  });
  const apply = uploadRoute({
    contract: adminCatalogueWorkbookImport,
    // Anyone else is refused by the session hook before the workbook is read.
    auth: 'catalogue',
    maxBytes: CATALOGUE_WORKBOOK_MAX_BYTES,
    fields: 2,
    schema: {
      summary: '确认导入产品目录工作簿（主管、产品编辑，multipart/form-data）：全部导入或全部不导入，并记录导入人、时间和改动',
      description:
        `字段须在文件之前：sha256（预览返回的）；最后是 file。${WORKBOOK_UPLOAD_ERRORS}` +
        '文件与预览时不同返回 2355；仍有错误行返回 2354，不导入任何内容。\n\n需要登录：是（主管或产品编辑）',
      tags: [TAG],
      body: {
        type: 'object',
        properties: { sha256: { type: 'string' }, file: { type: 'string', format: 'binary' } },
        required: ['sha256', 'file'],
      },
    },
    parse: importInput,
    handle: (caller, input, file) => workbook.import(caller, input, file),
  });
  return [preview, apply];
}
