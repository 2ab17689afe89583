// The export's two formats, streamed: rows are written as their page arrives
// and the file leaves as it is made (exceljs' streaming WorkbookWriter, each
// row committed at once; CSV line by line), so an export of thousands of
// applicants holds one page of rows at a time. CSV is UTF-8 with a BOM, so
// Excel opens the Chinese headers as they are.
import { PassThrough, type Writable } from 'node:stream';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import { ORDER_EXPORT_COLUMNS } from '../../../common/report.ts';
import type { ExportRow } from './export-rows.ts';

type Cell = string | number | null;

const AMOUNT_COLUMNS = 5;

/** A row's cells in the columns' order; amounts in yuan (null: blank). */
function cellsOf(row: ExportRow): Cell[] {
  const yuan = (cents: number | null) => (cents === null ? null : Math.round(cents) / 100);
  return [
    row.order_no,
    row.group_name,
    row.product_title,
    row.country,
    row.visa_type,
    row.created_at,
    row.status,
    row.step,
    row.applicant,
    row.applicant_status,
    row.interview,
    row.visa_no,
    row.valid_from,
    row.valid_to,
    row.entries,
    row.stay_days,
    yuan(row.total),
    yuan(row.paid),
    yuan(row.refunded),
    yuan(row.refunding),
    yuan(row.outstanding),
  ];
}

/** Waits while the reader is behind (the client reads slower than we write). */
async function keepPace(stream: PassThrough): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return;
  await Promise.race([once(stream, 'drain'), once(stream, 'close')]).catch(() => undefined);
}

const WIDTHS = [20, 14, 28, 10, 10, 17, 10, 12, 10, 10, 22, 16, 12, 12, 10, 10, 14, 12, 12, 12, 12];

export async function writeXlsx(out: PassThrough, pages: AsyncIterable<ExportRow[]>): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out as Writable, useStyles: true, useSharedStrings: false });
  workbook.creator = '易签通';
  const sheet = workbook.addWorksheet('订单导出', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = ORDER_EXPORT_COLUMNS.map((header, index) => ({
    header,
    key: String(index),
    width: WIDTHS[index] ?? 12,
    ...(index >= ORDER_EXPORT_COLUMNS.length - AMOUNT_COLUMNS ? { style: { numFmt: '0.00' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for await (const rows of pages) {
    for (const row of rows) sheet.addRow(cellsOf(row)).commit();
    await keepPace(out);
  }
  sheet.commit();
  await workbook.commit();
}

/** RFC 4180 quoting; a text that Excel would take for a formula starts with an apostrophe. */
function csvCell(value: Cell, amount: boolean): string {
  if (value === null) return '';
  if (typeof value === 'number') return amount ? value.toFixed(2) : String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export async function writeCsv(out: PassThrough, pages: AsyncIterable<ExportRow[]>): Promise<void> {
  const amountFrom = ORDER_EXPORT_COLUMNS.length - AMOUNT_COLUMNS;
  const line = (cells: Cell[]) => cells.map((cell, index) => csvCell(cell, index >= amountFrom)).join(',') + '\r\n';
  out.write(`\uFEFF${line([...ORDER_EXPORT_COLUMNS])}`);
  for await (const rows of pages) {
    out.write(rows.map((row) => line(cellsOf(row))).join(''));
    await keepPace(out);
  }
  out.end();
}
