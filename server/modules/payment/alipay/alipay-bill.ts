// Alipay's daily trade bill: alipay.data.dataservice.bill.downloadurl.query
// answers a short-lived URL of a zip holding two GBK-encoded CSV files, the
// business details (…_业务明细.csv) and their summary (…_业务明细(汇总).csv).
// The details list one line per payment (业务类型 交易) and per refund (退款,
// with our out_request_no in 退款批次号/请求号), between comment lines that
// start with '#'. Read here into the normalised bill lines.
import { inflateRawSync } from 'node:zlib';
import type { BillLine } from '../bill.ts';
import { cents, parseChinaTime } from './alipay-format.ts';

/** The files of a zip archive (stored or deflated entries; names in UTF-8 when flagged, else GBK as Alipay writes them). */
export function unzip(archive: Buffer): Array<{ name: string; data: Buffer }> {
  const files: Array<{ name: string; data: Buffer }> = [];
  // The central directory's end record: the last 22+ bytes, signature 0x06054b50.
  let end = archive.length - 22;
  while (end >= 0 && archive.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('bill: not a zip archive');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  for (let i = 0; i < count; i += 1) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error('bill: broken zip directory');
    const flags = archive.readUInt16LE(at + 8);
    const method = archive.readUInt16LE(at + 10);
    const compressedSize = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const localHeader = archive.readUInt32LE(at + 42);
    const rawName = archive.subarray(at + 46, at + 46 + nameLength);
    const name = flags & 0x0800 ? rawName.toString('utf8') : new TextDecoder('gbk').decode(rawName);
    const dataStart = localHeader + 30 + archive.readUInt16LE(localHeader + 26) + archive.readUInt16LE(localHeader + 28);
    const raw = archive.subarray(dataStart, dataStart + compressedSize);
    if (method !== 0 && method !== 8) throw new Error(`bill: zip method ${method} not supported`);
    files.push({ name, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

/** One CSV line (Alipay quotes nothing but may pad values with tabs and spaces). */
function cells(line: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i]!;
    if (char === '"') {
      if (quoted && line[i + 1] === '"') {
        current += '"';
        i += 1;
      } else quoted = !quoted;
    } else if (char === ',' && !quoted) {
      out.push(current.trim());
      current = '';
    } else current += char;
  }
  out.push(current.trim());
  return out;
}

/** The business details CSV (GBK) → bill lines. Throws on a file it cannot read (the run fails and is tried again). */
export function parseAlipayDetails(csv: string): BillLine[] {
  const lines = csv.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const header = lines.shift();
  if (!header) return [];
  const columns = cells(header);
  const column = (name: string) => {
    const index = columns.findIndex((c) => c.startsWith(name));
    if (index < 0) throw new Error(`bill: no column ${name}`);
    return index;
  };
  const tradeNo = column('支付宝交易号');
  const outTradeNo = column('商户订单号');
  const type = column('业务类型');
  const finished = column('完成时间');
  const amount = column('订单金额');
  const requestNo = column('退款批次号/请求号');
  return lines.map((line): BillLine => {
    const row = cells(line);
    const value = cents(row[amount]);
    const at = parseChinaTime(row[finished]);
    if (value === null || at === null || !row[outTradeNo]) throw new Error(`bill: unreadable line ${line.slice(0, 80)}`);
    const refund = row[type] === '退款';
    return {
      kind: refund ? 'refund' : 'payment',
      out_trade_no: row[outTradeNo]!,
      out_refund_no: refund ? row[requestNo] || null : null,
      provider_trade_no: row[tradeNo] || null,
      provider_refund_no: null,
      amount: Math.abs(value),
      at,
    };
  });
}

/** The downloaded zip → the bill lines of its details file. */
export function parseAlipayBill(archive: Buffer): BillLine[] {
  const details = unzip(archive).find((file) => file.name.includes('业务明细') && !file.name.includes('汇总'));
  if (!details) throw new Error('bill: no 业务明细 file in the archive');
  return parseAlipayDetails(new TextDecoder('gbk').decode(details.data));
}
