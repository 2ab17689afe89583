// Data for 产品管理's reviews and places screens (issue 26): a product of the
// test's own with reviews, and an ISO code no country of the e2e database has.
import { createProduct, e2eDatabase } from './support';

/** A listed product of its own country with one review per score (newest last). */
export async function productWithReviews(scores: number[]): Promise<{ visaProductId: number; reviewIds: number[] }> {
  const product = await createProduct();
  const db = e2eDatabase();
  try {
    const insert = db.prepare(
      'INSERT INTO visa_product_review (visa_product_id, nickname, mobile_phone, score, content, platform, create_time) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const reviewIds = scores.map((score, i) =>
      Number(
        insert.run(
          product.visa_product_id,
          `旅客${i + 1}`,
          '13900139000',
          score,
          `第 ${i + 1} 条评价：${score} 星`,
          '网页',
          Date.now() - (scores.length - i) * 60_000,
        ).lastInsertRowid,
      ),
    );
    return { visaProductId: product.visa_product_id, reviewIds };
  } finally {
    db.close();
  }
}

/** A two-letter code (ISO 3166's user-assigned X? / Q? first) that no country has yet. */
export function unusedIsoCode(): string {
  const db = e2eDatabase();
  try {
    const used = new Set((db.prepare('SELECT iso_code FROM visa_country').all() as Array<{ iso_code: string }>).map((row) => row.iso_code));
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const candidates = [
      ...[...letters].map((l) => `X${l}`),
      ...[...'MNOPQRSTUVWXYZ'].map((l) => `Q${l}`),
      ...[...letters].flatMap((a) => [...letters].map((b) => a + b)),
    ];
    const code = candidates.find((c) => !used.has(c));
    if (!code) throw new Error('no unused country code left');
    return code;
  } finally {
    db.close();
  }
}
