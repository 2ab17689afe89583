// The catalogue calls (spec §3): continents, a country, its products, a
// product's detail and reviews, and the material list by e-mail.
import { z } from 'zod';
import { defineContract, type ResultOf } from './define.ts';
import { idField, noPayload, noResult, pageField } from './fields.ts';
import { EMAIL_MAX_LENGTH } from './rules.ts';

const discount = z.object({ desc: z.string(), price: z.number().describe('分') }).nullable();
const districtRef = z.object({ consular_district_id: z.number(), name: z.string() }).nullable();

const material = z.object({
  material_id: z.number(),
  attr: z.number().describe('0 电子资料，1 邮寄资料，2 赴馆资料'),
  elec_name: z.string().optional(),
  paper_name: z.string().optional(),
  take_along_name: z.string().optional(),
  attention: z.string(),
  sample: z.string().nullable().describe('样例图片地址'),
});

const identityMaterial = z.object({ identity_id: z.number(), material_required: z.array(material), material_optional: z.array(material) });

const visaProductDetail = z.object({
  visa_product_id: z.number(),
  status: z.number().describe('1 为已下架'),
  channel: z.number().describe('等于 99（下架渠道）时也视为已下架'),
  offline: z.boolean().describe('是否支持线下办理（网页下单）'),
  visa_country_id: z.number(),
  country: z.string(),
  country_iso_code: z.string(),
  visa_type: z.string(),
  visa_type_id: z.number(),
  entry_times: z.number().describe('0 单次，1 两次，2 多次'),
  entry_label: z.string(),
  product_special_desc: z.string(),
  need_days_detail: z.string(),
  continent_id: z.number().describe('0 亚洲，1 欧洲，2 美洲，3 大洋洲，4 非洲'),
  consular_district: districtRef,
  pass_rate: z.number().describe('百分比 × 100'),
  sum_score: z.number(),
  reviews: z.number(),
  sell_price: z.number().describe('分'),
  distributor_discount: discount,
  basic_info: z.array(z.object({ title: z.string(), content: z.string() })),
  common_info: z.array(z.object({ type: z.number(), num: z.number(), unit: z.string(), title: z.string() })),
  reject_refund_set: z.object({ status: z.number() }),
  procedure: z.array(z.object({ icon: z.string(), title: z.string() })),
  handle_process: z.array(z.object({ title: z.string(), content: z.string() })),
  reminder: z.string(),
  visa_photo_id: z.number(),
  photo_param: z.object({ color: z.number().describe('0 蓝，1 白，2 红，3 灰'), width: z.number(), height: z.number() }).nullable(),
  identity_material: z.array(identityMaterial),
  need_interview: z.boolean(),
  stay_days: z.number().describe('签证允许的停留天数（0 为不定，如留学）'),
  tags: z.array(z.string()),
  updated_at: z.number().describe('页面元数据与缓存校验用'),
});

const review = z.object({
  review_id: z.number(),
  nickname: z.string().nullable(),
  mobile_phone: z.string().nullable().describe('中间四位已隐藏'),
  score: z.number(),
  content: z.string(),
  create_time: z.number(),
  platform: z.string(),
});

const reviewPage = z.object({ page_data: z.array(review), total_count: z.number() });

const countrySummary = z.object({
  visa_country_id: z.number(),
  name: z.string(),
  name_en: z.string(),
  iso_code: z.string(),
  continent_id: z.number(),
  flag: z.string(),
  product_count: z.number(),
  min_price: z.number().nullable().describe('在售产品的最低价（分）；没有在售产品时为 null'),
});

const continentWithCountries = z.object({ continent_id: z.number(), name: z.string(), name_en: z.string(), countries: z.array(countrySummary) });

const consularDistrict = z.object({
  consular_district_id: z.number(),
  name: z.string(),
  consulate_name: z.string(),
  city: z.string(),
  address: z.string(),
  province_codes: z.array(z.string()),
});

const visaCountryDetail = z.object({
  visa_country_id: z.number(),
  name: z.string(),
  name_en: z.string(),
  iso_code: z.string(),
  continent_id: z.number(),
  continent: z.string(),
  description: z.string(),
  flag: z.string(),
  banner_flag: z.string(),
  consular_districts: z.array(consularDistrict),
  visa_types: z.array(z.object({ visa_type_id: z.number(), name: z.string() })),
  tags: z.array(z.object({ tag_id: z.number(), name: z.string() })),
});

const visaProductListItem = z.object({
  visa_product_id: z.number(),
  title: z.string(),
  visa_type_id: z.number(),
  visa_type: z.string(),
  entry_label: z.string(),
  product_special_desc: z.string(),
  consular_district: districtRef,
  need_days_detail: z.string(),
  pass_rate: z.number(),
  sell_price: z.number(),
  distributor_discount: discount,
  sum_score: z.number(),
  reviews: z.number(),
  tags: z.array(z.object({ tag_id: z.number(), name: z.string() })),
  delisted: z.boolean(),
  offline: z.boolean(),
});

export const visaContinentList = defineContract({
  path: '/www/visa_continent_list',
  payload: noPayload,
  result: z.object({ continents: z.array(continentWithCountries) }),
});

export const visaCountryGet = defineContract({ path: '/www/visa_country_get', payload: z.object({ visa_country_id: idField }), result: visaCountryDetail });

export const visaProductList = defineContract({
  path: '/www/visa_product_list',
  payload: z.object({
    visa_country_id: idField,
    province_code: z
      .string()
      .regex(/^\d{6}$/)
      .optional(),
    visa_type_id: idField.optional(),
    tag_id: idField.optional(),
  }),
  result: z.object({
    consular_district: districtRef.describe('所选省份对应的领区；未选省份或该国不分领区时为 null'),
    products: z.array(visaProductListItem),
  }),
});

export const visaProductDetailGet = defineContract({
  path: '/www/visa_product_detail_get',
  payload: z.object({ visa_product_id: idField }),
  result: visaProductDetail,
});

export const visaProductReviewList = defineContract({
  path: '/www/visa_product_review_list',
  payload: z.object({ visa_product_id: idField, page: pageField }),
  result: reviewPage,
});

export const visaProductMaterialSend = defineContract({
  path: '/www/visa_product_material_send',
  payload: z.object({
    visa_product_id: idField,
    email: z.string().max(EMAIL_MAX_LENGTH),
    identity_id: z.number().int().min(0).max(4),
  }),
  result: noResult,
});

export const CATALOGUE_CONTRACTS = [
  visaContinentList,
  visaCountryGet,
  visaProductList,
  visaProductDetailGet,
  visaProductReviewList,
  visaProductMaterialSend,
] as const;

export type Material = z.output<typeof material>;
export type IdentityMaterial = z.output<typeof identityMaterial>;
export type VisaProductDetail = ResultOf<typeof visaProductDetailGet>;
export type Review = z.output<typeof review>;
export type ReviewPage = ResultOf<typeof visaProductReviewList>;
export type CountrySummary = z.output<typeof countrySummary>;
export type ContinentWithCountries = z.output<typeof continentWithCountries>;
export type ConsularDistrict = z.output<typeof consularDistrict>;
export type VisaCountryDetail = ResultOf<typeof visaCountryGet>;
export type VisaProductListItem = z.output<typeof visaProductListItem>;
export type VisaProductList = ResultOf<typeof visaProductList>;
