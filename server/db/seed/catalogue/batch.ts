// Multi-row inserts in chunks: one statement per ≤ 400 rows keeps every
// statement far below PostgreSQL's 65 535 bind parameters and SQLite's
// variable limit, whatever the table's width.
import type { Insertable, Transaction } from 'kysely';
import type { Database } from '../../schema.ts';

export const BATCH_SIZE = 400;

export function chunk<T>(rows: readonly T[], size = BATCH_SIZE): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

export async function insertRows<T extends keyof Database & string>(
  trx: Transaction<Database>,
  table: T,
  rows: ReadonlyArray<Insertable<Database[T]>>,
): Promise<void> {
  for (const part of chunk(rows)) {
    // Kysely cannot narrow a generic table name; the rows are typed above.
    await trx
      .insertInto(table)
      .values(part as any)
      .execute();
  }
}
