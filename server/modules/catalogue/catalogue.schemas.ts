// Result schemas of the catalogue calls, for the API reference. Each is
// checked against its type in common/catalogue.ts at compile time.
import { z } from 'zod';
import type { ContinentWithCountries, ReviewPage, VisaCountryDetail, VisaProductDetail, VisaProductListItem } from '../../../common/catalogue.ts';

/** A positive integer id, also accepted as a digit string ("12"). */
export const idField = z
  .union([
    z.number().int().positive(),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));

const discount = z.object({ desc: z.string(), price: z.number().describe('分') }).nullable();
const district = z.object({ consular_district_id: z.number(), name: z.string() }).nullable();

const material = z.object({
  material_id: z.number(),
  attr: z.number().describe('0 电子资料，1 邮寄资料，2 赴馆资料'),
  elec_name: z.string().optional(),
  paper_name: z.string().optional(),
  take_along_name: z.string().optional(),
  attention: z.string(),
  sample: z.string().nullable().describe('样例图片地址'),
});

export const visaProductDetailSchema = z.object({
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
  consular_district: district,
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
  identity_material: z.array(z.object({ identity_id: z.number(), material_required: z.array(material), material_optional: z.array(material) })),
  need_interview: z.boolean(),
  tags: z.array(z.string()),
  updated_at: z.number(),
}) satisfies z.ZodType<VisaProductDetail>;

export const reviewPageSchema = z.object({
  page_data: z.array(
    z.object({
      review_id: z.number(),
      nickname: z.string().nullable(),
      mobile_phone: z.string().nullable().describe('中间四位已隐藏'),
      score: z.number(),
      content: z.string(),
      create_time: z.number(),
      platform: z.string(),
    }),
  ),
  total_count: z.number(),
}) satisfies z.ZodType<ReviewPage>;

export const continentListSchema = z.object({
  continents: z.array(
    z.object({
      continent_id: z.number(),
      name: z.string(),
      name_en: z.string(),
      countries: z.array(
        z.object({
          visa_country_id: z.number(),
          name: z.string(),
          name_en: z.string(),
          iso_code: z.string(),
          continent_id: z.number(),
          flag: z.string(),
          product_count: z.number(),
          min_price: z.number().nullable(),
        }),
      ),
    }),
  ),
}) satisfies z.ZodType<{ continents: ContinentWithCountries[] }>;

export const countryDetailSchema = z.object({
  visa_country_id: z.number(),
  name: z.string(),
  name_en: z.string(),
  iso_code: z.string(),
  continent_id: z.number(),
  continent: z.string(),
  description: z.string(),
  flag: z.string(),
  banner_flag: z.string(),
  consular_districts: z.array(
    z.object({
      consular_district_id: z.number(),
      name: z.string(),
      consulate_name: z.string(),
      city: z.string(),
      address: z.string(),
      province_codes: z.array(z.string()),
    }),
  ),
  visa_types: z.array(z.object({ visa_type_id: z.number(), name: z.string() })),
  tags: z.array(z.object({ tag_id: z.number(), name: z.string() })),
}) satisfies z.ZodType<VisaCountryDetail>;

export const productListSchema = z.object({
  consular_district: district.describe('所选省份对应的领区；未选省份或该国不分领区时为 null'),
  products: z.array(
    z.object({
      visa_product_id: z.number(),
      title: z.string(),
      visa_type_id: z.number(),
      visa_type: z.string(),
      entry_label: z.string(),
      product_special_desc: z.string(),
      consular_district: district,
      need_days_detail: z.string(),
      pass_rate: z.number(),
      sell_price: z.number(),
      distributor_discount: discount,
      sum_score: z.number(),
      reviews: z.number(),
      tags: z.array(z.object({ tag_id: z.number(), name: z.string() })),
      delisted: z.boolean(),
      offline: z.boolean(),
    }),
  ),
}) satisfies z.ZodType<{ consular_district: unknown; products: VisaProductListItem[] }>;
