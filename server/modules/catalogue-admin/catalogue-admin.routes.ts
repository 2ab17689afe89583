// The back office's 产品管理 calls (/admin-api/catalogue/…): supervisors only.
import {
  adminCatalogueDraftDiscard,
  adminCatalogueDraftPublish,
  adminCatalogueDraftSave,
  adminCatalogueProductEditor,
  adminCatalogueProductList,
  adminCataloguePublicationList,
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
import type { CatalogueAdminService } from './catalogue-admin.service.ts';

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
      summary: '产品列表（主管）：每页 20 个，含未发布的草稿',
      auth: 'supervisor',
      errors: [],
      handle: (payload) => service.list(payload),
    }),
    defineOperation({
      ...adminCatalogueProductEditor,
      tag: TAG,
      summary: '打开产品编辑（主管）：有草稿时为草稿，否则为已发布的内容；不带 id 为新产品',
      auth: 'supervisor',
      errors: [ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND, ErrorCode.CATALOGUE_DRAFT_NOT_FOUND],
      handle: (payload) => service.editor(payload),
    }),
    defineOperation({
      ...adminCatalogueDraftSave,
      tag: TAG,
      summary: '保存草稿（主管）：客人看到的页面不变，发布后才生效',
      description:
        '首次保存带 version=0（编辑已有产品时带 visa_product_id）；之后带上次返回的 draft_id 和 version。' +
        '他人已保存过（version 不一致，或该产品已有他人的草稿）时返回 2324，本次内容不保存，请刷新后再编辑。',
      auth: 'supervisor',
      errors: [...CONTENT_ERRORS, ErrorCode.CATALOGUE_DRAFT_CONFLICT, ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND, ErrorCode.CATALOGUE_DRAFT_NOT_FOUND],
      handle: (payload, { caller }) => service.saveDraft(caller, payload),
    }),
    defineOperation({
      ...adminCatalogueDraftPublish,
      tag: TAG,
      summary: '发布草稿（主管）：写入产品，记录发布人、时间和改动；客人页面的缓存随即失效（各实例）',
      description: '已下的订单保留下单时的价格和产品快照。清单中去掉的资料若已有订单上传了文件，拒绝发布（2329）。',
      auth: 'supervisor',
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
      summary: '放弃草稿（主管）',
      auth: 'supervisor',
      errors: [ErrorCode.CATALOGUE_DRAFT_CONFLICT, ErrorCode.CATALOGUE_DRAFT_NOT_FOUND],
      handle: async (payload) => {
        await service.discard(payload);
        return {};
      },
    }),
    defineOperation({
      ...adminCataloguePublicationList,
      tag: TAG,
      summary: '产品的发布记录（主管）：发布人、时间和改动的字段（改前、改后）',
      auth: 'supervisor',
      errors: [],
      handle: (payload) => service.publications(payload.visa_product_id),
    }),
    defineOperation({
      ...adminCatalogueReviewList,
      tag: TAG,
      summary: '产品的评价（主管）：每页 20 条，含已隐藏的，及最近一次隐藏或恢复的人、时间和原因',
      auth: 'supervisor',
      errors: [ErrorCode.CATALOGUE_PRODUCT_NOT_FOUND],
      handle: (payload) => service.reviews.list(payload),
    }),
    defineOperation({
      ...adminCatalogueReviewModerate,
      tag: TAG,
      summary: '隐藏或恢复一条评价（主管，须填原因）：评价内容不可修改；客人页面的评分和评价数随之变化',
      description: '每次隐藏或恢复都记录操作人、时间和原因。客人产品页的缓存随即失效（各实例）。',
      auth: 'supervisor',
      errors: [ErrorCode.CATALOGUE_REVIEW_NOT_FOUND, ErrorCode.CATALOGUE_REVIEW_REASON_REQUIRED, ErrorCode.CATALOGUE_REVIEW_ALREADY],
      handle: (payload, { caller }) => service.reviews.moderate(caller, payload),
    }),
    defineOperation({
      ...adminCatalogueCountryList,
      tag: TAG,
      summary: '国家列表（主管）：大洲、国家代码、国旗、领区数和产品数',
      auth: 'supervisor',
      errors: [],
      handle: () => service.places.list(),
    }),
    defineOperation({
      ...adminCatalogueCountryEditor,
      tag: TAG,
      summary: '打开国家编辑（主管）：国家和它的全部领区（受理省份、领馆地址）；不带 id 为新国家',
      auth: 'supervisor',
      errors: [ErrorCode.CATALOGUE_COUNTRY_NOT_FOUND],
      handle: (payload) => service.places.editor(payload),
    }),
    defineOperation({
      ...adminCatalogueCountrySave,
      tag: TAG,
      summary: '保存国家和它的领区（主管）：与目录导入相同的校验规则',
      description: '国家代码重复返回 2346；领区未受理任何省份返回 2347；其他不符合导入规则的内容返回 2345，msg 说明是哪一项。',
      auth: 'supervisor',
      errors: [
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
