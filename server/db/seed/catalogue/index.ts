// The visa catalogue seed (spec §3): continents, ~80 destination countries,
// consular districts in mainland China, visa types, tags, photo specs and
// ~250 products with their texts, materials for the five applicant identities
// and reviews. Deterministic (seeded PRNG, times from `now`), idempotent (does
// nothing once visa_country has rows), one transaction. The catalogue itself
// goes through the workbook import (issue 26: one path for catalogue data):
// demo-book.ts turns the specs into the book, the importer checks and writes
// it; only the reviews, which are not catalogue data, are inserted here.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../schema.ts';
import { applyImport } from '../../../modules/catalogue-io/import.ts';
import { insertRows } from './batch.ts';
import { demoBook } from './demo-book.ts';

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
  const { book, reviews } = demoBook(now);
  const result = await applyImport(trx, { book, rowNumbers: {}, problems: [] }, now);
  if (!result.applied) {
    const first = result.problems.slice(0, 5).map((p) => `${p.sheet} 第 ${p.row} 行 ${p.column}：${p.reason}`);
    throw new Error(`demo catalogue refused by the importer: ${first.join('; ')}`);
  }
  const reviewRows = reviews.flatMap((list, index) => list.map((review) => ({ visa_product_id: result.productIds[index]!, ...review })));
  await insertRows(trx, 'visa_product_review', reviewRows);
  return {
    countries: book.countries.length,
    products: book.products.length,
    materials: book.materials.length,
    reviews: reviewRows.length,
    districts: book.districts.length,
  };
}
