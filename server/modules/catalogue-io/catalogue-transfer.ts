// The catalogue workbook's three uses, for the CLI and the back office:
// export the database's catalogue, preview an import, apply an import.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { exportBook } from './export.ts';
import { applyImport, type ImportPlan, type ImportResult, previewImport } from './import.ts';
import { readWorkbook, writeWorkbook } from './workbook.ts';

export async function exportWorkbook(db: Kysely<Database>): Promise<Buffer> {
  return writeWorkbook(await exportBook(db));
}

export async function previewWorkbook(db: Kysely<Database>, bytes: Buffer): Promise<ImportPlan> {
  return previewImport(db, await readWorkbook(bytes));
}

/** Applies the workbook when every row is good; otherwise writes nothing (`applied` false, the problems listed). */
export async function importWorkbook(db: Kysely<Database>, bytes: Buffer, now: number): Promise<ImportResult> {
  return applyImport(db, await readWorkbook(bytes), now);
}

export type { ImportPlan, ImportResult, SheetChanges } from './import.ts';
export type { BookProblem } from './workbook.ts';
