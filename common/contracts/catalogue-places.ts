// 产品管理's reviews and places (issue 26, `/admin-api/catalogue/…`, supervisors):
// a product's reviews with hide / show (a reason required, who and when kept;
// the text is never edited), and countries with their consular districts (the
// provinces each covers, the consulate's address). A country's save is checked
// by the catalogue importer's own rules (server/modules/catalogue-io), so a
// country typed in the back office and one imported from the workbook meet the
// same rules and the same Chinese messages.
import { z } from 'zod';
import { defineContract, type ResultOf } from './define.ts';
import { idField, pageField } from './fields.ts';

export const REVIEW_ADMIN_PAGE_SIZE = 20;

const moderation = z.object({
  action: z.enum(['hide', 'show']),
  reason: z.string(),
  operator_name: z.string(),
  created_at: z.number(),
});

export const adminCatalogueReviewList = defineContract({
  path: '/admin-api/catalogue/review_list',
  payload: z.object({ visa_product_id: idField, page: pageField }),
  result: z.object({
    product: z.object({ visa_product_id: z.number(), title: z.string() }),
    sum_score: z.number().describe('客人看到的评分合计（不含已隐藏的评价）'),
    reviews: z.number().describe('客人看到的评价数（不含已隐藏的评价）'),
    total_count: z.number().describe('全部评价数（含已隐藏），分页用；每页 20 条'),
    list: z.array(
      z.object({
        review_id: z.number(),
        nickname: z.string().nullable(),
        mobile_phone: z.string().nullable().describe('已打码'),
        score: z.number(),
        content: z.string(),
        platform: z.string(),
        create_time: z.number(),
        hidden: z.boolean(),
        last_moderation: moderation.nullable().describe('最近一次隐藏或恢复：谁、何时、原因'),
      }),
    ),
  }),
});

export const adminCatalogueReviewModerate = defineContract({
  path: '/admin-api/catalogue/review_moderate',
  payload: z.object({
    review_id: idField,
    hidden: z.boolean().describe('true 隐藏，false 恢复显示'),
    reason: z.string().max(200).describe('原因（必填，1–200 字）'),
  }),
  result: z.object({ review_id: z.number(), hidden: z.boolean(), sum_score: z.number(), reviews: z.number() }),
});

/** A country as the back office edits it (flag: /static/flags/4x3/{iso}.svg, from the ISO code). */
export const countryContent = z.object({
  iso_code: z.string().max(10).describe('ISO 3166-1 两位大写字母'),
  name: z.string().max(100),
  name_en: z.string().max(100),
  continent_id: z.number().int().min(0).max(99),
  description: z.string().max(2000),
  hot: z.number().int().min(0).max(100_000),
  status: z.union([z.literal(0), z.literal(1)]).describe('0 启用，1 停用'),
});

export const districtContent = z.object({
  consular_district_id: idField.optional().describe('已有领区；新领区不带'),
  name: z.string().max(100),
  consulate_name: z.string().max(200),
  city: z.string().max(60),
  address: z.string().max(400),
  province_codes: z.array(z.string().max(10)).max(40).describe('受理的省份（地址库的六位省份编码），至少一个'),
  interview_video_url: z.string().max(200).nullable(),
});

/** A day the destination's consulates in China close every year (its national day …): the slot calendar skips it. */
export const nationalDayContent = z.object({
  month_day: z.string().max(5).describe('MM-DD，如 10-01'),
  name: z.string().max(50).describe('名称，如 国庆日'),
});

export const adminCatalogueCountryList = defineContract({
  path: '/admin-api/catalogue/country_list',
  payload: z.object({}),
  result: z.object({
    continents: z.array(z.object({ continent_id: z.number(), name: z.string() })),
    list: z.array(
      z.object({
        visa_country_id: z.number(),
        iso_code: z.string(),
        name: z.string(),
        continent_id: z.number(),
        flag: z.string(),
        status: z.number(),
        district_count: z.number(),
        product_count: z.number(),
      }),
    ),
  }),
});

export const adminCatalogueCountryEditor = defineContract({
  path: '/admin-api/catalogue/country_editor',
  payload: z.object({ visa_country_id: idField.optional() }),
  result: z.object({
    visa_country_id: z.number().nullable().describe('null：新国家'),
    version: z.number().describe('国家（连同其领区、闭馆日）的版本；新国家为 0。保存时原样带上'),
    country: countryContent,
    districts: z.array(districtContent.extend({ consular_district_id: z.number().optional(), in_use: z.boolean().describe('有产品或面试时段：不能删除') })),
    national_days: z.array(nationalDayContent).describe('闭馆日（每年）'),
    continents: z.array(z.object({ continent_id: z.number(), name: z.string() })),
  }),
});

export const adminCatalogueCountrySave = defineContract({
  path: '/admin-api/catalogue/country_save',
  payload: z.object({
    visa_country_id: idField.optional().describe('编辑已有国家时'),
    version: z
      .number()
      .int()
      .min(0)
      .max(2_000_000_000)
      .describe('编辑器读到的 version（新国家为 0）；他人已保存过该国家（version 不一致）时返回 2620，本次内容不保存'),
    country: countryContent,
    districts: z.array(districtContent).max(50).describe('该国的全部领区：不在其中的已有领区被删除（有产品或面试时段的不能删除，2348）'),
    national_days: z.array(nationalDayContent).max(30).optional().describe('该国的全部闭馆日（每年）；不带则不变'),
  }),
  multiline: ['country.description'],
  result: z.object({ visa_country_id: z.number(), version: z.number().describe('保存后的版本') }),
});

export const CATALOGUE_PLACES_CONTRACTS = [
  adminCatalogueReviewList,
  adminCatalogueReviewModerate,
  adminCatalogueCountryList,
  adminCatalogueCountryEditor,
  adminCatalogueCountrySave,
] as const;

export type AdminReviewList = ResultOf<typeof adminCatalogueReviewList>;
export type AdminCountryList = ResultOf<typeof adminCatalogueCountryList>;
export type AdminCountryEditor = ResultOf<typeof adminCatalogueCountryEditor>;
export type CountryContent = z.output<typeof countryContent>;
export type DistrictContent = z.output<typeof districtContent>;
export type NationalDayContent = z.output<typeof nationalDayContent>;
