// Importing a catalogue book: compare it with the database (the database's
// own book, export.ts, row by natural key), report what would be added,
// changed and removed per sheet and every problem, and apply it in one
// transaction only when there is no problem at all. Rows equal to the
// database's are not written, so importing the same book twice changes
// nothing the second time. Products whose page changes get a new updated_at
// (the guest page cache's version, decision 0004).
import { type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { exportBook } from './export.ts';
import { type BookRow, type CatalogueBook, naturalKey, SHEETS, type SheetKey, sheetDef, splitList } from './sheets.ts';
import { validateBook } from './validate.ts';
import { removeMaterials } from './remove-materials.ts';
import { type BookProblem, displayValue } from './workbook.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface SheetChanges {
  sheet: string;
  added: number;
  changed: number;
  unchanged: number;
  /** Rows the database has and the book no longer lists (only materials and a product's lists are removed). */
  removed: number;
  /** Each added, changed or removed row: what the back office's preview lists (issue 26). */
  rows: RowChange[];
}

export interface RowChange {
  change: 'added' | 'changed' | 'removed';
  /** The spreadsheet's row number; 0 for a removed row (the book no longer has it). */
  row: number;
  /** The row as a person names it: its key and name. */
  label: string;
  /** A changed row's columns (headers) whose values differ. */
  columns: string[];
  /** Those columns' cells before and after, as the sheet shows them ('' for an empty cell). */
  values: Array<{ column: string; before: string; after: string }>;
}

/** A row's name in the preview: its natural key, and its name or title when that is not the key. */
function rowLabel(key: SheetKey, row: BookRow): string {
  const def = sheetDef(key);
  const keyText = def.naturalKey.map((field) => String(row[field] ?? '')).join(' · ');
  const name = ['name', 'product_special_desc', 'title'].map((field) => row[field]).find((value) => value !== null && value !== undefined && value !== '');
  return name !== undefined && !def.naturalKey.includes('name') ? `${keyText} ${String(name)}` : keyText;
}

function changedValues(key: SheetKey, before: BookRow, after: BookRow): RowChange['values'] {
  const shown = (value: ReturnType<typeof displayValue>) => (value === null ? '' : String(value));
  return sheetDef(key)
    .columns.filter((column) => !column.exportOnly && JSON.stringify(before[column.field] ?? null) !== JSON.stringify(after[column.field] ?? null))
    .map((column) => ({
      column: column.header,
      before: shown(displayValue(column, before[column.field] ?? null)),
      after: shown(displayValue(column, after[column.field] ?? null)),
    }));
}

export interface ImportPlan {
  sheets: SheetChanges[];
  problems: BookProblem[];
}

/** The fields compared: every column but the export-only ones. */
function comparable(key: SheetKey, row: BookRow): string {
  return JSON.stringify(
    sheetDef(key)
      .columns.filter((column) => !column.exportOnly)
      .map((column) => row[column.field] ?? null),
  );
}

const LISTS = ['basicInfo', 'features', 'procedures', 'steps'] as const;
type ListKey = (typeof LISTS)[number];

interface Diff {
  added: Set<number>;
  changed: Set<number>;
  /** Current rows (the database's) that the book drops. */
  removed: BookRow[];
}

function diffSheet(key: SheetKey, incoming: BookRow[], current: BookRow[], productIds: Set<unknown>): Diff {
  const have = new Map(current.map((row) => [naturalKey(key, row), row]));
  const diff: Diff = { added: new Set(), changed: new Set(), removed: [] };
  incoming.forEach((row, index) => {
    if (key === 'materials' && (row.id === null || row.id === undefined)) return void diff.added.add(index);
    const old = have.get(naturalKey(key, row));
    if (!old) diff.added.add(index);
    else if (comparable(key, old) !== comparable(key, row)) diff.changed.add(index);
  });
  // A product's lists and checklist are the book's whole list for the products it has.
  if (key === 'materials' || (LISTS as readonly string[]).includes(key)) {
    const keys = new Set(incoming.map((row) => naturalKey(key, row)));
    diff.removed = current.filter((row) => productIds.has(row.product) && !keys.has(naturalKey(key, row)));
  }
  return diff;
}

interface Compared {
  current: CatalogueBook;
  diffs: Record<SheetKey, Diff>;
  plan: ImportPlan;
}

async function compare(db: Db, book: CatalogueBook, rowNumbers: Record<string, number[]>, problems: BookProblem[]): Promise<Compared> {
  const current = await exportBook(db);
  const productIds = new Set(book.products.map((row) => row.id));
  const diffs = Object.fromEntries(SHEETS.map((def) => [def.key, diffSheet(def.key, book[def.key], current[def.key], productIds)])) as Record<SheetKey, Diff>;
  const all = [...problems];
  if (problems.length === 0) all.push(...validateBook(book, rowNumbers), ...(await databaseProblems(db, book, current, diffs, rowNumbers)));
  const sheets = SHEETS.map((def) => {
    const diff = diffs[def.key];
    const have = new Map(current[def.key].map((row) => [naturalKey(def.key, row), row]));
    const rowOf = (index: number) => rowNumbers[def.key]?.[index] ?? index + 2;
    const rows: RowChange[] = [];
    book[def.key].forEach((row, index) => {
      if (diff.added.has(index)) rows.push({ change: 'added', row: rowOf(index), label: rowLabel(def.key, row), columns: [], values: [] });
      else if (diff.changed.has(index)) {
        const before = have.get(naturalKey(def.key, row));
        const values = before ? changedValues(def.key, before, row) : [];
        rows.push({ change: 'changed', row: rowOf(index), label: rowLabel(def.key, row), columns: values.map((v) => v.column), values });
      }
    });
    for (const row of diff.removed) rows.push({ change: 'removed', row: 0, label: rowLabel(def.key, row), columns: [], values: [] });
    return {
      rows,
      sheet: def.name,
      added: diff.added.size,
      changed: diff.changed.size,
      unchanged: book[def.key].length - diff.added.size - diff.changed.size,
      removed: diff.removed.length,
    };
  });
  return { current, diffs, plan: { sheets, problems: all } };
}

/** The rules that need the database: slots' bookings, materials that orders use. */
async function databaseProblems(db: Db, book: CatalogueBook, current: CatalogueBook, diffs: Record<SheetKey, Diff>, rowNumbers: Record<string, number[]>) {
  const problems: BookProblem[] = [];
  const booked = new Map(current.slots.map((row) => [naturalKey('slots', row), Number(row.booked)]));
  book.slots.forEach((row, index) => {
    const taken = booked.get(naturalKey('slots', row)) ?? 0;
    if (Number(row.capacity) < taken)
      problems.push({ sheet: '面试时段', row: rowNumbers.slots?.[index] ?? index + 2, column: '名额', reason: `已有 ${taken} 人预约，名额不能少于 ${taken}` });
  });
  const materialProduct = new Map(current.materials.map((row) => [row.id, row.product]));
  book.materials.forEach((row, index) => {
    const owner = materialProduct.get(row.id);
    if (row.id !== null && owner !== undefined && owner !== row.product) {
      problems.push({
        sheet: '材料清单',
        row: rowNumbers.materials?.[index] ?? index + 2,
        column: '材料编号（新材料留空）',
        reason: `材料编号 ${row.id} 属于产品 ${owner}`,
      });
    }
  });
  // A retired material (taken off its product; orders still list it) keeps its id: the book cannot bring it back under it.
  const addedIds = [...diffs.materials.added].map((index) => book.materials[index]!.id).filter((id): id is number => typeof id === 'number');
  if (addedIds.length > 0) {
    const retired = await db.selectFrom('visa_product_material').select('material_id').where('retired', '=', 1).where('material_id', 'in', addedIds).execute();
    const taken = new Set(retired.map((row) => row.material_id));
    book.materials.forEach((row, index) => {
      if (diffs.materials.added.has(index) && typeof row.id === 'number' && taken.has(row.id)) {
        problems.push({
          sheet: '材料清单',
          row: rowNumbers.materials?.[index] ?? index + 2,
          column: '材料编号（新材料留空）',
          reason: `材料编号 ${row.id} 已从产品中删除（已有订单保留它），新材料请留空编号`,
        });
      }
    });
  }
  const removedIds = diffs.materials.removed.map((row) => Number(row.id));
  if (removedIds.length > 0) {
    const used = await db.selectFrom('order_material_file').select('material_id').distinct().where('material_id', 'in', removedIds).execute();
    for (const { material_id } of used) {
      const row = diffs.materials.removed.find((r) => r.id === material_id)!;
      problems.push({
        sheet: '材料清单',
        row: 0,
        column: '材料编号（新材料留空）',
        reason: `材料 ${material_id}（产品 ${row.product}“${row.name}”）已有订单上传文件，不能从清单中删除`,
      });
    }
  }
  return problems;
}

/** What the import would do, and every problem; writes nothing. */
export async function previewImport(
  db: Kysely<Database>,
  read: { book: CatalogueBook; rowNumbers: Record<string, number[]>; problems: BookProblem[] },
): Promise<ImportPlan> {
  return (await compare(db, read.book, read.rowNumbers, read.problems)).plan;
}

export interface ImportResult extends ImportPlan {
  applied: boolean;
  /** The products' ids in the book's order (new rows included). */
  productIds: number[];
}

/**
 * Checks everything, then applies all of it in one transaction, or nothing
 * when any row is bad. Within an outer transaction (the demo seed) pass it as `db`.
 */
export async function applyImport(
  db: Kysely<Database> | Transaction<Database>,
  read: { book: CatalogueBook; rowNumbers: Record<string, number[]>; problems: BookProblem[] },
  now: number,
): Promise<ImportResult> {
  const run = async (trx: Transaction<Database>): Promise<ImportResult> => {
    const compared = await compare(trx, read.book, read.rowNumbers, read.problems);
    if (compared.plan.problems.length > 0) return { ...compared.plan, applied: false, productIds: [] };
    await write(trx, read.book, compared, now);
    return { ...compared.plan, applied: true, productIds: read.book.products.map((row) => Number(row.id)) };
  };
  return db.isTransaction ? run(db as Transaction<Database>) : (db as Kysely<Database>).transaction().execute(run);
}

const BATCH = 300;
async function insertMany(trx: Transaction<Database>, table: keyof Database & string, rows: object[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    // Kysely cannot narrow a table chosen at run time; the rows are built from the schema's columns below.
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + BATCH) as any)
      .execute();
  }
}

const picked = (rows: BookRow[], indexes: Set<number>) => rows.filter((_, index) => indexes.has(index));

async function write(trx: Transaction<Database>, book: CatalogueBook, { diffs }: Compared, now: number): Promise<void> {
  const s = (value: unknown) => (value === null || value === undefined ? '' : String(value));

  for (const row of picked(book.continents, diffs.continents.added)) {
    await trx
      .insertInto('continent')
      .values({ continent_id: Number(row.id), name: s(row.name), name_en: s(row.name_en), sort: Number(row.sort) })
      .execute();
  }
  for (const row of picked(book.continents, diffs.continents.changed)) {
    await trx
      .updateTable('continent')
      .set({ name: s(row.name), name_en: s(row.name_en), sort: Number(row.sort) })
      .where('continent_id', '=', Number(row.id))
      .execute();
  }
  for (const [key, table] of [
    ['visaTypes', 'visa_type'],
    ['tags', 'visa_tag'],
  ] as const) {
    await insertMany(
      trx,
      table,
      picked(book[key], diffs[key].added).map((row) => ({ name: s(row.name), sort: Number(row.sort) })),
    );
    for (const row of picked(book[key], diffs[key].changed))
      await trx
        .updateTable(table)
        .set({ sort: Number(row.sort) })
        .where('name', '=', s(row.name))
        .execute();
  }
  const photo = (row: BookRow) => ({ name: s(row.name), color: Number(row.color), width: Number(row.width), height: Number(row.height) });
  await insertMany(trx, 'photo_param', picked(book.photos, diffs.photos.added).map(photo));
  for (const row of picked(book.photos, diffs.photos.changed)) await trx.updateTable('photo_param').set(photo(row)).where('name', '=', s(row.name)).execute();

  const continentId = new Map((await trx.selectFrom('continent').select(['continent_id', 'name']).execute()).map((r) => [r.name, r.continent_id]));
  const country = (row: BookRow) => ({
    iso_code: s(row.iso),
    name: s(row.name),
    name_en: s(row.name_en),
    continent_id: continentId.get(s(row.continent))!,
    description: s(row.description),
    hot: Number(row.hot),
    status: Number(row.status),
  });
  await insertMany(trx, 'visa_country', picked(book.countries, diffs.countries.added).map(country));
  for (const row of picked(book.countries, diffs.countries.changed))
    await trx.updateTable('visa_country').set(country(row)).where('iso_code', '=', s(row.iso)).execute();
  const countryId = new Map(
    (await trx.selectFrom('visa_country').select(['visa_country_id', 'iso_code']).execute()).map((r) => [r.iso_code, r.visa_country_id]),
  );

  const district = (row: BookRow) => ({
    visa_country_id: countryId.get(s(row.country))!,
    name: s(row.name),
    consulate_name: s(row.consulate_name),
    city: s(row.city),
    address: s(row.address),
    interview_video_url: row.interview_video_url === null ? null : s(row.interview_video_url),
  });
  await insertMany(trx, 'consular_district', picked(book.districts, diffs.districts.added).map(district));
  for (const row of picked(book.districts, diffs.districts.changed)) {
    const values = district(row);
    await trx.updateTable('consular_district').set(values).where('visa_country_id', '=', values.visa_country_id).where('name', '=', values.name).execute();
  }
  const districtRows = await trx.selectFrom('consular_district').select(['consular_district_id', 'visa_country_id', 'name']).execute();
  const districtId = new Map(districtRows.map((r) => [`${r.visa_country_id}|${r.name}`, r.consular_district_id]));
  const districtOf = (iso: unknown, name: unknown) => districtId.get(`${countryId.get(s(iso))}|${s(name)}`)!;
  const touchedDistricts = [...diffs.districts.added, ...diffs.districts.changed].map((i) => book.districts[i]!);
  const touchedDistrictIds = touchedDistricts.map((row) => districtOf(row.country, row.name));
  if (touchedDistrictIds.length > 0) await trx.deleteFrom('consular_district_province').where('consular_district_id', 'in', touchedDistrictIds).execute();
  await insertMany(
    trx,
    'consular_district_province',
    touchedDistricts.flatMap((row, i) =>
      splitList(row.provinces ?? null).map((code) => ({ consular_district_id: touchedDistrictIds[i]!, province_code: code })),
    ),
  );

  for (const row of picked(book.nationalDays, diffs.nationalDays.added)) {
    await trx
      .insertInto('country_national_day')
      .values({ visa_country_id: countryId.get(s(row.country))!, month_day: s(row.month_day), name: s(row.name) })
      .execute();
  }
  for (const row of picked(book.nationalDays, diffs.nationalDays.changed)) {
    await trx
      .updateTable('country_national_day')
      .set({ name: s(row.name) })
      .where('visa_country_id', '=', countryId.get(s(row.country))!)
      .where('month_day', '=', s(row.month_day))
      .execute();
  }

  // A country whose row, districts or national days changed has a new version: an editor that read it before is refused (2620, migration 058).
  const touchedCountries = new Set([
    ...picked(book.countries, diffs.countries.changed).map((row) => s(row.iso)),
    ...touchedDistricts.map((row) => s(row.country)),
    ...picked(book.nationalDays, new Set([...diffs.nationalDays.added, ...diffs.nationalDays.changed])).map((row) => s(row.country)),
  ]);
  if (touchedCountries.size > 0)
    await trx
      .updateTable('visa_country')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('iso_code', 'in', [...touchedCountries])
      .execute();

  // Products: the book's 产品编号 is the product's id (new ids are taken as given).
  const typeId = new Map((await trx.selectFrom('visa_type').select(['visa_type_id', 'name']).execute()).map((r) => [r.name, r.visa_type_id]));
  const photoId = new Map((await trx.selectFrom('photo_param').select(['visa_photo_id', 'name']).execute()).map((r) => [r.name, r.visa_photo_id]));
  const tagId = new Map((await trx.selectFrom('visa_tag').select(['tag_id', 'name']).execute()).map((r) => [r.name, r.tag_id]));
  const product = (row: BookRow) => ({
    visa_country_id: countryId.get(s(row.country))!,
    visa_type_id: typeId.get(s(row.visa_type))!,
    consular_district_id: row.district === null ? null : districtOf(row.country, row.district),
    product_special_desc: s(row.special_desc),
    entry_times: Number(row.entry_times),
    stay_days: Number(row.stay_days),
    valid_days: Number(row.valid_days),
    need_days: Number(row.need_days),
    need_days_detail: s(row.need_days_detail),
    pass_rate: Number(row.pass_rate),
    sell_price: Number(row.sell_price),
    distributor_discount_desc: row.discount_desc === null ? null : s(row.discount_desc),
    distributor_discount_price: row.discount_price === null ? null : Number(row.discount_price),
    status: Number(row.status),
    channel: Number(row.channel),
    offline: Number(row.offline),
    reject_refund: Number(row.reject_refund),
    need_interview: Number(row.need_interview),
    visa_photo_id: row.photo === null ? 0 : photoId.get(s(row.photo))!,
    reminder: s(row.reminder),
    updated_at: now,
  });
  await insertMany(
    trx,
    'visa_product',
    picked(book.products, diffs.products.added).map((row) => ({ visa_product_id: Number(row.id), ...product(row) })),
  );
  for (const row of picked(book.products, diffs.products.changed))
    await trx.updateTable('visa_product').set(product(row)).where('visa_product_id', '=', Number(row.id)).execute();
  const tagged = picked(book.products, new Set([...diffs.products.added, ...diffs.products.changed]));
  if (tagged.length > 0)
    await trx
      .deleteFrom('visa_product_tag')
      .where(
        'visa_product_id',
        'in',
        tagged.map((row) => Number(row.id)),
      )
      .execute();
  await insertMany(
    trx,
    'visa_product_tag',
    tagged.flatMap((row) => splitList(row.tags ?? null).map((tag) => ({ visa_product_id: Number(row.id), tag_id: tagId.get(tag)! }))),
  );

  // A product's lists: rewritten whole for each product whose list differs.
  const touched = new Set<number>();
  const LIST_TABLES: Record<ListKey, [keyof Database & string, (row: BookRow) => object]> = {
    basicInfo: ['visa_product_basic_info', (row) => ({ title: s(row.title), content: s(row.content) })],
    features: ['visa_product_feature', (row) => ({ type: Number(row.type), num: Number(row.num), unit: s(row.unit), title: s(row.title) })],
    procedures: ['visa_product_procedure', (row) => ({ icon: s(row.icon), title: s(row.title) })],
    steps: ['visa_product_process_step', (row) => ({ title: s(row.title), content: s(row.content) })],
  };
  for (const key of LISTS) {
    const diff = diffs[key];
    const products = new Set<number>([
      ...[...diff.added, ...diff.changed].map((i) => Number(book[key][i]!.product)),
      ...diff.removed.map((row) => Number(row.product)),
    ]);
    if (products.size === 0) continue;
    const [table, columns] = LIST_TABLES[key];
    for (const id of products) touched.add(id);
    await trx
      .deleteFrom(table as 'visa_product_basic_info')
      .where('visa_product_id', 'in', [...products])
      .execute();
    await insertMany(
      trx,
      table,
      book[key]
        .filter((row) => products.has(Number(row.product)))
        .map((row) => ({ visa_product_id: Number(row.product), sort: Number(row.sort), ...columns(row) })),
    );
  }

  // Materials keep their ids (orders' files point at them).
  const material = (row: BookRow) => ({
    visa_product_id: Number(row.product),
    identity_id: Number(row.identity),
    required: Number(row.required),
    attr: Number(row.attr),
    name: s(row.name),
    attention: s(row.attention),
    sample: row.sample === null ? null : s(row.sample),
    sort: Number(row.sort),
  });
  await insertMany(
    trx,
    'visa_product_material',
    picked(book.materials, diffs.materials.added).map((row) => ({ ...(row.id === null ? {} : { material_id: Number(row.id) }), ...material(row) })),
  );
  for (const row of picked(book.materials, diffs.materials.changed)) {
    await trx.updateTable('visa_product_material').set(material(row)).where('material_id', '=', Number(row.id)).execute();
  }
  const removedMaterials = diffs.materials.removed.map((row) => Number(row.id));
  await removeMaterials(trx, removedMaterials);
  for (const i of [...diffs.materials.added, ...diffs.materials.changed]) touched.add(Number(book.materials[i]!.product));
  for (const row of diffs.materials.removed) touched.add(Number(row.product));

  for (const row of picked(book.slots, diffs.slots.added)) {
    await trx
      .insertInto('interview_slot')
      .values({
        consular_district_id: districtOf(row.country, row.district),
        slot_date: s(row.date),
        start_time: s(row.start),
        end_time: s(row.end),
        capacity: Number(row.capacity),
      })
      .execute();
  }
  for (const row of picked(book.slots, diffs.slots.changed)) {
    await trx
      .updateTable('interview_slot')
      .set({ end_time: s(row.end), capacity: Number(row.capacity) })
      .where('consular_district_id', '=', districtOf(row.country, row.district))
      .where('slot_date', '=', s(row.date))
      .where('start_time', '=', s(row.start))
      .execute();
  }

  // Pages that show a changed country, district or reference row change too: their products get a new version.
  const referenceChanged = (['continents', 'visaTypes', 'tags', 'photos', 'countries', 'districts'] as const).some((key) => diffs[key].changed.size > 0);
  const unchangedProducts = book.products.map((row) => Number(row.id)).filter((id, i) => !diffs.products.added.has(i) && !diffs.products.changed.has(i));
  const bump = referenceChanged ? unchangedProducts : unchangedProducts.filter((id) => touched.has(id));
  for (let i = 0; i < bump.length; i += BATCH) {
    await trx
      .updateTable('visa_product')
      .set({ updated_at: now })
      .where('visa_product_id', 'in', bump.slice(i, i + BATCH))
      .execute();
  }
  await syncSequences(trx);
}

/** PostgreSQL's serial counters move past ids the book gave explicitly. */
async function syncSequences(trx: Transaction<Database>): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const [table, column] of [
    ['visa_product', 'visa_product_id'],
    ['visa_product_material', 'material_id'],
  ] as const) {
    await sql`select setval(pg_get_serial_sequence(${table}, ${column}), (select coalesce(max(${sql.ref(column)}), 0) + 1 from ${sql.table(table)}), false)`.execute(
      trx,
    );
  }
}
