// Turns the product specs into rows: one product per spec, or one per
// consular district for `perDistrict` specs (prices and approval rates vary a
// little by district), with tags, texts, materials and reviews.
import type { Insertable } from 'kysely';
import { DELISTED_CHANNEL, DELISTED_STATUS } from '../../../../common/catalogue.ts';
import type { VisaProductTable } from '../../schema.ts';
import {
  basicInfo,
  type Feature,
  features,
  needDaysDetail,
  type Procedure,
  procedure,
  type ProductContext,
  processSteps,
  reminder,
  type TitleContent,
} from './details.ts';
import { buildMaterials, type MaterialSeed } from './materials.ts';
import type { CountryProducts, ProductSpec } from './product-spec.ts';
import type { Rng } from './random.ts';
import { PHOTO_PARAMS, type PhotoKey, type TagName, type VisaTypeName } from './reference.ts';
import { buildReviews, type ReviewSeed, reviewCount } from './reviews.ts';

export interface SeededDistrict {
  consular_district_id: number;
  name: string;
  consulateName: string;
  provinceNames: string[];
}

export interface SeededCountry {
  visa_country_id: number;
  iso: string;
  name: string;
  districts: SeededDistrict[];
}

export interface Lookups {
  visaTypeId: Record<VisaTypeName, number>;
  photoId: Record<PhotoKey, number>;
}

export interface ProductDraft {
  row: Insertable<VisaProductTable>;
  tags: TagName[];
  basicInfo: TitleContent[];
  features: Feature[];
  procedure: Procedure[];
  steps: TitleContent[];
  materials: MaterialSeed[];
  reviews: ReviewSeed[];
}

/** The columns that tell the products of one seed apart (matched against RETURNING). */
export function productKey(
  row: Pick<Insertable<VisaProductTable>, 'visa_country_id' | 'visa_type_id' | 'consular_district_id' | 'entry_times' | 'product_special_desc'>,
): string {
  return [row.visa_country_id, row.visa_type_id, row.consular_district_id ?? '-', row.entry_times, row.product_special_desc].join('|');
}

const DISTRICT_PRICE_DELTAS = [-3000, -2000, -1000, 0, 0, 1000, 2000, 3000];

function roundPrice(cents: number): number {
  return Math.round(cents / 100) * 100;
}

function tagsOf(spec: ProductSpec, districtId: number | null, rng: Rng): TagName[] {
  const tags: TagName[] = [];
  const inPerson = spec.handling === 'interview' || spec.handling === 'biometric';
  if (spec.hot) tags.push('热门');
  if (!inPerson) tags.push('免面试');
  if (spec.handling === 'evisa') tags.push('电子签');
  if (spec.entry === 2) tags.push('多次往返');
  if (spec.express) tags.push('加急办理');
  if (spec.refund) tags.push('拒签退款');
  if (!inPerson && spec.type === '旅游签证' && rng.chance(0.45)) tags.push('老人儿童友好');
  if (districtId === null && spec.handling !== 'evisa') tags.push('全国受理');
  return tags;
}

export function expandCountry(country: SeededCountry, products: CountryProducts, lookups: Lookups, rng: Rng, now: number): ProductDraft[] {
  const drafts: ProductDraft[] = [];
  for (const spec of products.products) {
    const targets: Array<SeededDistrict | null> = spec.perDistrict && country.districts.length > 0 ? country.districts : [null];
    targets.forEach((district, index) => {
      const delta = index === 0 ? 0 : rng.pick(DISTRICT_PRICE_DELTAS);
      const sellPrice = spec.price + delta;
      const passRate = Math.min(9990, Math.max(9000, spec.passRate + (index === 0 ? 0 : rng.int(-80, 60))));
      const discount = spec.discount ? { desc: rng.chance(0.8) ? '企业价' : '同业价', price: roundPrice(sellPrice * rng.pick([0.9, 0.92, 0.93, 0.95])) } : null;
      const photoKey = spec.photo === undefined ? products.photo : spec.photo;
      const consularDistrictId = district?.consular_district_id ?? null;
      const ctx: ProductContext = {
        iso: country.iso,
        country: country.name,
        spec,
        district: district ? { name: district.name, consulate: district.consulateName, provinces: district.provinceNames } : null,
        countryNote: products.note,
      };
      const delisted = spec.delist !== undefined;
      drafts.push({
        row: {
          visa_country_id: country.visa_country_id,
          visa_type_id: lookups.visaTypeId[spec.type],
          consular_district_id: consularDistrictId,
          product_special_desc: district ? `${spec.desc} · ${district.name}` : spec.desc,
          entry_times: spec.entry,
          stay_days: spec.stay,
          valid_days: spec.valid,
          need_days: spec.days,
          need_days_detail: needDaysDetail(spec),
          pass_rate: passRate,
          sell_price: sellPrice,
          distributor_discount_desc: discount?.desc ?? null,
          distributor_discount_price: discount?.price ?? null,
          status: spec.delist === 'status' ? DELISTED_STATUS : 0,
          channel: spec.delist === 'channel' ? DELISTED_CHANNEL : 0,
          offline: spec.offline ?? 1,
          reject_refund: spec.refund ? 1 : 0,
          need_interview: spec.handling === 'interview' || spec.handling === 'biometric' ? 1 : 0,
          visa_photo_id: photoKey === null ? 0 : lookups.photoId[photoKey],
          reminder: reminder(ctx),
          updated_at: now,
        },
        tags: tagsOf(spec, consularDistrictId, rng),
        basicInfo: basicInfo(ctx),
        features: features(spec),
        procedure: procedure(spec),
        steps: processSteps(ctx),
        materials: buildMaterials({
          iso: country.iso,
          country: country.name,
          handling: spec.handling,
          type: spec.type,
          entry: spec.entry,
          schengen: products.schengen ?? false,
          proof: spec.proof,
          photo: photoKey === null ? null : PHOTO_PARAMS[photoKey],
        }),
        reviews: buildReviews(
          rng,
          { country: country.name, visaType: spec.type, handling: spec.handling },
          reviewCount(rng, index === 0 ? spec.reviews : undefined, delisted),
          now,
        ),
      });
    });
  }
  return drafts;
}
