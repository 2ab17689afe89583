// The interview place kind of products (common/interview-place.ts), from
// what each product's basic info says about the interview (是否面试).
import type { Kysely, Transaction } from 'kysely';
import { type InterviewPlaceKind, interviewPlaceKind } from '../../../common/interview-place.ts';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** visa_product_id → where its applicants go (a product without words about it: the consulate). */
export async function interviewPlaceKinds(db: Db, visaProductIds: number[]): Promise<Map<number, InterviewPlaceKind>> {
  const ids = [...new Set(visaProductIds)];
  const kinds = new Map<number, InterviewPlaceKind>(ids.map((id) => [id, 'consulate']));
  if (ids.length === 0) return kinds;
  const rows = await db
    .selectFrom('visa_product_basic_info')
    .select(['visa_product_id', 'content'])
    .where('visa_product_id', 'in', ids)
    .where('title', '=', '是否面试')
    .execute();
  for (const row of rows) if (interviewPlaceKind(row.content) === 'visa_centre') kinds.set(row.visa_product_id, 'visa_centre');
  return kinds;
}

export async function interviewPlaceKindOf(db: Db, visaProductId: number): Promise<InterviewPlaceKind> {
  return (await interviewPlaceKinds(db, [visaProductId])).get(visaProductId) ?? 'consulate';
}
