import {
  visaContinentList,
  visaCountryGet,
  visaProductDetailGet,
  visaProductList,
  visaProductMaterialSend,
  visaProductReviewList,
} from '../../../common/contracts/catalogue.ts';
import { EMAIL_PATTERN } from '../../../common/contracts/rules.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { normalizeInputText } from '../../../common/text.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import type { Mailer } from '../notification/mailer.ts';
import { renderMaterialListEmail } from '../notification/material-list-email.ts';
import { defineOperation } from '../../platform/operation.ts';
import { AppError } from '../../platform/errors.ts';
import type { CatalogueService } from './catalogue.service.ts';

export function catalogueOperations(service: CatalogueService) {
  return [
    defineOperation({
      ...visaContinentList,
      tag: '签证目录',
      summary: '按大洲列出目的地国家（含在售产品数与最低价）',
      auth: 'none',
      errors: [],
      handle: async () => ({ continents: await service.continents() }),
    }),
    defineOperation({
      ...visaCountryGet,
      tag: '签证目录',
      summary: '国家详情：领区（及其受理省份）、签证类型与标签筛选项',
      auth: 'none',
      errors: [ErrorCode.VISA_COUNTRY_NOT_FOUND],
      handle: async ({ visa_country_id }) => {
        const country = await service.country(visa_country_id);
        if (!country) throw new AppError(ErrorCode.VISA_COUNTRY_NOT_FOUND);
        return country;
      },
    }),
    defineOperation({
      ...visaProductList,
      tag: '签证目录',
      summary: '国家的在售签证产品：按居住省份（决定领区）、签证类型和标签筛选',
      description: 'province_code 为地址库中的省级代码；不传则列出所有领区的产品。已下架产品不在列表中。',
      auth: 'none',
      errors: [],
      handle: (payload) => service.products(payload),
    }),
    defineOperation({
      ...visaProductDetailGet,
      tag: '签证目录',
      summary: '签证产品详情（规格见产品说明书第 3 节）',
      description: '缺少或非数字的 visa_product_id 返回 1001 参数错误。已下架产品照常返回（status 为 1 或 channel 为 99）。',
      auth: 'none',
      errors: [ErrorCode.VISA_PRODUCT_NOT_FOUND],
      handle: async ({ visa_product_id }) => {
        const detail = await service.productDetail(visa_product_id);
        if (!detail) throw new AppError(ErrorCode.VISA_PRODUCT_NOT_FOUND);
        return detail;
      },
    }),
    defineOperation({
      ...visaProductReviewList,
      tag: '签证目录',
      summary: '签证产品的用户评价，每页 10 条，最新在前',
      auth: 'none',
      errors: [],
      handle: ({ visa_product_id, page }) => service.reviews(visa_product_id, page),
    }),
  ];
}

export interface MaterialEmailDeps {
  service: CatalogueService;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  siteUrl: string;
  now: () => number;
}

const HOUR = 3_600_000;
/** Per recipient and per sending address, so the form cannot be used to flood a mailbox. */
export const MATERIAL_EMAIL_LIMITS = { perAddressPerHour: 5, perClientPerHour: 20 };

export function materialEmailOperation({ service, mailer, rateLimiter, siteUrl, now }: MaterialEmailDeps) {
  return defineOperation({
    ...visaProductMaterialSend,
    tag: '签证目录',
    summary: '把某一身份的资料清单发送到邮箱',
    description: `同一邮箱每小时最多 ${MATERIAL_EMAIL_LIMITS.perAddressPerHour} 封，同一来源地址每小时最多 ${MATERIAL_EMAIL_LIMITS.perClientPerHour} 封。`,
    auth: 'none',
    errors: [ErrorCode.EMAIL_INVALID, ErrorCode.VISA_PRODUCT_NOT_FOUND, ErrorCode.TOO_MANY_REQUESTS, ErrorCode.EMAIL_NOT_SENT],
    handle: async ({ visa_product_id, email, identity_id }, { request }) => {
      const address = normalizeInputText(email);
      if (!EMAIL_PATTERN.test(address)) throw new AppError(ErrorCode.EMAIL_INVALID);
      const detail = await service.productDetail(visa_product_id);
      if (!detail) throw new AppError(ErrorCode.VISA_PRODUCT_NOT_FOUND);
      const at = now();
      const allowed =
        (await rateLimiter.hit(`material_email:to:${address.toLowerCase()}`, MATERIAL_EMAIL_LIMITS.perAddressPerHour, HOUR, at)) &&
        (await rateLimiter.hit(`material_email:ip:${request.ip}`, MATERIAL_EMAIL_LIMITS.perClientPerHour, HOUR, at));
      if (!allowed) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
      try {
        await mailer.send({ to: address, ...renderMaterialListEmail(detail, identity_id, siteUrl) });
      } catch (error) {
        request.log.error({ err: error }, 'material e-mail not sent');
        throw new AppError(ErrorCode.EMAIL_NOT_SENT);
      }
      return {};
    },
  });
}
