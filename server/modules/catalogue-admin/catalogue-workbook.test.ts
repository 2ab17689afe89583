// The catalogue workbook in the back office (issue 26), on SQLite or
// PostgreSQL (TEST_DATABASE_URL): a supervisor downloads the workbook, uploads
// an edited one, sees exactly the rows it changes, and only the confirmation
// imports it (recorded: who, what); a bad row is listed and nothing changes;
// a file that is not an xlsx, too large or swapped after the
// preview is refused in Chinese; an operator who is not a supervisor is refused.
// A 产品编辑 (catalogue_editor) imports as a supervisor does.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCatalogueWorkbookExport, adminCatalogueWorkbookImport, adminCatalogueWorkbookPreview } from '../../../common/contracts/catalogue-admin.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { multipart } from '../../test-support/fixtures/material.ts';
import { createTestApp, signedHeaders, type TestApp } from '../../test-support/test-app.ts';

let t: TestApp;
let boss: Awaited<ReturnType<TestApp['operator']>>;
let clerk: Awaited<ReturnType<TestApp['operator']>>;
let editor: Awaited<ReturnType<TestApp['operator']>>;

beforeAll(async () => {
  t = await createTestApp();
  boss = await t.operator({ role: 'supervisor', name: '王主管' });
  clerk = await t.operator({ role: 'operator', name: '张办理' });
  editor = await t.operator({ role: 'catalogue_editor', name: '韩编辑' });
});
afterAll(() => t.close());

async function send(path: string, token: string, fields: Record<string, string>, content: Buffer) {
  const { body, contentType } = multipart(fields, { content, name: 'catalogue.xlsx', type: 'application/octet-stream' });
  const response = await t.app.inject({
    method: 'POST',
    url: path,
    headers: signedHeaders(t.clock, { token, headers: { 'content-type': contentType } }),
    payload: body,
  });
  expect(response.statusCode).toBeLessThan(500);
  return response.json() as { ret: number; msg: string; body: any };
}

async function download(): Promise<Buffer> {
  const answer = await boss.callContract(adminCatalogueWorkbookExport, {});
  expect(answer.body.ret, answer.body.msg).toBe(0);
  return Buffer.from(answer.result!.content_base64, 'base64');
}

/** The workbook with the product's price (yuan) set. */
async function withPrice(bytes: Buffer, productId: number, yuan: number): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = book.getWorksheet('产品')!;
  const headers = (sheet.getRow(1).values as unknown[]).map(String);
  const idColumn = headers.indexOf('产品编号');
  const priceColumn = headers.indexOf('售价（元）');
  sheet.eachRow((row, number) => {
    if (number > 1 && Number(row.getCell(idColumn).value) === productId) row.getCell(priceColumn).value = yuan;
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('the back office workbook', () => {
  it('previews exactly the changed row, imports it on confirmation and records who imported it (a 产品编辑)', async () => {
    const product = await t.insertProduct({ price: 50_000 });
    const edited = await withPrice(await download(), product.visa_product_id, 612.5);

    const preview = await send(adminCatalogueWorkbookPreview.path, editor.token, {}, edited);
    expect(preview.ret, preview.msg).toBe(0);
    adminCatalogueWorkbookPreview.result.parse(preview.body);
    expect(preview.body.problems).toEqual([]);
    const changedRows = (preview.body.sheets as { sheet: string; rows: { change: string; label: string; columns: string[]; values: unknown[] }[] }[]).flatMap(
      (s) => s.rows.map((r) => ({ sheet: s.sheet, ...r })),
    );
    expect(changedRows).toEqual([
      expect.objectContaining({
        sheet: '产品',
        change: 'changed',
        columns: ['售价（元）'],
        values: [{ column: '售价（元）', before: String(product.sell_price / 100), after: '612.5' }],
      }),
    ]);
    expect(changedRows[0]!.label).toContain(String(product.visa_product_id));
    // The preview wrote nothing.
    const still = await t.db.selectFrom('visa_product').select('sell_price').where('visa_product_id', '=', product.visa_product_id).executeTakeFirstOrThrow();
    expect(still.sell_price).toBe(50_000);

    // A different file than the one previewed is refused.
    const swapped = await send(adminCatalogueWorkbookImport.path, editor.token, { sha256: 'a'.repeat(64) }, edited);
    expect(swapped).toMatchObject({ ret: ErrorCode.CATALOGUE_WORKBOOK_CHANGED, msg: '工作簿与预览时不同，请重新上传预览' });

    const imported = await send(adminCatalogueWorkbookImport.path, editor.token, { sha256: preview.body.sha256 }, edited);
    expect(imported.ret, imported.msg).toBe(0);
    const after = await t.db.selectFrom('visa_product').select('sell_price').where('visa_product_id', '=', product.visa_product_id).executeTakeFirstOrThrow();
    expect(after.sell_price).toBe(61_250);
    const audit = await t.db.selectFrom('catalogue_import').selectAll().where('import_id', '=', imported.body.import_id).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ operator_id: editor.operatorId, sha256: preview.body.sha256, file_name: 'catalogue.xlsx' });
    expect(JSON.parse(audit.changes)).toEqual([expect.objectContaining({ sheet: '产品', changed: 1 })]);
  });

  it('lists a negative price with its sheet, row and column; the confirmation imports nothing', async () => {
    const product = await t.insertProduct({ price: 30_000 });
    const bad = await withPrice(await download(), product.visa_product_id, -5);
    const preview = await send(adminCatalogueWorkbookPreview.path, boss.token, {}, bad);
    expect(preview.ret, preview.msg).toBe(0);
    expect(preview.body.problems).toEqual([expect.objectContaining({ sheet: '产品', column: '售价（元）' })]);
    expect(preview.body.problems[0].row).toBeGreaterThan(1);
    const refused = await send(adminCatalogueWorkbookImport.path, boss.token, { sha256: preview.body.sha256 }, bad);
    expect(refused.ret).toBe(ErrorCode.CATALOGUE_WORKBOOK_ROWS_INVALID);
    expect(refused.msg).toContain('未导入任何内容');
    const row = await t.db.selectFrom('visa_product').select('sell_price').where('visa_product_id', '=', product.visa_product_id).executeTakeFirstOrThrow();
    expect(row.sell_price).toBe(30_000);
  });

  it('refuses to bring back a retired material under its id (an order still lists it)', async () => {
    const product = await t.insertProduct();
    const material = product.materials[0]!;
    const before = await download();
    // Taken off the product after the download while an order still lists it: retired (removeMaterials).
    await t.db.updateTable('visa_product_material').set({ retired: 1 }).where('material_id', '=', material.material_id).execute();
    const preview = await send(adminCatalogueWorkbookPreview.path, boss.token, {}, before);
    expect(preview.ret, preview.msg).toBe(0);
    expect(preview.body.problems).toEqual([
      expect.objectContaining({
        sheet: '材料清单',
        column: '材料编号（新材料留空）',
        reason: `材料编号 ${material.material_id} 已从产品中删除（已有订单保留它），新材料请留空编号`,
      }),
    ]);
  });

  it('refuses what is not an xlsx or too large, reports a zip that is no workbook, and operators who are not supervisors', async () => {
    const pdf = Buffer.from('%PDF-1.4 not a workbook');
    expect(await send(adminCatalogueWorkbookPreview.path, boss.token, {}, pdf)).toMatchObject({
      ret: ErrorCode.CATALOGUE_WORKBOOK_NOT_XLSX,
      msg: '请上传 .xlsx 格式的产品目录工作簿',
    });
    const huge = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(10 * 1024 * 1024)]);
    expect(await send(adminCatalogueWorkbookPreview.path, boss.token, {}, huge)).toMatchObject({
      ret: ErrorCode.CATALOGUE_WORKBOOK_TOO_LARGE,
      msg: '工作簿过大，不能超过 10 MB',
    });
    const brokenZip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('garbage')]);
    // A zip that is no workbook: the preview says so (nothing can be imported).
    const broken = await send(adminCatalogueWorkbookPreview.path, boss.token, {}, brokenZip);
    expect(broken.ret, broken.msg).toBe(0);
    expect(broken.body.problems).toEqual([expect.objectContaining({ reason: '文件不是有效的 Excel 工作簿（.xlsx）' })]);
    const workbook = await download();
    expect(await send(adminCatalogueWorkbookPreview.path, clerk.token, {}, workbook)).toMatchObject({ ret: ErrorCode.OPERATOR_FORBIDDEN });
    expect((await clerk.callContract(adminCatalogueWorkbookExport, {})).body.ret).toBe(ErrorCode.OPERATOR_FORBIDDEN);
    expect((await send(adminCatalogueWorkbookImport.path, boss.token, { sha256: 'nope' }, workbook)).ret).toBe(ErrorCode.INVALID_PARAMS);
  });
});
