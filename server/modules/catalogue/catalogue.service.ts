// The catalogue as pages and API calls read it (spec §3 shapes).
import type { Kysely } from 'kysely';
import type {
  ContinentWithCountries,
  IdentityMaterial,
  Material,
  ReviewPage,
  VisaCountryDetail,
  VisaProductDetail,
  VisaProductListItem,
} from '../../../common/contracts/catalogue.ts';
import { ENTRY_LABELS, isDelisted, productTitle } from '../../../common/catalogue.ts';
import { REVIEW_PAGE_SIZE } from '../../../common/constants.ts';
import { maskMobilePhone } from '../../../common/text.ts';
import type { Database } from '../../db/schema.ts';
import { createCatalogueRepository } from './catalogue.repository.ts';

export const IDENTITY_IDS = [0, 1, 2, 3, 4] as const;

export function flagUrl(isoCode: string, shape: '4x3' | '1x1' = '4x3'): string {
  return `/static/flags/${shape}/${isoCode.toLowerCase()}.svg`;
}

function discountOf(row: { distributor_discount_desc: string | null; distributor_discount_price: number | null }) {
  return row.distributor_discount_desc && row.distributor_discount_price !== null
    ? { desc: row.distributor_discount_desc, price: row.distributor_discount_price }
    : null;
}

function materialOf(row: { material_id: number; attr: number; name: string; attention: string; sample: string | null }): Material {
  const nameField = row.attr === 0 ? 'elec_name' : row.attr === 1 ? 'paper_name' : 'take_along_name';
  return { material_id: row.material_id, attr: row.attr, [nameField]: row.name, attention: row.attention, sample: row.sample };
}

export interface ProductQuery {
  visa_country_id: number;
  province_code?: string;
  visa_type_id?: number;
  tag_id?: number;
}

export function createCatalogueService(db: Kysely<Database>) {
  const repo = createCatalogueRepository(db);

  async function reviewStatsByProduct(productIds: number[]) {
    const rows = await repo.reviewStats(productIds);
    return new Map(rows.map((row) => [row.visa_product_id, { sum_score: Number(row.sum_score ?? 0), reviews: Number(row.reviews) }]));
  }

  return {
    async continents(): Promise<ContinentWithCountries[]> {
      const [continents, countries] = await Promise.all([repo.continents(), repo.countrySummaries()]);
      return continents.map((continent) => ({
        continent_id: continent.continent_id,
        name: continent.name,
        name_en: continent.name_en,
        countries: countries
          .filter((country) => country.continent_id === continent.continent_id)
          .map((country) => ({
            visa_country_id: country.visa_country_id,
            name: country.name,
            name_en: country.name_en,
            iso_code: country.iso_code,
            continent_id: country.continent_id,
            flag: flagUrl(country.iso_code),
            product_count: Number(country.product_count ?? 0),
            min_price: country.min_price === null || country.min_price === undefined ? null : Number(country.min_price),
          })),
      }));
    },

    async country(visaCountryId: number): Promise<VisaCountryDetail | null> {
      const country = await repo.country(visaCountryId);
      if (!country) return null;
      const [districts, facets] = await Promise.all([repo.consularDistricts(visaCountryId), repo.countryFacets(visaCountryId)]);
      const provinces = await repo.districtProvinces(districts.map((d) => d.consular_district_id));
      return {
        ...country,
        flag: flagUrl(country.iso_code, '1x1'),
        banner_flag: flagUrl(country.iso_code, '4x3'),
        consular_districts: districts.map((district) => ({
          consular_district_id: district.consular_district_id,
          name: district.name,
          consulate_name: district.consulate_name,
          city: district.city,
          address: district.address,
          province_codes: provinces.filter((p) => p.consular_district_id === district.consular_district_id).map((p) => p.province_code),
        })),
        visa_types: facets.visaTypes.map(({ visa_type_id, name }) => ({ visa_type_id, name })),
        tags: facets.tags.map(({ tag_id, name }) => ({ tag_id, name })),
      };
    },

    /** Listed products of a country, for the applicant's province (its consular district) and the filters. */
    async products(
      query: ProductQuery,
    ): Promise<{ consular_district: { consular_district_id: number; name: string } | null; products: VisaProductListItem[] }> {
      const district = query.province_code ? ((await repo.districtForProvince(query.visa_country_id, query.province_code)) ?? null) : null;
      const rows = await repo.listedProducts({
        visaCountryId: query.visa_country_id,
        consularDistrictId: district?.consular_district_id ?? null,
        visaTypeId: query.visa_type_id,
        tagId: query.tag_id,
      });
      const ids = rows.map((row) => row.visa_product_id);
      const [tags, stats] = await Promise.all([repo.productTags(ids), reviewStatsByProduct(ids)]);
      return {
        consular_district: district,
        products: rows.map((row) => ({
          visa_product_id: row.visa_product_id,
          title: productTitle({ country: row.country, visa_type: row.visa_type, entry_times: row.entry_times, product_special_desc: row.product_special_desc }),
          visa_type_id: row.visa_type_id,
          visa_type: row.visa_type,
          entry_label: ENTRY_LABELS[row.entry_times] ?? '',
          product_special_desc: row.product_special_desc,
          consular_district: row.consular_district_id ? { consular_district_id: row.consular_district_id, name: row.consular_district_name ?? '' } : null,
          need_days_detail: row.need_days_detail,
          pass_rate: row.pass_rate,
          sell_price: row.sell_price,
          distributor_discount: discountOf(row),
          sum_score: stats.get(row.visa_product_id)?.sum_score ?? 0,
          reviews: stats.get(row.visa_product_id)?.reviews ?? 0,
          tags: tags.filter((tag) => tag.visa_product_id === row.visa_product_id).map(({ tag_id, name }) => ({ tag_id, name })),
          delisted: isDelisted(row),
          offline: row.offline === 1,
        })),
      };
    },

    async productDetail(visaProductId: number): Promise<VisaProductDetail | null> {
      const product = await repo.product(visaProductId);
      if (!product) return null;
      const [parts, stats, tags] = await Promise.all([
        repo.productParts(visaProductId),
        reviewStatsByProduct([visaProductId]),
        repo.productTags([visaProductId]),
      ]);
      const identityMaterial: IdentityMaterial[] = IDENTITY_IDS.map((identityId) => {
        const own = parts.materials.filter((m) => m.identity_id === identityId);
        return {
          identity_id: identityId,
          material_required: own.filter((m) => m.required === 1).map(materialOf),
          material_optional: own.filter((m) => m.required !== 1).map(materialOf),
        };
      });
      return {
        visa_product_id: product.visa_product_id,
        status: product.status,
        channel: product.channel,
        offline: product.offline === 1,
        visa_country_id: product.visa_country_id,
        country: product.country,
        country_iso_code: product.country_iso_code,
        visa_type: product.visa_type,
        visa_type_id: product.visa_type_id,
        entry_times: product.entry_times,
        entry_label: ENTRY_LABELS[product.entry_times] ?? '',
        product_special_desc: product.product_special_desc,
        need_days_detail: product.need_days_detail,
        continent_id: product.continent_id,
        consular_district: product.consular_district_id
          ? { consular_district_id: product.consular_district_id, name: product.consular_district_name ?? '' }
          : null,
        pass_rate: product.pass_rate,
        sum_score: stats.get(visaProductId)?.sum_score ?? 0,
        reviews: stats.get(visaProductId)?.reviews ?? 0,
        sell_price: product.sell_price,
        distributor_discount: discountOf(product),
        basic_info: parts.basicInfo,
        common_info: parts.features,
        reject_refund_set: { status: product.reject_refund },
        procedure: parts.procedure,
        handle_process: parts.steps,
        reminder: product.reminder,
        visa_photo_id: product.visa_photo_id,
        photo_param:
          product.visa_photo_id !== 0 && product.photo_color !== null
            ? { color: product.photo_color, width: product.photo_width ?? 0, height: product.photo_height ?? 0 }
            : null,
        identity_material: identityMaterial,
        need_interview: product.need_interview === 1,
        stay_days: product.stay_days,
        tags: tags.map((tag) => tag.name),
        updated_at: product.updated_at,
      };
    },

    /**
     * Changes whenever the product page would: catalogue writes bump the
     * product's updated_at in the same transaction; reviews count themselves,
     * and each hide or show of one is a new moderation row (migration 046).
     */
    async productVersion(visaProductId: number): Promise<string | null> {
      const row = await repo.productVersion(visaProductId);
      return row ? `${row.updated_at}:${Number(row.review_count ?? 0)}:${Number(row.last_review_id ?? 0)}:${Number(row.last_moderation_id ?? 0)}` : null;
    },

    async reviews(visaProductId: number, page: number): Promise<ReviewPage> {
      const [rows, total] = await Promise.all([
        repo.reviewPage(visaProductId, (page - 1) * REVIEW_PAGE_SIZE, REVIEW_PAGE_SIZE),
        repo.reviewCount(visaProductId),
      ]);
      return {
        total_count: total,
        page_data: rows.map((row) => ({ ...row, mobile_phone: row.mobile_phone ? maskMobilePhone(row.mobile_phone) : null })),
      };
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
