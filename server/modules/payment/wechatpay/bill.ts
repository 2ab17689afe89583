// WeChat Pay's trade bill (交易账单, GET /v3/bill/tradebill, decision 0036)
// read into the interface's normalised lines (server/modules/payment/bill.ts).
// The file is CSV in UTF-8: a header line, one line per detail row whose
// fields each start with a backtick (so spreadsheets keep long numbers), then
// a summary header (总交易单数,…) and its line. Columns are found by their
// header name, not their position: WeChat has added columns over the years
// (订单金额, 申请退款金额, 费率备注 at the end), and a bill read by position
// would silently read the wrong amount.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { BillLine } from '../bill.ts';

/** Yuan with up to two decimals ("0.01", "-1.5") in cents, without floating point. */
export function yuanToCents(text: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) throw new Error(`WeChat Pay bill: not an amount: ${text.slice(0, 20)}`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

/** "yyyy-MM-dd HH:mm:ss", China's wall clock, in epoch ms. */
function chinaWallClock(text: string): number {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(text);
  if (!match) throw new Error(`WeChat Pay bill: not a time: ${text.slice(0, 25)}`);
  return Date.parse(`${match[1]}T${match[2]}+08:00`);
}

/** The SHA1 WeChat announced (hash_value) against the file received; hex, case-insensitive. */
export function billHashMatches(file: Buffer, hashType: string, hashValue: string): boolean {
  if (hashType.toUpperCase() !== 'SHA1') return false;
  const actual = createHash('sha1').update(file).digest();
  const expected = Buffer.from(hashValue.trim().toLowerCase(), 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

function headerCells(line: string): string[] {
  return line.split(',').map((cell) => cell.trim());
}

function detailCells(line: string): string[] {
  // Every detail field starts with a backtick, so fields are split on ",`": a comma inside
  // 商品名称 or 商户数据包 (free text) does not shift the columns after it (订单金额 is last).
  return line
    .slice(1)
    .split(',`')
    .map((cell) => cell.trim());
}

/**
 * The detail rows of a trade bill as lines: 交易状态 SUCCESS is a payment
 * (订单金额, or 应结订单金额 in older bills), REFUND a refund (申请退款金额,
 * or 退款金额). Other states (REVOKED: 撤销) move no money we booked and are
 * left out. Throws on a file that is not a trade bill.
 */
export function parseTradeBill(text: string): BillLine[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = headerCells(lines[0] ?? '');
  const col = (...names: string[]): number => {
    for (const name of names) {
      const at = header.indexOf(name);
      if (at >= 0) return at;
    }
    return -1;
  };
  const at = {
    time: col('交易时间'),
    transactionId: col('微信订单号'),
    outTradeNo: col('商户订单号'),
    state: col('交易状态'),
    total: col('订单金额', '应结订单金额', '总金额'),
    refundId: col('微信退款单号'),
    outRefundNo: col('商户退款单号'),
    refund: col('申请退款金额', '退款金额'),
  };
  const missing = Object.entries(at).filter(([, index]) => index < 0);
  if (missing.length > 0) throw new Error(`WeChat Pay bill: not a trade bill (no column ${missing.map(([name]) => name).join(', ')})`);
  const result: BillLine[] = [];
  for (const line of lines.slice(1)) {
    // The detail rows start with a backtick; the summary header (总交易单数,…) ends them.
    if (!line.startsWith('`')) break;
    const row = detailCells(line);
    const get = (index: number): string => row[index] ?? '';
    const state = get(at.state);
    if (state === 'SUCCESS') {
      result.push({
        kind: 'payment',
        out_trade_no: get(at.outTradeNo),
        out_refund_no: null,
        provider_trade_no: get(at.transactionId) || null,
        provider_refund_no: null,
        amount: yuanToCents(get(at.total)),
        at: chinaWallClock(get(at.time)),
      });
    } else if (state === 'REFUND') {
      result.push({
        kind: 'refund',
        out_trade_no: get(at.outTradeNo),
        out_refund_no: get(at.outRefundNo) || null,
        provider_trade_no: get(at.transactionId) || null,
        provider_refund_no: get(at.refundId) || null,
        amount: Math.abs(yuanToCents(get(at.refund))),
        at: chinaWallClock(get(at.time)),
      });
    }
  }
  return result;
}
