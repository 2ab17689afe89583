// The catalogue book ⇄ an .xlsx file (exceljs). Writing turns the stored
// values into what a person reads (yuan, percentages, labels); reading does
// the reverse cell by cell and reports every cell it cannot take, with its
// sheet, row and column, in Chinese.
import ExcelJS from 'exceljs';
import { type BookRow, type CatalogueBook, type Cell, type Column, emptyBook, LIST_SEPARATOR, SHEETS, type SheetDef, splitList } from './sheets.ts';

export interface BookProblem {
  sheet: string;
  /** The spreadsheet's row number (the header is row 1); 0 when the whole sheet is concerned. */
  row: number;
  column: string;
  reason: string;
}

/** A fixed date keeps the file's properties the same from one export to the next. */
const FIXED_DATE = new Date(Date.UTC(2026, 0, 1));

/** A stored value as its cell shows it (yuan, percent, the label of a code). */
export function displayValue(column: Column, value: Cell): string | number | null {
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    case 'money':
      return Number(value) / 100;
    case 'percent':
      return Number(value) / 100;
    case 'enum':
      return column.labels[Number(value)] ?? String(value);
    default:
      return value;
  }
}

export async function writeWorkbook(book: CatalogueBook): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = '易签通';
  workbook.created = FIXED_DATE;
  workbook.modified = FIXED_DATE;
  for (const def of SHEETS as unknown as SheetDef[]) {
    const sheet = workbook.addWorksheet(def.name, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = def.columns.map((column) => ({
      header: column.header,
      key: column.field,
      width: column.kind === 'text' && column.max > 200 ? 40 : Math.max(10, column.header.length * 2 + 2),
    }));
    sheet.getRow(1).font = { bold: true };
    for (const row of book[def.key]) {
      sheet.addRow(Object.fromEntries(def.columns.map((column) => [column.field, displayValue(column, row[column.field] ?? null)])));
    }
    for (const column of def.columns) {
      if (column.kind === 'money') sheet.getColumn(column.field).numFmt = '0.00';
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A cell's content as plain text or number (rich text, formulas' results and hyperlinks unwrapped). */
function plain(value: ExcelJS.CellValue): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('result' in value) return plain(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text);
    if ('error' in value) return null;
  }
  return String(value);
}

/** One cell → the stored value, or the reason (Chinese) it cannot be taken. */
function parseCell(column: Column, raw: string | number | null): { value: Cell } | { problem: string } {
  const asText = raw === null ? '' : String(raw).trim();
  if (asText === '') return column.required && !column.exportOnly ? { problem: '不能为空' } : { value: null };
  switch (column.kind) {
    case 'text': {
      if (asText.length > column.max) return { problem: `不能超过 ${column.max} 个字符` };
      if (column.pattern && !column.pattern.test(asText)) return { problem: `格式不对，应为${column.patternHint}` };
      return { value: asText };
    }
    case 'list': {
      const values = splitList(asText);
      if (values.length > column.max) return { problem: `最多 ${column.max} 项` };
      const bad = column.pattern ? values.find((value) => !column.pattern!.test(value)) : undefined;
      if (bad !== undefined) return { problem: `“${bad}”格式不对，应为${column.patternHint}` };
      return { value: values.join(LIST_SEPARATOR) };
    }
    case 'int': {
      const n = typeof raw === 'number' ? raw : Number(asText);
      if (!Number.isInteger(n)) return { problem: '应为整数' };
      if (n < column.min || n > column.max) return { problem: `应在 ${column.min}–${column.max} 之间` };
      return { value: n };
    }
    case 'money':
    case 'percent': {
      const n = typeof raw === 'number' ? raw : Number(asText.replace(/[,，]/g, ''));
      if (!Number.isFinite(n)) return { problem: '应为数字' };
      if (n < 0) return { problem: column.kind === 'money' ? '金额不能为负数' : '不能为负数' };
      const hundredths = Math.round(n * 100);
      if (Math.abs(n * 100 - hundredths) > 1e-6) return { problem: column.kind === 'money' ? '金额最多两位小数（精确到分）' : '最多两位小数' };
      if (column.kind === 'percent' && hundredths > 10000) return { problem: '不能超过 100%' };
      if (column.kind === 'money' && hundredths > 100_000_000) return { problem: '金额不能超过 1,000,000 元' };
      return { value: hundredths };
    }
    case 'enum': {
      const entry = Object.entries(column.labels).find(([, label]) => label === asText);
      if (!entry) return { problem: `应为以下之一：${Object.values(column.labels).join('、')}` };
      return { value: Number(entry[0]) };
    }
  }
}

export interface ReadResult {
  book: CatalogueBook;
  /** Each row's spreadsheet row number, parallel to book[sheet]. */
  rowNumbers: Record<string, number[]>;
  problems: BookProblem[];
}

/** Reads an .xlsx file; a file that is not one is a single problem. Sheets missing from the file are empty. */
export async function readWorkbook(bytes: Buffer): Promise<ReadResult> {
  const book = emptyBook();
  const rowNumbers: Record<string, number[]> = {};
  const problems: BookProblem[] = [];
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs' types predate Node's generic Buffer.
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    problems.push({ sheet: '', row: 0, column: '', reason: '文件不是有效的 Excel 工作簿（.xlsx）' });
    return { book, rowNumbers, problems };
  }
  for (const def of SHEETS as unknown as SheetDef[]) {
    rowNumbers[def.key] = [];
    const sheet = workbook.getWorksheet(def.name);
    if (!sheet) continue;
    // Columns are found by their header, so a person may reorder them.
    const headerRow = sheet.getRow(1);
    const at = new Map<string, number>();
    headerRow.eachCell((cell, col) => {
      const header = plain(cell.value);
      if (typeof header === 'string') at.set(header.trim(), col);
    });
    const missing = def.columns.filter((column) => !column.exportOnly && !at.has(column.header));
    for (const column of missing) problems.push({ sheet: def.name, row: 1, column: column.header, reason: '缺少这一列' });
    if (missing.length > 0) continue;
    for (let r = 2; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      const raws = def.columns.map((column) => (column.exportOnly ? null : plain(row.getCell(at.get(column.header)!).value)));
      if (raws.every((raw) => raw === null || String(raw).trim() === '')) continue; // blank rows are skipped
      const parsed: BookRow = {};
      for (const [index, column] of def.columns.entries()) {
        const result = parseCell(column, raws[index]!);
        if ('problem' in result) problems.push({ sheet: def.name, row: r, column: column.header, reason: result.problem });
        else parsed[column.field] = result.value;
      }
      book[def.key].push(parsed);
      rowNumbers[def.key]!.push(r);
    }
  }
  return { book, rowNumbers, problems };
}

/** The cell values of a workbook (every sheet, every row): what "the same workbook" means. */
export async function workbookValues(bytes: Buffer): Promise<Record<string, Array<Array<string | number | null>>>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: Record<string, Array<Array<string | number | null>>> = {};
  workbook.eachSheet((sheet) => {
    const rows: Array<Array<string | number | null>> = [];
    // columnCount walks every row: read it once per sheet.
    const columns = sheet.columnCount;
    sheet.eachRow({ includeEmpty: true }, (row) => {
      const cells: Array<string | number | null> = [];
      for (let c = 1; c <= columns; c++) cells.push(plain(row.getCell(c).value));
      rows.push(cells);
    });
    out[sheet.name] = rows;
  });
  return out;
}

/**
 * One row typed elsewhere (the back office's forms) checked cell by cell as
 * the importer reads a spreadsheet row: the stored values are shown as a
 * person would type them, then read back with the same rules and messages.
 */
export function checkRow(def: SheetDef, values: BookRow): { row: BookRow; problems: Array<{ column: string; reason: string }> } {
  const row: BookRow = {};
  const problems: Array<{ column: string; reason: string }> = [];
  for (const column of def.columns) {
    if (column.exportOnly) continue;
    const result = parseCell(column, displayValue(column, values[column.field] ?? null));
    if ('problem' in result) problems.push({ column: column.header, reason: result.problem });
    else row[column.field] = result.value;
  }
  return { row, problems };
}
