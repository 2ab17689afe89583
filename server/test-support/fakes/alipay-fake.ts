// A local fake of Alipay's OpenAPI gateway (v2, RSA2), written from Alipay's
// public documentation, for the Alipay provider's tests. It listens on
// 127.0.0.1 and checks each request the way the gateway does:
// - common parameters: app_id (ours), method (one it knows), charset utf-8,
//   sign_type RSA2, version 1.0, format JSON when given, timestamp
//   "yyyy-MM-dd HH:mm:ss" in China time and within 10 minutes of its clock;
// - the RSA2 signature over every parameter but sign (sorted, k=v&…), with
//   the app's public key;
// - biz_content: the fields each method requires, total_amount / refund_amount
//   as yuan with exactly two decimals, out_trade_no unique (the same number
//   with other content is refused), refunds idempotent by out_request_no and
//   never more than what is left of the trade.
// It answers as Alipay does — {"<method>_response": {...}, "sign": "…"}, the
// sign over the *_response JSON text with Alipay's private key — and posts the
// asynchronous notification signed over its sorted parameters but sign and
// sign_type, resending it until the answer is the text `success`.
// Trades opened with precreate exist for query/close only once scanned, as at
// Alipay. Each answer can be held back (stall) to play a timeout, and the
// request is still carried out: the outcome is unknown to the caller.
import { randomInt, randomUUID, type KeyObject } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cents, chinaTime, parseChinaTime, rsa2Sign, rsa2Verify, signContent, yuan } from '../../modules/payment/alipay/alipay-format.ts';

export interface AlipayFakeOptions {
  appId: string;
  /** The app's public key: the requests' signatures are checked with it. */
  appPublicKey: KeyObject;
  /** Alipay's private key: answers and notifications are signed with it. */
  alipayPrivateKey: KeyObject;
  now: () => number;
  /** Where notifications go (default: an HTTP POST to the trade's notify_url). Answers the response body. */
  deliver?: (url: string, body: string) => Promise<string>;
}

export interface FakeTrade {
  out_trade_no: string;
  trade_no: string;
  total_amount: number;
  subject: string;
  method: 'alipay.trade.precreate' | 'alipay.trade.wap.pay';
  notify_url: string;
  time_expire: number | null;
  status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  /** A precreated trade exists at Alipay once its QR code is scanned. */
  scanned: boolean;
  gmt_create: number;
  gmt_payment: number | null;
  notify_id: string | null;
  notifications: Array<{ at: number; answer: string }>;
}

export interface FakeRefund {
  out_request_no: string;
  out_trade_no: string;
  trade_no: string;
  refund_amount: number;
  gmt_refund_pay: number;
}

/** A request the fake's checks refused (40002), and why (tests assert the provider's requests pass every check). */
export interface Refusal {
  method: string;
  sub_code: string;
  sub_msg: string;
}

const METHODS = [
  'alipay.trade.precreate',
  'alipay.trade.wap.pay',
  'alipay.trade.query',
  'alipay.trade.close',
  'alipay.trade.refund',
  'alipay.trade.fastpay.refund.query',
  'alipay.data.dataservice.bill.downloadurl.query',
] as const;
type Method = (typeof METHODS)[number];

const TIMESTAMP_SKEW_MS = 10 * 60_000;
const TWO_DECIMALS = /^\d{1,9}\.\d{2}$/;
const OUT_NO = /^[A-Za-z0-9_]{1,64}$/;

class Refused extends Error {
  constructor(
    readonly code: string,
    readonly sub_code: string,
    readonly sub_msg: string,
  ) {
    super(sub_msg);
  }
}

const invalid = (sub_code: string, sub_msg: string) => new Refused('40002', sub_code, sub_msg);
const business = (sub_code: string, sub_msg: string) => new Refused('40004', sub_code, sub_msg);

/** The shop's Alipay account (2088…, 16 digits) as the fake reports it in seller_id. */
const SELLER_ID = '2088000000000001';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function amountOf(value: unknown, field: string): number {
  if (typeof value !== 'string' || !TWO_DECIMALS.test(value)) throw invalid('isv.invalid-parameter', `${field} 格式错误：须为两位小数的元金额`);
  const amount = cents(value)!;
  if (amount < 1 || amount > 10_000_000_000) throw invalid('isv.invalid-parameter', `${field} 超出范围`);
  return amount;
}

function required(biz: Record<string, unknown>, field: string, max: number): string {
  const value = biz[field];
  if (typeof value !== 'string' || value.length === 0) throw invalid('isv.missing-parameter', `缺少必选参数 ${field}`);
  if (value.length > max) throw invalid('isv.invalid-parameter', `${field} 过长`);
  return value;
}

let gbkTable: Map<string, Buffer> | null = null;

/** UTF-16 → GBK, as Alipay writes its bills (the table is built once from the platform's GBK decoder). */
export function encodeGbk(text: string): Buffer {
  if (!gbkTable) {
    gbkTable = new Map();
    const decoder = new TextDecoder('gbk', { fatal: true });
    for (let lead = 0x81; lead <= 0xfe; lead += 1)
      for (let trail = 0x40; trail <= 0xfe; trail += 1) {
        if (trail === 0x7f) continue;
        try {
          const char = decoder.decode(Uint8Array.of(lead, trail));
          if (!gbkTable.has(char)) gbkTable.set(char, Buffer.from([lead, trail]));
        } catch {
          // not a GBK code
        }
      }
  }
  const parts: Buffer[] = [];
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) parts.push(Buffer.from(char, 'latin1'));
    else parts.push(gbkTable.get(char) ?? Buffer.from('?'));
  }
  return Buffer.concat(parts);
}

/** A zip of stored entries with GBK names (no UTF-8 flag), as Alipay's bill archive. */
export function zipStored(files: Array<{ name: string; data: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = encodeGbk(file.name);
    const crc = crc32(file.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(file.data.length, 18);
    local.writeUInt32LE(file.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(file.data.length, 20);
    entry.writeUInt32LE(file.data.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, file.data);
    central.push(entry, name);
    offset += 30 + name.length + file.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** One line of the business details, as the bill lists it. */
export interface FakeBillLine {
  trade_no: string;
  out_trade_no: string;
  type: '交易' | '退款';
  subject: string;
  created: number;
  finished: number;
  /** cents; written negative for a refund */
  amount: number;
  out_request_no: string;
}

/** The bill archive of one day: the details CSV (with its '#' header and footer lines) and the summary, GBK. */
export function alipayBillArchive(billDate: string, lines: FakeBillLine[]): Buffer {
  const day = billDate.replaceAll('-', '');
  const header =
    '支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注';
  const money = (line: FakeBillLine) => (line.type === '退款' ? `-${yuan(line.amount)}` : yuan(line.amount));
  const rows = lines.map((line) =>
    [
      `${line.trade_no}\t`,
      `${line.out_trade_no}\t`,
      line.type,
      line.subject,
      chinaTime(line.created),
      chinaTime(line.finished),
      '',
      '',
      '',
      '',
      '159****5620',
      money(line),
      money(line),
      '0.00',
      '0.00',
      '0.00',
      '0.00',
      '0.00',
      '',
      '0.00',
      '0.00',
      line.type === '退款' ? `${line.out_request_no}\t` : '',
      '0.00',
      '0.00',
      '',
    ].join(','),
  );
  const details = [
    '#支付宝业务明细查询',
    '#账号：[20889211234567890156]',
    `#起始日期：[${billDate} 00:00:00]   终止日期：[${billDate} 23:59:59]`,
    '#-----------------------------------------业务明细列表----------------------------------------',
    header,
    ...rows,
    '#-----------------------------------------业务明细列表结束------------------------------------',
    `#交易合计：${lines.filter((l) => l.type === '交易').length}笔，退款合计：${lines.filter((l) => l.type === '退款').length}笔`,
  ].join('\r\n');
  const summary = ['#支付宝业务汇总查询', '门店编号,门店名称,交易订单总笔数,退款订单总笔数', `,,${rows.length},0`].join('\r\n');
  return zipStored([
    { name: `20889211234567890156_${day}_业务明细.csv`, data: encodeGbk(details) },
    { name: `20889211234567890156_${day}_业务明细(汇总).csv`, data: encodeGbk(summary) },
  ]);
}

export function createAlipayFake(options: AlipayFakeOptions) {
  const { appId, now } = options;
  const trades = new Map<string, FakeTrade>();
  const refunds = new Map<string, FakeRefund>();
  const refusals: Refusal[] = [];
  /** Methods whose next answers are held back this long (a timeout at the caller). */
  const stalls = new Map<string, { times: number; ms: number }>();
  /** Bill files served by token (alipay.data.dataservice.bill.downloadurl.query). */
  const bills = new Map<string, Buffer>();
  /** The day's bill from the fake's own books; a test may change its lines (setBillEdit). */
  let billEdit: (lines: FakeBillLine[]) => FakeBillLine[] = (lines) => lines;
  function billMaker(billDate: string): Buffer {
    const start = Date.parse(`${billDate}T00:00:00+08:00`);
    const inDay = (at: number | null) => at !== null && at >= start && at < start + 86_400_000;
    const lines: FakeBillLine[] = [];
    for (const trade of trades.values())
      if (trade.gmt_payment !== null && inDay(trade.gmt_payment))
        lines.push({
          trade_no: trade.trade_no,
          out_trade_no: trade.out_trade_no,
          type: '交易',
          subject: trade.subject,
          created: trade.gmt_create,
          finished: trade.gmt_payment,
          amount: trade.total_amount,
          out_request_no: '',
        });
    for (const refund of refunds.values())
      if (inDay(refund.gmt_refund_pay)) {
        const trade = trades.get(refund.out_trade_no)!;
        lines.push({
          trade_no: refund.trade_no,
          out_trade_no: refund.out_trade_no,
          type: '退款',
          subject: trade.subject,
          created: refund.gmt_refund_pay,
          finished: refund.gmt_refund_pay,
          amount: refund.refund_amount,
          out_request_no: refund.out_request_no,
        });
      }
    return alipayBillArchive(billDate, billEdit(lines));
  }
  let server: Server | null = null;
  let base = '';

  function newTradeNo(at: number): string {
    return `${chinaTime(at).slice(0, 10).replaceAll('-', '')}22001${Array.from({ length: 15 }, () => randomInt(10)).join('')}`;
  }

  function signed(method: string, body: Record<string, unknown>): string {
    const key = METHODS.includes(method as Method) ? `${method.replaceAll('.', '_')}_response` : 'error_response';
    const json = JSON.stringify(body);
    return `{"${key}":${json},"sign":"${rsa2Sign(json, options.alipayPrivateKey)}"}`;
  }

  /** The common parameters and the signature, as the gateway checks them. */
  function checkCommon(params: Record<string, string>): { method: Method; biz: Record<string, unknown> } {
    if (params.app_id !== appId) throw invalid('isv.invalid-app-id', '无效的AppID参数');
    if (!METHODS.includes(params.method as Method)) throw invalid('isv.invalid-method', '不存在的方法名');
    if (params.format !== undefined && params.format.toUpperCase() !== 'JSON') throw invalid('isv.invalid-format', '无效的数据格式');
    if ((params.charset ?? '').toLowerCase() !== 'utf-8') throw invalid('isv.invalid-charset', '字符集错误');
    if (params.sign_type !== 'RSA2') throw invalid('isv.invalid-signature-type', '无效的签名类型');
    if (params.version !== '1.0') throw invalid('isv.invalid-version', '版本号错误');
    const timestamp = parseChinaTime(params.timestamp);
    if (timestamp === null) throw invalid('isv.invalid-timestamp', '非法的时间戳参数');
    if (Math.abs(timestamp - now()) > TIMESTAMP_SKEW_MS) throw invalid('isv.invalid-timestamp', '时间戳与支付宝服务器时间相差超过10分钟');
    if (!params.sign || !rsa2Verify(signContent(params, ['sign']), params.sign, options.appPublicKey))
      throw invalid('isv.invalid-signature', '验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配');
    let biz: unknown;
    try {
      biz = JSON.parse(params.biz_content ?? '');
    } catch {
      throw invalid('isv.invalid-parameter', 'biz_content 不是 JSON');
    }
    if (!biz || typeof biz !== 'object' || Array.isArray(biz)) throw invalid('isv.invalid-parameter', 'biz_content 不是 JSON 对象');
    return { method: params.method as Method, biz: biz as Record<string, unknown> };
  }

  /** A trade as Alipay knows it: a precreated one not yet scanned does not exist. */
  function visible(outTradeNo: unknown): FakeTrade {
    const trade = typeof outTradeNo === 'string' ? trades.get(outTradeNo) : undefined;
    if (!trade || !trade.scanned) throw business('ACQ.TRADE_NOT_EXIST', '交易不存在');
    expire(trade);
    return trade;
  }

  function expire(trade: FakeTrade): void {
    if (trade.status === 'WAIT_BUYER_PAY' && trade.time_expire !== null && trade.time_expire <= now()) trade.status = 'TRADE_CLOSED';
  }

  function openTrade(method: FakeTrade['method'], params: Record<string, string>, biz: Record<string, unknown>): FakeTrade {
    const outTradeNo = required(biz, 'out_trade_no', 64);
    if (!OUT_NO.test(outTradeNo)) throw invalid('isv.invalid-parameter', 'out_trade_no 只能含字母、数字和下划线');
    const total = amountOf(biz.total_amount, 'total_amount');
    const subject = required(biz, 'subject', 256);
    const timeExpire = biz.time_expire === undefined ? null : parseChinaTime(biz.time_expire);
    if (biz.time_expire !== undefined && timeExpire === null) throw invalid('isv.invalid-parameter', 'time_expire 格式错误');
    if (method === 'alipay.trade.wap.pay' && biz.product_code !== 'QUICK_WAP_WAY') throw invalid('isv.invalid-parameter', 'product_code 须为 QUICK_WAP_WAY');
    const notifyUrl = params.notify_url;
    if (!notifyUrl || !/^https?:\/\//.test(notifyUrl)) throw invalid('isv.invalid-parameter', 'notify_url 无效');
    const known = trades.get(outTradeNo);
    if (known) {
      // The same number again: only for the same trade, and only while it is unpaid.
      if (known.total_amount !== total || known.subject !== subject) throw business('ACQ.CONTEXT_INCONSISTENT', '交易信息被篡改');
      if (known.status === 'TRADE_SUCCESS') throw business('ACQ.TRADE_HAS_SUCCESS', '交易已被支付');
      if (known.status === 'TRADE_CLOSED') throw business('ACQ.TRADE_HAS_CLOSE', '交易已经关闭');
      return known;
    }
    const trade: FakeTrade = {
      out_trade_no: outTradeNo,
      trade_no: newTradeNo(now()),
      total_amount: total,
      subject,
      method,
      notify_url: notifyUrl,
      time_expire: timeExpire,
      status: 'WAIT_BUYER_PAY',
      scanned: method === 'alipay.trade.wap.pay',
      gmt_create: now(),
      gmt_payment: null,
      notify_id: null,
      notifications: [],
    };
    trades.set(outTradeNo, trade);
    return trade;
  }

  function refundedOf(outTradeNo: string): number {
    let total = 0;
    for (const refund of refunds.values()) if (refund.out_trade_no === outTradeNo) total += refund.refund_amount;
    return total;
  }

  function handle(method: Method, params: Record<string, string>, biz: Record<string, unknown>): Record<string, unknown> {
    const ok = { code: '10000', msg: 'Success' };
    switch (method) {
      case 'alipay.trade.precreate': {
        const trade = openTrade(method, params, biz);
        return { ...ok, out_trade_no: trade.out_trade_no, qr_code: `https://qr.alipay.com/fake${trade.trade_no.slice(-12)}` };
      }
      case 'alipay.trade.query': {
        const trade = visible(biz.out_trade_no);
        return {
          ...ok,
          trade_no: trade.trade_no,
          out_trade_no: trade.out_trade_no,
          trade_status: trade.status,
          total_amount: yuan(trade.total_amount),
          ...(trade.gmt_payment ? { send_pay_date: chinaTime(trade.gmt_payment), buyer_pay_amount: yuan(trade.total_amount) } : {}),
        };
      }
      case 'alipay.trade.close': {
        const trade = visible(biz.out_trade_no);
        if (trade.status === 'TRADE_SUCCESS') throw business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
        trade.status = 'TRADE_CLOSED';
        return { ...ok, trade_no: trade.trade_no, out_trade_no: trade.out_trade_no };
      }
      case 'alipay.trade.refund': {
        const amount = amountOf(biz.refund_amount, 'refund_amount');
        const outRequestNo = required(biz, 'out_request_no', 64);
        const trade = visible(biz.out_trade_no);
        const known = refunds.get(outRequestNo);
        if (known) {
          // Idempotent by out_request_no: the same refund answered again, no money moves.
          if (known.out_trade_no !== trade.out_trade_no || known.refund_amount !== amount)
            throw business('ACQ.INVALID_PARAMETER', '同一退款请求号的退款金额或交易不一致');
          return { ...ok, trade_no: trade.trade_no, out_trade_no: trade.out_trade_no, fund_change: 'N', refund_fee: yuan(refundedOf(trade.out_trade_no)) };
        }
        if (trade.status !== 'TRADE_SUCCESS') throw business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
        if (refundedOf(trade.out_trade_no) + amount > trade.total_amount) throw business('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限');
        const refund: FakeRefund = {
          out_request_no: outRequestNo,
          out_trade_no: trade.out_trade_no,
          trade_no: trade.trade_no,
          refund_amount: amount,
          gmt_refund_pay: now(),
        };
        refunds.set(outRequestNo, refund);
        return {
          ...ok,
          trade_no: trade.trade_no,
          out_trade_no: trade.out_trade_no,
          buyer_logon_id: '159****5620',
          fund_change: 'Y',
          refund_fee: yuan(refundedOf(trade.out_trade_no)),
          gmt_refund_pay: chinaTime(refund.gmt_refund_pay),
        };
      }
      case 'alipay.trade.fastpay.refund.query': {
        const outRequestNo = required(biz, 'out_request_no', 64);
        const trade = visible(biz.out_trade_no);
        const refund = refunds.get(outRequestNo);
        if (!refund || refund.out_trade_no !== trade.out_trade_no) return ok;
        const options = Array.isArray(biz.query_options) ? biz.query_options : [];
        return {
          ...ok,
          trade_no: trade.trade_no,
          out_trade_no: trade.out_trade_no,
          out_request_no: outRequestNo,
          total_amount: yuan(trade.total_amount),
          refund_amount: yuan(refund.refund_amount),
          refund_status: 'REFUND_SUCCESS',
          ...(options.includes('gmt_refund_pay') ? { gmt_refund_pay: chinaTime(refund.gmt_refund_pay) } : {}),
        };
      }
      case 'alipay.data.dataservice.bill.downloadurl.query': {
        if (biz.bill_type !== 'trade' && biz.bill_type !== 'signcustomer') throw invalid('isv.invalid-parameter', 'bill_type 无效');
        const billDate = required(biz, 'bill_date', 10);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(billDate)) throw invalid('isv.invalid-parameter', 'bill_date 格式错误');
        // Only a finished China day has a bill.
        if (billDate >= chinaTime(now()).slice(0, 10)) throw business('isp.bill_not_exist', '账单不存在');
        const token = randomUUID();
        bills.set(token, billMaker(billDate));
        return { ...ok, bill_download_url: `${base}/bill/${token}.csv.zip` };
      }
      case 'alipay.trade.wap.pay':
        throw invalid('isv.invalid-method', 'alipay.trade.wap.pay 是页面接口，须由浏览器访问');
    }
  }

  function refuse(response: ServerResponse, method: string, error: Refused): void {
    // A request the gateway's checks refused (40002); a business answer (40004: no such trade, not enough left…) is not one.
    if (error.code === '40002') refusals.push({ method, sub_code: error.sub_code, sub_msg: error.sub_msg });
    response.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
    response.end(
      signed(method, {
        code: error.code,
        msg: error.code === '40004' ? 'Business Failed' : 'Invalid Arguments',
        sub_code: error.sub_code,
        sub_msg: error.sub_msg,
      }),
    );
  }

  /** The WAP cashier: what Alipay shows the phone; 确认付款 posts to /cashier/pay. */
  function cashierPage(trade: FakeTrade, returnUrl: string | undefined): string {
    const action = `/cashier/pay?out_trade_no=${encodeURIComponent(trade.out_trade_no)}${returnUrl ? `&return_url=${encodeURIComponent(returnUrl)}` : ''}`;
    return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>支付宝</title>
<style>body{margin:0;font-family:'Noto Sans CJK SC','PingFang SC',sans-serif;background:#f5f5f5}header{background:#1677ff;color:#fff;padding:14px 16px;font-size:17px}main{padding:24px 16px;text-align:center}.amount{font-size:36px;margin:16px 0}button{width:100%;padding:13px;border:0;border-radius:8px;background:#1677ff;color:#fff;font-size:17px}</style></head>
<body><header>支付宝收银台（测试替身）</header><main><div>${escapeHtml(trade.subject)}</div><div class="amount" data-testid="alipayfake-amount">￥${yuan(trade.total_amount)}</div>
${trade.status === 'WAIT_BUYER_PAY' ? `<form method="post" action="${escapeHtml(action)}"><button type="submit" data-testid="alipayfake-pay">确认付款</button></form>` : `<p data-testid="alipayfake-state">${trade.status === 'TRADE_CLOSED' ? '交易已关闭' : '已付款'}</p>`}
</main></body></html>`;
  }

  /**
   * 确认付款 at the cashier: the trade is paid, the notification posted, and the
   * browser sent back to return_url with Alipay's synchronous return parameters
   * (signed like the notification; only a hint to the shop — the notification
   * or a query is what counts).
   */
  async function payAtCashier(url: URL, response: ServerResponse): Promise<void> {
    const trade = trades.get(url.searchParams.get('out_trade_no') ?? '');
    if (!trade) return void response.writeHead(404, { 'content-type': 'text/html;charset=utf-8' }).end('<p>交易不存在</p>');
    if (trade.status === 'WAIT_BUYER_PAY') {
      fake.pay(trade.out_trade_no);
      await fake.notify(trade.out_trade_no);
    }
    const back = url.searchParams.get('return_url');
    if (!back) return void response.writeHead(303, { location: `${base}/` }).end();
    const params: Record<string, string> = {
      charset: 'utf-8',
      out_trade_no: trade.out_trade_no,
      method: 'alipay.trade.wap.pay.return',
      total_amount: yuan(trade.total_amount),
      trade_no: trade.trade_no,
      auth_app_id: appId,
      version: '1.0',
      app_id: appId,
      sign_type: 'RSA2',
      seller_id: SELLER_ID,
      timestamp: chinaTime(now()),
    };
    params.sign = rsa2Sign(signContent(params, ['sign', 'sign_type']), options.alipayPrivateKey);
    const location = new URL(back);
    for (const [name, value] of Object.entries(params)) location.searchParams.set(name, value);
    response.writeHead(303, { location: location.toString() }).end();
  }

  async function onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', base);
    const billMatch = /^\/bill\/([\w-]+)\.csv\.zip$/.exec(url.pathname);
    if (request.method === 'GET' && billMatch) {
      const file = bills.get(billMatch[1]!);
      if (!file) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/zip' });
      return void response.end(file);
    }
    if (request.method === 'POST' && url.pathname === '/cashier/pay') return payAtCashier(url, response);
    if (url.pathname !== '/gateway.do') return void response.writeHead(404).end();
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    if (request.method === 'POST') Object.assign(params, Object.fromEntries(new URLSearchParams(await readBody(request))));
    const method = params.method ?? '';
    let checked;
    try {
      checked = checkCommon(params);
    } catch (error) {
      if (error instanceof Refused) return refuse(response, method, error);
      throw error;
    }
    if (checked.method === 'alipay.trade.wap.pay') {
      // The phone's browser opens Alipay's cashier (a page, not an API answer).
      if (request.method !== 'GET') return refuse(response, method, invalid('isv.invalid-method', '页面接口须用 GET 打开'));
      try {
        const trade = openTrade('alipay.trade.wap.pay', params, checked.biz);
        response.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
        return void response.end(cashierPage(trade, params.return_url));
      } catch (error) {
        if (error instanceof Refused) return refuse(response, method, error);
        throw error;
      }
    }
    let body: Record<string, unknown>;
    try {
      body = handle(checked.method, params, checked.biz);
    } catch (error) {
      if (error instanceof Refused) return refuse(response, method, error);
      throw error;
    }
    const stall = stalls.get(checked.method);
    if (stall && stall.times > 0) {
      // Done here, but the answer comes too late for the caller.
      stall.times -= 1;
      await new Promise((resolve) => setTimeout(resolve, stall.ms));
    }
    response.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
    response.end(signed(checked.method, body));
  }

  /** The asynchronous notification of a paid trade, signed as Alipay signs it. */
  function notificationBody(trade: FakeTrade, change: (params: Record<string, string>) => Record<string, string> = (p) => p): string {
    const params: Record<string, string> = {
      notify_time: chinaTime(now()),
      notify_type: 'trade_status_sync',
      notify_id: trade.notify_id ?? randomUUID().replaceAll('-', ''),
      app_id: appId,
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      trade_no: trade.trade_no,
      out_trade_no: trade.out_trade_no,
      trade_status: trade.status,
      total_amount: yuan(trade.total_amount),
      receipt_amount: yuan(trade.total_amount),
      buyer_pay_amount: yuan(trade.total_amount),
      subject: trade.subject,
      gmt_create: chinaTime(trade.gmt_create),
      ...(trade.gmt_payment ? { gmt_payment: chinaTime(trade.gmt_payment) } : {}),
    };
    params.sign = rsa2Sign(signContent(params, ['sign', 'sign_type']), options.alipayPrivateKey);
    return new URLSearchParams(change(params)).toString();
  }

  async function deliver(url: string, body: string): Promise<string> {
    if (options.deliver) return options.deliver(url, body);
    const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' } });
    return response.text();
  }

  const fake = {
    get gateway(): string {
      return `${base}/gateway.do`;
    },
    trades,
    refunds,
    refusals,

    async start(): Promise<void> {
      server = createServer((request, response) => {
        onRequest(request, response).catch(() => {
          if (!response.headersSent) response.writeHead(500);
          response.end();
        });
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },

    async close(): Promise<void> {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },

    /** The next `times` answers of `method` are carried out but held back `ms` (longer than the caller's timeout). */
    stall(method: Method, ms: number, times = 1): void {
      stalls.set(method, { times, ms });
    },

    /** The payer scans the QR code: the trade now exists at Alipay (WAIT_BUYER_PAY). */
    scan(outTradeNo: string): FakeTrade {
      const trade = trades.get(outTradeNo);
      if (!trade) throw new Error(`fake Alipay has no trade ${outTradeNo}`);
      trade.scanned = true;
      return trade;
    },

    /** The payer pays; the notification is not sent (see notify). */
    pay(outTradeNo: string): FakeTrade {
      const trade = this.scan(outTradeNo);
      expire(trade);
      if (trade.status !== 'WAIT_BUYER_PAY') throw new Error(`fake Alipay: trade ${outTradeNo} is ${trade.status}`);
      trade.status = 'TRADE_SUCCESS';
      trade.gmt_payment = now();
      trade.notify_id = randomUUID().replaceAll('-', '');
      return trade;
    },

    notificationBody(outTradeNo: string, change?: (params: Record<string, string>) => Record<string, string>): string {
      const trade = trades.get(outTradeNo);
      if (!trade) throw new Error(`fake Alipay has no trade ${outTradeNo}`);
      return notificationBody(trade, change);
    },

    /** Posts the trade's notification once to its notify_url; true when the answer was `success` (Alipay stops resending). */
    async notify(outTradeNo: string): Promise<boolean> {
      const trade = trades.get(outTradeNo);
      if (!trade) throw new Error(`fake Alipay has no trade ${outTradeNo}`);
      const answer = await deliver(trade.notify_url, notificationBody(trade));
      trade.notifications.push({ at: now(), answer });
      return answer === 'success';
    },

    /** Changes the lines of the bills served from now on (a test's differences). */
    setBillEdit(edit: (lines: FakeBillLine[]) => FakeBillLine[]): void {
      billEdit = edit;
    },

    /** Money taken and given back, as the fake's books say (never twice). */
    books(outTradeNo: string): { paid: number; refunded: number } {
      const trade = trades.get(outTradeNo);
      return { paid: trade?.status === 'TRADE_SUCCESS' ? trade.total_amount : 0, refunded: refundedOf(outTradeNo) };
    },
  };
  return fake;
}

export type AlipayFake = ReturnType<typeof createAlipayFake>;
