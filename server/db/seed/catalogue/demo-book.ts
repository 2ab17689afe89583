// The demo catalogue as a workbook book (issue 26): the same rows that
// `catalogue:export` writes, built from the TypeScript specs with no database.
// Products get the ids 1…N in the specs' order (what a fresh database gives
// them); the reviews, which are customers' content rather than catalogue data,
// come back beside the book, one list per product.
import { CONTINENTS, buildCountries } from './countries.ts';
import { districtsFor } from './districts.ts';
import { expandCountry, type Lookups, type SeededCountry } from './expand.ts';
import { PRODUCTS } from './products.ts';
import { provinceName } from './provinces.ts';
import { createRng } from './random.ts';
import { PHOTO_PARAMS, type PhotoKey, TAGS, VISA_TYPES } from './reference.ts';
import type { ReviewSeed } from './reviews.ts';
import { type CatalogueBook, emptyBook, LIST_SEPARATOR } from '../../../modules/catalogue-io/sheets.ts';

export function demoBook(now: number): { book: CatalogueBook; reviews: ReviewSeed[][] } {
  const book = emptyBook();
  const reviews: ReviewSeed[][] = [];
  const continentName = new Map<number, string>(CONTINENTS.map((c) => [c.continent_id, c.name]));
  book.continents = CONTINENTS.map((c) => ({ id: c.continent_id, name: c.name, name_en: c.name_en, sort: c.sort }));
  book.visaTypes = VISA_TYPES.map((name, sort) => ({ name, sort }));
  book.tags = TAGS.map((name, sort) => ({ name, sort }));
  const photoKeys = Object.keys(PHOTO_PARAMS) as PhotoKey[];
  book.photos = photoKeys.map((key) => ({ ...PHOTO_PARAMS[key] }));

  // Placeholder ids: expandCountry speaks in ids, the book in names.
  const lookups: Lookups = {
    visaTypeId: Object.fromEntries(VISA_TYPES.map((name, i) => [name, i + 1])) as Lookups['visaTypeId'],
    photoId: Object.fromEntries(photoKeys.map((key, i) => [key, i + 1])) as Lookups['photoId'],
  };
  const countrySeeds = buildCountries().filter((country) => PRODUCTS[country.iso_code]);
  let districtCounter = 0;
  const districtName = new Map<number, string>();
  countrySeeds.forEach((seed, countryIndex) => {
    book.countries.push({
      iso: seed.iso_code,
      name: seed.name,
      name_en: seed.name_en,
      continent: continentName.get(seed.continent_id)!,
      description: seed.description,
      hot: seed.hot,
      status: seed.status ?? 0,
    });
    const districts = districtsFor(seed.iso_code).map((district) => {
      const id = ++districtCounter;
      districtName.set(id, district.name);
      book.districts.push({
        country: seed.iso_code,
        name: district.name,
        consulate_name: district.consulate_name,
        city: district.city,
        address: district.address,
        provinces: district.province_codes.join(LIST_SEPARATOR),
        interview_video_url: null,
      });
      return {
        consular_district_id: id,
        name: district.name,
        consulateName: district.consulate_name,
        provinceNames: district.province_codes.map(provinceName),
      };
    });
    const country: SeededCountry = { visa_country_id: countryIndex + 1, iso: seed.iso_code, name: seed.name, districts };
    for (const draft of expandCountry(country, PRODUCTS[seed.iso_code]!, lookups, createRng(`catalogue:${seed.iso_code}`), now)) {
      const id = book.products.length + 1;
      const row = draft.row;
      book.products.push({
        id,
        country: seed.iso_code,
        visa_type: VISA_TYPES[row.visa_type_id - 1]!,
        district: row.consular_district_id == null ? null : districtName.get(row.consular_district_id)!,
        special_desc: row.product_special_desc,
        entry_times: row.entry_times,
        stay_days: row.stay_days,
        valid_days: row.valid_days,
        need_days: row.need_days,
        need_days_detail: row.need_days_detail,
        pass_rate: row.pass_rate,
        sell_price: row.sell_price,
        discount_desc: row.distributor_discount_desc ?? null,
        discount_price: row.distributor_discount_price ?? null,
        status: row.status ?? 0,
        channel: row.channel ?? 0,
        offline: row.offline,
        reject_refund: row.reject_refund ?? 0,
        need_interview: row.need_interview ?? 0,
        photo: row.visa_photo_id ? PHOTO_PARAMS[photoKeys[row.visa_photo_id - 1]!].name : null,
        // The tags in the reference table's order, as the database returns them.
        tags: TAGS.filter((tag) => draft.tags.includes(tag)).join(LIST_SEPARATOR) || null,
        reminder: row.reminder,
      });
      draft.basicInfo.forEach((item, sort) => book.basicInfo.push({ product: id, sort, title: item.title, content: item.content }));
      draft.features.forEach((item, sort) =>
        book.features.push({ product: id, sort, type: item.type, num: item.num, unit: item.unit || null, title: item.title }),
      );
      draft.procedure.forEach((item, sort) => book.procedures.push({ product: id, sort, icon: item.icon, title: item.title }));
      draft.steps.forEach((item, sort) => book.steps.push({ product: id, sort, title: item.title, content: item.content }));
      for (const item of draft.materials) {
        book.materials.push({
          id: null,
          product: id,
          identity: item.identity_id,
          sort: item.sort,
          required: item.required,
          attr: item.attr,
          name: item.name,
          attention: item.attention || null,
          sample: item.sample || null,
        });
      }
      reviews.push(draft.reviews);
    }
  });
  return { book, reviews };
}
