// Catalogue queries. Listed = not delisted (status ≠ 1 and channel ≠ the delisting channel).
import type { Kysely } from 'kysely';
import { DELISTED_CHANNEL, DELISTED_STATUS } from '../../../common/catalogue.ts';
import type { Database } from '../../db/schema.ts';

export interface ProductFilter {
  visaCountryId: number;
  /** The applicant's province decides the consular district. */
  consularDistrictId?: number | null;
  visaTypeId?: number;
  tagId?: number;
}

export function createCatalogueRepository(db: Kysely<Database>) {
  const listed = <T extends { where: any }>(query: T): T =>
    query.where('visa_product.status', '<>', DELISTED_STATUS).where('visa_product.channel', '<>', DELISTED_CHANNEL);

  return {
    continents() {
      return db.selectFrom('continent').selectAll().orderBy('sort').execute();
    },

    /** Countries with how many listed products they have and the lowest price. */
    countrySummaries() {
      return db
        .selectFrom('visa_country')
        .leftJoin(
          (eb) =>
            listed(eb.selectFrom('visa_product'))
              .select([
                'visa_product.visa_country_id',
                (e) => e.fn.countAll<number>().as('product_count'),
                (e) => e.fn.min<number>('visa_product.sell_price').as('min_price'),
              ])
              .groupBy('visa_product.visa_country_id')
              .as('stats'),
          (join) => join.onRef('stats.visa_country_id', '=', 'visa_country.visa_country_id'),
        )
        .select([
          'visa_country.visa_country_id',
          'visa_country.name',
          'visa_country.name_en',
          'visa_country.iso_code',
          'visa_country.continent_id',
          'stats.product_count',
          'stats.min_price',
        ])
        .where('visa_country.status', '=', 0)
        .orderBy('visa_country.hot', 'desc')
        .orderBy('visa_country.visa_country_id')
        .execute();
    },

    country(visaCountryId: number) {
      return db
        .selectFrom('visa_country')
        .innerJoin('continent', 'continent.continent_id', 'visa_country.continent_id')
        .select([
          'visa_country.visa_country_id',
          'visa_country.name',
          'visa_country.name_en',
          'visa_country.iso_code',
          'visa_country.continent_id',
          'visa_country.description',
          'continent.name as continent',
        ])
        .where('visa_country.visa_country_id', '=', visaCountryId)
        .where('visa_country.status', '=', 0)
        .executeTakeFirst();
    },

    consularDistricts(visaCountryId: number) {
      return db.selectFrom('consular_district').selectAll().where('visa_country_id', '=', visaCountryId).orderBy('consular_district_id').execute();
    },

    districtProvinces(districtIds: number[]) {
      if (districtIds.length === 0) return Promise.resolve([]);
      return db.selectFrom('consular_district_province').selectAll().where('consular_district_id', 'in', districtIds).orderBy('province_code').execute();
    },

    /** The visa types and tags that the country's listed products use. */
    async countryFacets(visaCountryId: number) {
      const [visaTypes, tags] = await Promise.all([
        listed(db.selectFrom('visa_product').innerJoin('visa_type', 'visa_type.visa_type_id', 'visa_product.visa_type_id'))
          .select(['visa_type.visa_type_id', 'visa_type.name', 'visa_type.sort'])
          .where('visa_product.visa_country_id', '=', visaCountryId)
          .groupBy(['visa_type.visa_type_id', 'visa_type.name', 'visa_type.sort'])
          .orderBy('visa_type.sort')
          .execute(),
        listed(
          db
            .selectFrom('visa_product')
            .innerJoin('visa_product_tag', 'visa_product_tag.visa_product_id', 'visa_product.visa_product_id')
            .innerJoin('visa_tag', 'visa_tag.tag_id', 'visa_product_tag.tag_id'),
        )
          .select(['visa_tag.tag_id', 'visa_tag.name', 'visa_tag.sort'])
          .where('visa_product.visa_country_id', '=', visaCountryId)
          .groupBy(['visa_tag.tag_id', 'visa_tag.name', 'visa_tag.sort'])
          .orderBy('visa_tag.sort')
          .execute(),
      ]);
      return { visaTypes, tags };
    },

    listedProducts(filter: ProductFilter) {
      let query = listed(
        db
          .selectFrom('visa_product')
          .innerJoin('visa_country', 'visa_country.visa_country_id', 'visa_product.visa_country_id')
          .innerJoin('visa_type', 'visa_type.visa_type_id', 'visa_product.visa_type_id')
          .leftJoin('consular_district', 'consular_district.consular_district_id', 'visa_product.consular_district_id'),
      )
        .select([
          'visa_product.visa_product_id',
          'visa_product.visa_type_id',
          'visa_product.entry_times',
          'visa_product.product_special_desc',
          'visa_product.need_days_detail',
          'visa_product.pass_rate',
          'visa_product.sell_price',
          'visa_product.distributor_discount_desc',
          'visa_product.distributor_discount_price',
          'visa_product.status',
          'visa_product.channel',
          'visa_product.offline',
          'visa_product.consular_district_id',
          'consular_district.name as consular_district_name',
          'visa_type.name as visa_type',
          'visa_country.name as country',
        ])
        .where('visa_product.visa_country_id', '=', filter.visaCountryId);
      if (filter.consularDistrictId) {
        const districtId = filter.consularDistrictId;
        query = query.where((eb) => eb.or([eb('visa_product.consular_district_id', 'is', null), eb('visa_product.consular_district_id', '=', districtId)]));
      }
      if (filter.visaTypeId) query = query.where('visa_product.visa_type_id', '=', filter.visaTypeId);
      if (filter.tagId) {
        const tagId = filter.tagId;
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('visa_product_tag')
              .select('visa_product_tag.tag_id')
              .whereRef('visa_product_tag.visa_product_id', '=', 'visa_product.visa_product_id')
              .where('visa_product_tag.tag_id', '=', tagId),
          ),
        );
      }
      return query.orderBy('visa_type.sort').orderBy('visa_product.sell_price').orderBy('visa_product.visa_product_id').execute();
    },

    productTags(productIds: number[]) {
      if (productIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('visa_product_tag')
        .innerJoin('visa_tag', 'visa_tag.tag_id', 'visa_product_tag.tag_id')
        .select(['visa_product_tag.visa_product_id', 'visa_tag.tag_id', 'visa_tag.name'])
        .where('visa_product_tag.visa_product_id', 'in', productIds)
        .orderBy('visa_tag.sort')
        .execute();
    },

    /** Review sums per product, in one query (hidden reviews do not count). */
    reviewStats(productIds: number[]) {
      if (productIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('visa_product_review')
        .select(['visa_product_id', (eb) => eb.fn.sum<number>('score').as('sum_score'), (eb) => eb.fn.countAll<number>().as('reviews')])
        .where('visa_product_id', 'in', productIds)
        .where('hidden', '=', 0)
        .groupBy('visa_product_id')
        .execute();
    },

    product(visaProductId: number) {
      return db
        .selectFrom('visa_product')
        .innerJoin('visa_country', 'visa_country.visa_country_id', 'visa_product.visa_country_id')
        .innerJoin('visa_type', 'visa_type.visa_type_id', 'visa_product.visa_type_id')
        .leftJoin('consular_district', 'consular_district.consular_district_id', 'visa_product.consular_district_id')
        .leftJoin('photo_param', 'photo_param.visa_photo_id', 'visa_product.visa_photo_id')
        .selectAll('visa_product')
        .select([
          'visa_country.name as country',
          'visa_country.iso_code as country_iso_code',
          'visa_country.continent_id',
          'visa_type.name as visa_type',
          'consular_district.name as consular_district_name',
          'photo_param.color as photo_color',
          'photo_param.width as photo_width',
          'photo_param.height as photo_height',
        ])
        .where('visa_product.visa_product_id', '=', visaProductId)
        .executeTakeFirst();
    },

    async productParts(visaProductId: number) {
      const [basicInfo, features, procedure, steps, materials] = await Promise.all([
        db.selectFrom('visa_product_basic_info').select(['title', 'content']).where('visa_product_id', '=', visaProductId).orderBy('sort').execute(),
        db.selectFrom('visa_product_feature').select(['type', 'num', 'unit', 'title']).where('visa_product_id', '=', visaProductId).orderBy('sort').execute(),
        db.selectFrom('visa_product_procedure').select(['icon', 'title']).where('visa_product_id', '=', visaProductId).orderBy('sort').execute(),
        db.selectFrom('visa_product_process_step').select(['title', 'content']).where('visa_product_id', '=', visaProductId).orderBy('sort').execute(),
        db
          .selectFrom('visa_product_material')
          .selectAll()
          .where('visa_product_id', '=', visaProductId)
          .where('retired', '=', 0)
          .orderBy('identity_id')
          .orderBy('sort')
          .orderBy('material_id')
          .execute(),
      ]);
      return { basicInfo, features, procedure, steps, materials };
    },

    reviewPage(visaProductId: number, offset: number, limit: number) {
      return db
        .selectFrom('visa_product_review')
        .select(['review_id', 'nickname', 'mobile_phone', 'score', 'content', 'create_time', 'platform'])
        .where('visa_product_id', '=', visaProductId)
        .where('hidden', '=', 0)
        .orderBy('create_time', 'desc')
        .orderBy('review_id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute();
    },

    async reviewCount(visaProductId: number): Promise<number> {
      const row = await db
        .selectFrom('visa_product_review')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('visa_product_id', '=', visaProductId)
        .where('hidden', '=', 0)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Everything a product page is built from changes one of these numbers. */
    productVersion(visaProductId: number) {
      return db
        .selectFrom('visa_product')
        .select([
          'visa_product.updated_at',
          (eb) =>
            eb
              .selectFrom('visa_product_review')
              .select((e) => e.fn.countAll<number>().as('n'))
              .whereRef('visa_product_review.visa_product_id', '=', 'visa_product.visa_product_id')
              .where('visa_product_review.hidden', '=', 0)
              .as('review_count'),
          (eb) =>
            eb
              .selectFrom('visa_product_review')
              .select((e) => e.fn.max<number>('review_id').as('m'))
              .whereRef('visa_product_review.visa_product_id', '=', 'visa_product.visa_product_id')
              .as('last_review_id'),
          // A review hidden or shown again (migration 046) changes the page without touching the product row.
          (eb) =>
            eb
              .selectFrom('review_moderation')
              .select((e) => e.fn.max<number>('moderation_id').as('m'))
              .whereRef('review_moderation.visa_product_id', '=', 'visa_product.visa_product_id')
              .as('last_moderation_id'),
        ])
        .where('visa_product.visa_product_id', '=', visaProductId)
        .executeTakeFirst();
    },

    districtForProvince(visaCountryId: number, provinceCode: string) {
      return db
        .selectFrom('consular_district_province')
        .innerJoin('consular_district', 'consular_district.consular_district_id', 'consular_district_province.consular_district_id')
        .select(['consular_district.consular_district_id', 'consular_district.name'])
        .where('consular_district.visa_country_id', '=', visaCountryId)
        .where('consular_district_province.province_code', '=', provinceCode)
        .executeTakeFirst();
    },
  };
}

export type CatalogueRepository = ReturnType<typeof createCatalogueRepository>;
