// The visa catalogue seed (spec §3): continents, ~80 destination countries,
// consular districts in mainland China, visa types, tags, photo specs and
// ~250 products with their texts, materials for the five applicant identities
// and reviews. Deterministic (seeded PRNG, times from `now`), idempotent (does
// nothing once visa_country has rows), one transaction, batched inserts; the
// same Kysely code runs on SQLite and PostgreSQL.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../schema.ts';
import { chunk, insertRows } from './batch.ts';
import { buildCountries, CONTINENTS } from './countries.ts';
import { districtsFor } from './districts.ts';
import { expandCountry, type Lookups, type ProductDraft, productKey, type SeededCountry } from './expand.ts';
import { PRODUCTS } from './products.ts';
import { provinceName } from './provinces.ts';
import { createRng } from './random.ts';
import { PHOTO_PARAMS, type PhotoKey, TAGS, type TagName, VISA_TYPES, type VisaTypeName } from './reference.ts';

export interface CatalogueSeedResult {
  countries: number;
  products: number;
  materials: number;
  reviews: number;
  districts: number;
}

const NOTHING: CatalogueSeedResult = { countries: 0, products: 0, materials: 0, reviews: 0, districts: 0 };

async function hasCountries(db: Kysely<Database> | Transaction<Database>): Promise<boolean> {
  const row = await db.selectFrom('visa_country').select('visa_country_id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function seedCatalogue(db: Kysely<Database>, now: number): Promise<CatalogueSeedResult> {
  if (await hasCountries(db)) return NOTHING;
  return db.transaction().execute(async (trx) => {
    // Checked again inside the transaction: two starting processes seed once.
    if (await hasCountries(trx)) return NOTHING;
    return seedInTransaction(trx, now);
  });
}

async function seedInTransaction(trx: Transaction<Database>, now: number): Promise<CatalogueSeedResult> {
  const existingContinents = await trx.selectFrom('continent').select('continent_id').execute();
  const haveContinent = new Set(existingContinents.map((row) => row.continent_id));
  await insertRows(
    trx,
    'continent',
    CONTINENTS.filter((c) => !haveContinent.has(c.continent_id)),
  );

  // Countries with a product spec only: every seeded country has something to sell.
  const countrySeeds = buildCountries().filter((country) => PRODUCTS[country.iso_code]);
  const countryRows = [];
  for (const part of chunk(countrySeeds)) {
    countryRows.push(...(await trx.insertInto('visa_country').values(part).returning(['visa_country_id', 'iso_code']).execute()));
  }
  const countryId = new Map(countryRows.map((row) => [row.iso_code, row.visa_country_id]));

  // Consular districts and their provinces.
  const districtSeeds = countrySeeds.flatMap((country) => districtsFor(country.iso_code).map((district) => ({ iso: country.iso_code, ...district })));
  const districtRows = [];
  for (const part of chunk(districtSeeds)) {
    const values = part.map(({ iso, name, consulate_name, city, address }) => ({ visa_country_id: countryId.get(iso)!, name, consulate_name, city, address }));
    districtRows.push(...(await trx.insertInto('consular_district').values(values).returning(['consular_district_id', 'visa_country_id', 'name']).execute()));
  }
  const districtId = new Map(districtRows.map((row) => [`${row.visa_country_id}|${row.name}`, row.consular_district_id]));
  const districtsByCountry = new Map<number, SeededCountry['districts']>();
  const provinceRows: Array<{ consular_district_id: number; province_code: string }> = [];
  for (const seed of districtSeeds) {
    const visaCountryId = countryId.get(seed.iso)!;
    const id = districtId.get(`${visaCountryId}|${seed.name}`)!;
    const list = districtsByCountry.get(visaCountryId) ?? [];
    list.push({ consular_district_id: id, name: seed.name, consulateName: seed.consulate_name, provinceNames: seed.province_codes.map(provinceName) });
    districtsByCountry.set(visaCountryId, list);
    for (const code of seed.province_codes) provinceRows.push({ consular_district_id: id, province_code: code });
  }
  await insertRows(trx, 'consular_district_province', provinceRows);

  // Reference tables.
  const typeRows = await trx
    .insertInto('visa_type')
    .values(VISA_TYPES.map((name, sort) => ({ name, sort })))
    .returning(['visa_type_id', 'name'])
    .execute();
  const tagRows = await trx
    .insertInto('visa_tag')
    .values(TAGS.map((name, sort) => ({ name, sort })))
    .returning(['tag_id', 'name'])
    .execute();
  const photoKeys = Object.keys(PHOTO_PARAMS) as PhotoKey[];
  const photoRows = await trx
    .insertInto('photo_param')
    .values(photoKeys.map((key) => ({ ...PHOTO_PARAMS[key] })))
    .returning(['visa_photo_id', 'name'])
    .execute();
  const lookups: Lookups = {
    visaTypeId: Object.fromEntries(typeRows.map((row) => [row.name, row.visa_type_id])) as Record<VisaTypeName, number>,
    photoId: Object.fromEntries(photoKeys.map((key) => [key, photoRows.find((row) => row.name === PHOTO_PARAMS[key].name)!.visa_photo_id])) as Record<
      PhotoKey,
      number
    >,
  };
  const tagId = new Map(tagRows.map((row) => [row.name as TagName, row.tag_id]));

  // Products, in the countries' order; one PRNG stream per country.
  const drafts: ProductDraft[] = countrySeeds.flatMap((seed) => {
    const visaCountryId = countryId.get(seed.iso_code)!;
    const country: SeededCountry = {
      visa_country_id: visaCountryId,
      iso: seed.iso_code,
      name: seed.name,
      districts: districtsByCountry.get(visaCountryId) ?? [],
    };
    return expandCountry(country, PRODUCTS[seed.iso_code]!, lookups, createRng(`catalogue:${seed.iso_code}`), now);
  });
  const draftByKey = new Map<string, ProductDraft>();
  for (const draft of drafts) {
    const key = productKey(draft.row);
    if (draftByKey.has(key)) throw new Error(`duplicate product ${key}`);
    draftByKey.set(key, draft);
  }
  // RETURNING order is not guaranteed on SQLite: match the ids by key.
  const productId = new Map<ProductDraft, number>();
  for (const part of chunk(drafts)) {
    const rows = await trx
      .insertInto('visa_product')
      .values(part.map((draft) => draft.row))
      .returning(['visa_product_id', 'visa_country_id', 'visa_type_id', 'consular_district_id', 'entry_times', 'product_special_desc'])
      .execute();
    for (const row of rows) productId.set(draftByKey.get(productKey(row))!, row.visa_product_id);
  }

  const each = <T>(build: (draft: ProductDraft, id: number) => T[]): T[] => drafts.flatMap((draft) => build(draft, productId.get(draft)!));
  await insertRows(
    trx,
    'visa_product_tag',
    each((d, id) => d.tags.map((tag) => ({ visa_product_id: id, tag_id: tagId.get(tag)! }))),
  );
  await insertRows(
    trx,
    'visa_product_basic_info',
    each((d, id) => d.basicInfo.map((item, sort) => ({ visa_product_id: id, sort, ...item }))),
  );
  await insertRows(
    trx,
    'visa_product_feature',
    each((d, id) => d.features.map((item, sort) => ({ visa_product_id: id, sort, ...item }))),
  );
  await insertRows(
    trx,
    'visa_product_procedure',
    each((d, id) => d.procedure.map((item, sort) => ({ visa_product_id: id, sort, ...item }))),
  );
  await insertRows(
    trx,
    'visa_product_process_step',
    each((d, id) => d.steps.map((item, sort) => ({ visa_product_id: id, sort, ...item }))),
  );
  const materials = each((d, id) => d.materials.map((item) => ({ visa_product_id: id, ...item })));
  await insertRows(trx, 'visa_product_material', materials);
  const reviews = each((d, id) => d.reviews.map((item) => ({ visa_product_id: id, ...item })));
  await insertRows(trx, 'visa_product_review', reviews);

  return { countries: countryRows.length, products: drafts.length, materials: materials.length, reviews: reviews.length, districts: districtRows.length };
}
