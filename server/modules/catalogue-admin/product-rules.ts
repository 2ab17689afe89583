// The business rules of an edited product (issue 26), checked before any
// draft is stored and again before it is published: each answers its own
// Chinese message, so the editor can say exactly what to fix. The payload's
// shape (types, lengths) was checked by the contract already.
import type { ProductContent } from '../../../common/contracts/catalogue-admin.ts';
import { IDENTITIES } from '../../../common/constants.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { AppError } from '../../platform/errors.ts';

/** The highest price the editor accepts: ¥1,000,000 (cents). */
export const MAX_PRICE_CENTS = 100_000_000;
/** A visa photo's side, in millimetres (the embassies ask 33×48, 35×45, 51×51 …). */
export const PHOTO_MM_MIN = 20;
export const PHOTO_MM_MAX = 80;
/** A sample image: a path of this site or an https address. */
const SAMPLE_PATTERN = /^(\/[\w\-./%]+|https:\/\/[\w\-.]+(:\d+)?(\/[\w\-./%?=&]*)?)$/;

function fieldError(msg: string): AppError {
  return new AppError(ErrorCode.CATALOGUE_FIELD_INVALID, msg);
}

function wholeNumber(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

function price(value: number, what: string): void {
  if (!wholeNumber(value, 0, MAX_PRICE_CENTS)) {
    throw new AppError(ErrorCode.CATALOGUE_PRICE_INVALID, `${what}须为不小于 0 的整数（单位：分，最多 ${MAX_PRICE_CENTS}）`);
  }
}

function filled(value: string, what: string): void {
  if (value.trim() === '') throw fieldError(`请填写${what}`);
}

/** Throws the first rule the content breaks (2321–2323, 2328). */
export function checkProductContent(content: ProductContent): void {
  price(content.sell_price, '价格');
  if (content.distributor_discount) {
    price(content.distributor_discount.price, '企业价');
    filled(content.distributor_discount.desc, '企业价说明');
  }
  filled(content.product_special_desc, '产品说明');
  filled(content.need_days_detail, '办理时长说明');
  if (!wholeNumber(content.need_days, 1, 365)) throw fieldError('办理工作日须为 1–365 的整数');
  if (!wholeNumber(content.stay_days, 1, 3650)) throw fieldError('停留天数须为 1–3650 的整数');
  if (!wholeNumber(content.valid_days, 1, 3650)) throw fieldError('有效期须为 1–3650 的整数（天）');
  if (!wholeNumber(content.pass_rate, 0, 10_000)) throw fieldError('出签率须在 0–100% 之间（最多两位小数）');
  content.basic_info.forEach((item, index) => {
    filled(item.title, `第 ${index + 1} 条基本信息的标题`);
    filled(item.content, `第 ${index + 1} 条基本信息的内容`);
  });
  content.common_info.forEach((item, index) => {
    filled(item.title, `第 ${index + 1} 个特色信息的标题`);
    if (!wholeNumber(item.num, 0, 100_000)) throw fieldError(`第 ${index + 1} 个特色信息的数值须为 0–100000 的整数`);
    if (item.type === 1) filled(item.unit, `第 ${index + 1} 个特色信息的文字`);
  });
  content.procedure.forEach((item, index) => filled(item.title, `第 ${index + 1} 个办理步骤图标的文字`));
  content.handle_process.forEach((item, index) => filled(item.title, `办理流程第 ${index + 1} 步的标题`));
  if (content.photo) {
    const { width, height } = content.photo;
    if (!wholeNumber(width, PHOTO_MM_MIN, PHOTO_MM_MAX) || !wholeNumber(height, PHOTO_MM_MIN, PHOTO_MM_MAX)) {
      throw new AppError(ErrorCode.CATALOGUE_PHOTO_SIZE_INVALID, `照片尺寸须在 ${PHOTO_MM_MIN}–${PHOTO_MM_MAX} 毫米之间（宽 ${width}，高 ${height}）`);
    }
  }
  checkChecklists(content.checklists);
}

function checkChecklists(checklists: ProductContent['checklists']): void {
  const ids = checklists.map((checklist) => checklist.identity_id).sort();
  if (ids.join(',') !== '0,1,2,3,4') throw fieldError('须为五种申请人身份各给出一份清单');
  if (!checklists.some((checklist) => checklist.offered)) throw new AppError(ErrorCode.CATALOGUE_CHECKLIST_EMPTY, '至少接受一种申请人身份');
  for (const checklist of checklists) {
    const identity = IDENTITIES[checklist.identity_id as keyof typeof IDENTITIES];
    if (checklist.offered && checklist.materials.length === 0) {
      throw new AppError(ErrorCode.CATALOGUE_CHECKLIST_EMPTY, `「${identity}」的材料清单为空：请添加资料，或不接受该身份`);
    }
    const names = new Set<string>();
    checklist.materials.forEach((material, index) => {
      filled(material.name, `「${identity}」第 ${index + 1} 项资料的名称`);
      const key = `${material.attr}:${material.name.trim()}`;
      if (names.has(key)) throw fieldError(`「${identity}」的资料「${material.name.trim()}」重复了`);
      names.add(key);
      if (material.sample !== null && material.sample !== '' && !SAMPLE_PATTERN.test(material.sample)) {
        throw fieldError(`「${identity}」的资料「${material.name.trim()}」的样例地址须为站内路径或 https 地址`);
      }
    });
  }
}

/** The content as stored: texts trimmed, an empty sample as none, an unoffered identity without materials. */
export function normalizeContent(content: ProductContent): ProductContent {
  return {
    ...content,
    product_special_desc: content.product_special_desc.trim(),
    need_days_detail: content.need_days_detail.trim(),
    checklists: [...content.checklists]
      .sort((a, b) => a.identity_id - b.identity_id)
      .map((checklist) => ({
        ...checklist,
        materials: checklist.offered
          ? checklist.materials.map((material) => ({
              ...material,
              name: material.name.trim(),
              sample: material.sample?.trim() ? material.sample.trim() : null,
            }))
          : [],
      })),
  };
}
