// The catalogue workbook on real migrated databases (SQLite, or PostgreSQL
// with TEST_DATABASE_URL): the demo catalogue exported, imported into an empty
// database (same guest data), exported again (same cell values), imported a
// second time (nothing changes), edited, and refused whole for each bad row.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBook } from '../../db/seed/catalogue/demo-book.ts';
import { seedCatalogue } from '../../db/seed/catalogue/index.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-app.ts';
import { createCatalogueService } from '../catalogue/catalogue.service.ts';
import { exportWorkbook, importWorkbook, previewWorkbook } from './catalogue-transfer.ts';
import { workbookValues, writeWorkbook } from './workbook.ts';
import type { CatalogueBook } from './sheets.ts';

const NOW = Date.UTC(2026, 10, 21, 8, 0, 0);
const LATER = NOW + 86_400_000;

let demoDb: TestDatabase;
let demo: DatabaseHandle;
let emptyDb: TestDatabase;
let target: DatabaseHandle;
let exported: Buffer;
let smallDb: TestDatabase;
let small: DatabaseHandle;
let smallExport: Buffer;

/** Two countries of the demo catalogue: the edits below read and write a workbook of a few hundred rows, not 15,000. */
function smallBook(): CatalogueBook {
  const { book } = demoBook(NOW);
  const keep = new Set(['TH', 'JP']);
  const products = book.products.filter((row) => keep.has(String(row.country)));
  const ids = new Set(products.map((row) => row.id));
  const ofProducts = <T extends { product?: unknown }>(rows: T[]) => rows.filter((row) => ids.has(row.product as number));
  return {
    ...book,
    countries: book.countries.filter((row) => keep.has(String(row.iso))),
    districts: book.districts.filter((row) => keep.has(String(row.country))),
    products,
    basicInfo: ofProducts(book.basicInfo),
    features: ofProducts(book.features),
    procedures: ofProducts(book.procedures),
    steps: ofProducts(book.steps),
    materials: ofProducts(book.materials),
  };
}

beforeAll(async () => {
  [demoDb, emptyDb, smallDb] = await Promise.all([createTestDatabase(), createTestDatabase(), createTestDatabase()]);
  demo = demoDb.open();
  target = emptyDb.open();
  small = smallDb.open();
  await seedCatalogue(demo.db, NOW);
  exported = await exportWorkbook(demo.db);
  const seeded = await importWorkbook(small.db, await writeWorkbook(smallBook()), NOW);
  if (!seeded.applied) throw new Error(JSON.stringify(seeded.problems.slice(0, 3)));
  smallExport = await exportWorkbook(small.db);
}, 300_000);

afterAll(async () => {
  await demo?.destroy();
  await target?.destroy();
  await small?.destroy();
  await demoDb?.drop();
  await emptyDb?.drop();
  await smallDb?.drop();
});

/** Everything a guest sees of the catalogue, the reviews left out (they are not catalogue data: not in the workbook). */
async function guestData(handle: DatabaseHandle): Promise<unknown> {
  const service = createCatalogueService(handle.db);
  const continents = await service.continents();
  const countryIds = continents.flatMap((c) => c.countries.map((x) => x.visa_country_id));
  const countries = await Promise.all(countryIds.map((id) => service.country(id)));
  const lists = await Promise.all(countryIds.map((id) => service.products({ visa_country_id: id, province_code: '310000' })));
  const productIds = lists.flatMap((list) => list.products.map((p) => p.visa_product_id));
  const details = await Promise.all(productIds.map((id) => service.productDetail(id)));
  return JSON.parse(JSON.stringify({ continents, countries, lists, details }), (key, value) => (key === 'sum_score' || key === 'reviews' ? undefined : value));
}

async function edit(bytes: Buffer, change: (book: ExcelJS.Workbook) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  change(workbook);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function cell(workbook: ExcelJS.Workbook, sheetName: string, row: number, header: string): ExcelJS.Cell {
  const sheet = workbook.getWorksheet(sheetName)!;
  let col = 0;
  sheet.getRow(1).eachCell((c, n) => {
    if (c.value === header) col = n;
  });
  if (!col) throw new Error(`no column ${header} in ${sheetName}`);
  return sheet.getRow(row).getCell(col);
}

async function productRow(handle: DatabaseHandle, id: number) {
  return handle.db.selectFrom('visa_product').selectAll().where('visa_product_id', '=', id).executeTakeFirstOrThrow();
}

describe('catalogue workbook', () => {
  it('imports the demo export into an empty database: same guest data, and the same workbook when exported again', async () => {
    const result = await importWorkbook(target.db, exported, NOW);
    expect(result.problems).toEqual([]);
    expect(result.applied).toBe(true);
    const products = result.sheets.find((s) => s.sheet === '产品')!;
    expect(products).toMatchObject({ added: 253, changed: 0, unchanged: 0 });
    expect(await guestData(target)).toEqual(await guestData(demo));
    const again = await exportWorkbook(target.db);
    expect(await workbookValues(again)).toEqual(await workbookValues(exported));
    const values = await workbookValues(exported);
    expect(Object.keys(values)).toEqual([
      '大洲',
      '签证类型',
      '产品标签',
      '照片规格',
      '国家',
      '领区',
      '闭馆日',
      '产品',
      '基本信息',
      '信息条',
      '办理图标',
      '办理流程',
      '材料清单',
      '面试时段',
    ]);
    expect(values['产品']![0]).toContain('售价（元）');
  }, 300_000);

  it('changes nothing when the same file is imported a second time', async () => {
    const before = await productRow(target, 1);
    const result = await importWorkbook(target.db, exported, LATER);
    expect(result.applied).toBe(true);
    for (const sheet of result.sheets) expect(sheet, sheet.sheet).toMatchObject({ added: 0, changed: 0, removed: 0 });
    expect((await productRow(target, 1)).updated_at).toBe(before.updated_at);
  }, 240_000);

  it('applies an edited price and checklist, and the guest page shows them', async () => {
    const edited = await edit(smallExport, (book) => {
      cell(book, '产品', 2, '售价（元）').value = 1234.5;
      cell(book, '材料清单', 2, '材料名称').value = '护照原件（有效期六个月以上）';
    });
    const preview = await previewWorkbook(small.db, edited);
    expect(preview.problems).toEqual([]);
    expect(preview.sheets.find((s) => s.sheet === '产品')).toMatchObject({ added: 0, changed: 1 });
    expect(preview.sheets.find((s) => s.sheet === '材料清单')).toMatchObject({ added: 0, changed: 1 });
    expect((await productRow(small, 1)).sell_price).not.toBe(123450); // a preview writes nothing

    const result = await importWorkbook(small.db, edited, LATER);
    expect(result.applied).toBe(true);
    const row = await productRow(small, 1);
    expect(row.sell_price).toBe(123450);
    expect(Number(row.updated_at)).toBe(LATER);
    const detail = await createCatalogueService(small.db).productDetail(1);
    expect(detail?.sell_price).toBe(123450);
    expect(JSON.stringify(detail)).toContain('护照原件（有效期六个月以上）');
  }, 240_000);

  it('refuses the whole file for any bad row, naming sheet, row, column and reason in Chinese', async () => {
    const bad = await edit(smallExport, (book) => {
      cell(book, '产品', 3, '售价（元）').value = -100;
      cell(book, '产品', 4, '售价（元）').value = 99.999;
      cell(book, '产品', 5, '签证类型').value = '太空签证';
      cell(book, '照片规格', 2, '宽（毫米）').value = 500;
      cell(book, '领区', 2, '受理省份编码').value = null;
      cell(book, '材料清单', 3, '申请人身份').value = '外星人';
      cell(book, '产品', 6, '国家代码').value = 'ZZ';
    });
    const before = await productRow(small, 2);
    const result = await importWorkbook(small.db, bad, LATER + 1);
    expect(result.applied).toBe(false);
    const found = (sheet: string, row: number, column: string) => result.problems.find((p) => p.sheet === sheet && p.row === row && p.column === column);
    expect(found('产品', 3, '售价（元）')?.reason).toBe('金额不能为负数');
    expect(found('产品', 4, '售价（元）')?.reason).toContain('精确到分');
    expect(found('照片规格', 2, '宽（毫米）')?.reason).toContain('20–100');
    expect(found('材料清单', 3, '申请人身份')?.reason).toContain('在职人员');
    // Cell problems come first; the references are checked once every cell reads.
    expect(await productRow(small, 2)).toEqual(before);

    const refs = await edit(smallExport, (book) => {
      cell(book, '产品', 5, '签证类型').value = '太空签证';
      cell(book, '产品', 6, '国家代码').value = 'ZZ';
      cell(book, '领区', 2, '受理省份编码').value = null;
      cell(book, '产品', 7, '企业价（元）').value = 999999;
    });
    const second = await importWorkbook(small.db, refs, LATER + 1);
    expect(second.applied).toBe(false);
    const at = (sheet: string, row: number, column: string) => second.problems.find((p) => p.sheet === sheet && p.row === row && p.column === column)?.reason;
    expect(at('产品', 5, '签证类型')).toContain('不在“签证类型”表中');
    expect(at('产品', 6, '国家代码')).toContain('ZZ');
    expect(at('领区', 2, '受理省份编码')).toBe('领区至少要受理一个省份');
    expect(at('产品', 7, '企业价（元）')).toMatch(/企业价/);
  }, 240_000);

  it('refuses a product whose checklist for an identity is empty', async () => {
    const values = await workbookValues(smallExport);
    const header = values['材料清单']![0]!;
    const productCol = header.indexOf('产品编号');
    const identityCol = header.indexOf('申请人身份');
    const requiredCol = header.indexOf('必需或可选');
    const emptied = await edit(smallExport, (book) => {
      const sheet = book.getWorksheet('材料清单')!;
      values['材料清单']!.forEach((row, index) => {
        if (index > 0 && row[productCol] === 1 && row[identityCol] === '退休人员' && row[requiredCol] === '必需')
          sheet.getRow(index + 1).getCell(requiredCol + 1).value = '可选';
      });
    });
    const result = await previewWorkbook(small.db, emptied);
    expect(result.problems).toContainEqual({ sheet: '产品', row: 2, column: '产品编号', reason: '材料清单为空：退休人员没有必需材料' });
  }, 240_000);

  it('refuses a file that is not a workbook, and one missing a column', async () => {
    const notXlsx = await previewWorkbook(small.db, Buffer.from('PK\u0003\u0004 not really a zip'));
    expect(notXlsx.problems).toEqual([{ sheet: '', row: 0, column: '', reason: '文件不是有效的 Excel 工作簿（.xlsx）' }]);
    const noColumn = await edit(smallExport, (book) => {
      cell(book, '国家', 1, '简介').value = '说明';
    });
    const result = await previewWorkbook(small.db, noColumn);
    expect(result.problems).toContainEqual({ sheet: '国家', row: 1, column: '简介', reason: '缺少这一列' });
  }, 240_000);

  it('keeps a slot from going below its bookings', async () => {
    const district = await small.db.selectFrom('consular_district').select('consular_district_id').orderBy('consular_district_id').executeTakeFirstOrThrow();
    await small.db
      .insertInto('interview_slot')
      .values({ consular_district_id: district.consular_district_id, slot_date: '2026-12-01', start_time: '09:00', end_time: '10:00', capacity: 5, booked: 3 })
      .execute();
    const withSlot = await exportWorkbook(small.db);
    const reduced = await edit(withSlot, (book) => {
      cell(book, '面试时段', 2, '名额').value = 2;
    });
    const result = await previewWorkbook(small.db, reduced);
    expect(result.problems).toContainEqual({ sheet: '面试时段', row: 2, column: '名额', reason: '已有 3 人预约，名额不能少于 3' });
    const raised = await edit(withSlot, (book) => {
      cell(book, '面试时段', 2, '名额').value = 8;
    });
    expect((await importWorkbook(small.db, raised, LATER)).applied).toBe(true);
    const slot = await small.db.selectFrom('interview_slot').selectAll().where('slot_date', '=', '2026-12-01').executeTakeFirstOrThrow();
    expect([slot.capacity, Number(slot.booked)]).toEqual([8, 3]);
  }, 240_000);
});
