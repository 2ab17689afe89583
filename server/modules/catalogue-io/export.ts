// The database's catalogue as a book (sheets.ts): what `catalogue:export`
// writes and what an import is compared with. Every sheet is read in a fixed
// order (ids, or the natural key) so that exporting twice gives the same rows.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CatalogueBook, LIST_SEPARATOR } from './sheets.ts';

type Db = Kysely<Database> | Transaction<Database>;

export async function exportBook(db: Db): Promise<CatalogueBook> {
  const [continents, visaTypes, tags, photos, countries, districts, provinces, nationalDays, products, productTags] = await Promise.all([
    db.selectFrom('continent').selectAll().orderBy('continent_id').execute(),
    db.selectFrom('visa_type').selectAll().orderBy('visa_type_id').execute(),
    db.selectFrom('visa_tag').selectAll().orderBy('tag_id').execute(),
    db.selectFrom('photo_param').selectAll().orderBy('visa_photo_id').execute(),
    db.selectFrom('visa_country').selectAll().orderBy('visa_country_id').execute(),
    db.selectFrom('consular_district').selectAll().orderBy('consular_district_id').execute(),
    db.selectFrom('consular_district_province').selectAll().orderBy('consular_district_id').orderBy('province_code').execute(),
    db.selectFrom('country_national_day').selectAll().orderBy('visa_country_id').orderBy('month_day').execute(),
    db.selectFrom('visa_product').selectAll().orderBy('visa_product_id').execute(),
    db.selectFrom('visa_product_tag').selectAll().orderBy('visa_product_id').orderBy('tag_id').execute(),
  ]);
  const [basicInfo, features, procedures, steps, materials, slots] = await Promise.all([
    db.selectFrom('visa_product_basic_info').selectAll().orderBy('visa_product_id').orderBy('sort').orderBy('id').execute(),
    db.selectFrom('visa_product_feature').selectAll().orderBy('visa_product_id').orderBy('sort').orderBy('id').execute(),
    db.selectFrom('visa_product_procedure').selectAll().orderBy('visa_product_id').orderBy('sort').orderBy('id').execute(),
    db.selectFrom('visa_product_process_step').selectAll().orderBy('visa_product_id').orderBy('sort').orderBy('id').execute(),
    // A retired material is no longer the product's (orders that listed it keep it).
    db.selectFrom('visa_product_material').selectAll().where('retired', '=', 0).orderBy('material_id').execute(),
    db.selectFrom('interview_slot').selectAll().orderBy('consular_district_id').orderBy('slot_date').orderBy('start_time').execute(),
  ]);

  const continentName = new Map(continents.map((row) => [row.continent_id, row.name]));
  const iso = new Map(countries.map((row) => [row.visa_country_id, row.iso_code]));
  const district = new Map(districts.map((row) => [row.consular_district_id, row]));
  const typeName = new Map(visaTypes.map((row) => [row.visa_type_id, row.name]));
  const photoName = new Map(photos.map((row) => [row.visa_photo_id, row.name]));
  const tagName = new Map(tags.map((row) => [row.tag_id, row.name]));
  const provincesOf = group(provinces, (row) => row.consular_district_id);
  const tagsOf = group(productTags, (row) => row.visa_product_id);

  return {
    continents: continents.map((row) => ({ id: row.continent_id, name: row.name, name_en: row.name_en, sort: row.sort })),
    visaTypes: visaTypes.map((row) => ({ name: row.name, sort: row.sort })),
    tags: tags.map((row) => ({ name: row.name, sort: row.sort })),
    photos: photos.map((row) => ({ name: row.name, color: row.color, width: row.width, height: row.height })),
    countries: countries.map((row) => ({
      iso: row.iso_code,
      name: row.name,
      name_en: row.name_en,
      continent: continentName.get(row.continent_id) ?? String(row.continent_id),
      description: row.description,
      hot: row.hot,
      status: row.status,
    })),
    districts: districts.map((row) => ({
      country: iso.get(row.visa_country_id)!,
      name: row.name,
      consulate_name: row.consulate_name,
      city: row.city,
      address: row.address,
      provinces: (provincesOf.get(row.consular_district_id) ?? []).map((p) => p.province_code).join(LIST_SEPARATOR),
      interview_video_url: row.interview_video_url,
    })),
    nationalDays: nationalDays.map((row) => ({ country: iso.get(row.visa_country_id)!, month_day: row.month_day, name: row.name })),
    products: products.map((row) => ({
      id: row.visa_product_id,
      country: iso.get(row.visa_country_id)!,
      visa_type: typeName.get(row.visa_type_id)!,
      district: row.consular_district_id === null ? null : (district.get(row.consular_district_id)?.name ?? null),
      special_desc: row.product_special_desc,
      entry_times: row.entry_times,
      stay_days: row.stay_days,
      valid_days: row.valid_days,
      need_days: row.need_days,
      need_days_detail: row.need_days_detail,
      pass_rate: row.pass_rate,
      sell_price: Number(row.sell_price),
      discount_desc: row.distributor_discount_desc,
      discount_price: row.distributor_discount_price === null ? null : Number(row.distributor_discount_price),
      status: row.status,
      channel: row.channel,
      offline: row.offline,
      reject_refund: row.reject_refund,
      need_interview: row.need_interview,
      photo: row.visa_photo_id === 0 ? null : (photoName.get(row.visa_photo_id) ?? null),
      tags: (tagsOf.get(row.visa_product_id) ?? []).map((t) => tagName.get(t.tag_id)!).join(LIST_SEPARATOR) || null,
      reminder: row.reminder,
    })),
    basicInfo: basicInfo.map((row) => ({ product: row.visa_product_id, sort: row.sort, title: row.title, content: row.content })),
    features: features.map((row) => ({ product: row.visa_product_id, sort: row.sort, type: row.type, num: row.num, unit: row.unit || null, title: row.title })),
    procedures: procedures.map((row) => ({ product: row.visa_product_id, sort: row.sort, icon: row.icon, title: row.title })),
    steps: steps.map((row) => ({ product: row.visa_product_id, sort: row.sort, title: row.title, content: row.content })),
    materials: materials.map((row) => ({
      id: row.material_id,
      product: row.visa_product_id,
      identity: row.identity_id,
      sort: row.sort,
      required: row.required,
      attr: row.attr,
      name: row.name,
      attention: row.attention || null,
      sample: row.sample || null,
    })),
    slots: slots.map((row) => {
      const d = district.get(row.consular_district_id)!;
      return {
        country: iso.get(d.visa_country_id)!,
        district: d.name,
        date: row.slot_date,
        start: row.start_time,
        end: row.end_time,
        capacity: row.capacity,
        booked: Number(row.booked),
      };
    }),
  };
}

function group<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const row of rows) {
    const list = out.get(key(row));
    if (list) list.push(row);
    else out.set(key(row), [row]);
  }
  return out;
}
