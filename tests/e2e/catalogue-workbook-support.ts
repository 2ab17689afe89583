// The back office's catalogue workbook in the specs (issue 26): download it
// from 产品管理 and edit its cells with exceljs, as a supervisor would in Excel.
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

/** Clicks 下载工作簿 and returns the file's bytes. */
export async function downloadWorkbook(page: Page): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '下载工作簿' }).click()]);
  return readFileSync((await download.path())!);
}

export interface CellEdit {
  sheet: string;
  /** The key column's header and the row's value in it. */
  where: { header: string; value: number };
  header: string;
  value: string | number;
}

/** The workbook with these cells changed (each edit must find its row). */
export async function editWorkbook(bytes: Buffer, edits: CellEdit[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  for (const edit of edits) {
    const sheet = book.getWorksheet(edit.sheet);
    if (!sheet) throw new Error(`no sheet ${edit.sheet}`);
    const headers = (sheet.getRow(1).values as unknown[]).map((value) => String(value ?? ''));
    const keyColumn = headers.indexOf(edit.where.header);
    const column = headers.indexOf(edit.header);
    if (keyColumn < 1 || column < 1) throw new Error(`no column ${edit.where.header} / ${edit.header} in ${edit.sheet}`);
    let found = false;
    sheet.eachRow((row, number) => {
      if (number > 1 && Number(row.getCell(keyColumn).value) === edit.where.value) {
        row.getCell(column).value = edit.value;
        found = true;
      }
    });
    if (!found) throw new Error(`no row ${edit.where.header}=${edit.where.value} in ${edit.sheet}`);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Chooses the workbook in 导入工作簿 (its hidden file input); the preview dialog opens. */
export async function uploadWorkbook(page: Page, bytes: Buffer): Promise<void> {
  await page.getByTestId('workbook-file').setInputFiles({
    name: 'catalogue.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: bytes,
  });
  await page.getByRole('dialog', { name: '导入工作簿：预览改动' }).waitFor();
}
