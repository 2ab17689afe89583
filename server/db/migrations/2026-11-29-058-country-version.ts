// Frozen in time: never import application code here.
// A country's version (issue 26): 产品管理's country editor saves a country with
// its consular districts (consulates, provinces) and national days as one, and
// carries the version it read; a second editor's save with a stale version is
// refused (2620) instead of overwriting the first. Every write of the country,
// its districts or its national days (the editor, a workbook import) moves it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('visa_country')
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('visa_country').dropColumn('version').execute();
}
