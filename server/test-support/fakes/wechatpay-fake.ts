// A local stand-in for WeChat Pay APIv3 (api.mch.weixin.qq.com), written from
// WeChat Pay's public documentation (decision 0036) for the wechatpay
// provider's tests and the payment journey: nothing here reaches WeChat. Its
// crypto is its own (node:crypto), not the provider's, so a mistake on one
// side shows. It checks every call the way WeChat does:
// - Authorization: schema WECHATPAY2-SHA256-RSA2048, mchid the merchant's,
//   serial_no the merchant key's serial, timestamp within 5 minutes of its
//   clock, a nonce never seen before, and the RSA-SHA256 signature over
//   "METHOD\nURL\ntimestamp\nnonce\nbody\n" with the merchant's public key
//   (401 SIGN_ERROR otherwise); Wechatpay-Serial, when sent, the platform key's id;
// - Native / H5 orders: appid and mchid, description (1–127), out_trade_no
//   (6–32 of [0-9A-Za-z_-|*]) unique — the same order again answers the same,
//   another order with that number 400 INVALID_REQUEST —, time_expire
//   (RFC 3339), notify_url, amount.total > 0 in CNY; H5 also
//   scene_info.payer_client_ip and h5_info.type;
// - query / close by out_trade_no (mchid in the query / body); closing a
//   paid trade is 400 ORDER_PAID;
// - refunds: the trade paid (404 RESOURCE_NOT_EXISTS otherwise), amount.total
//   the trade's total, the refund ≤ what remains (400 INVALID_REQUEST), and
//   out_refund_no idempotent (asked again: the same refund; with another
//   amount: 400 INVALID_REQUEST); refund query by out_refund_no;
// - the trade bill (GET /v3/bill/tradebill?bill_date&bill_type): from its own
//   ledger, ready from 10:00 China time the next day (400 STATEMENT_CREATING
//   before), 400 NO_STATEMENT_EXIST for a day with no trade; the signed answer
//   {hash_type SHA1, hash_value, download_url}; the download URL (a token valid
//   5 minutes) itself needs a signed request and serves the CSV unsigned, as
//   WeChat does (the hash vouches for it).
// Every answer is signed with the platform private key (Wechatpay-Signature,
// -Timestamp, -Nonce, -Serial); notifications are signed the same way and
// their resource encrypted with the APIv3 key (AEAD_AES_256_GCM).
// It can also stall an answer past the caller's time-out (the call itself
// is done), refuse refunds, and play the payer (pay, the H5 cashier page).
import { type KeyObject, createCipheriv, createHash, createSign, createVerify, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const MAX_SKEW_S = 300;
const TRADE_NO = /^[0-9A-Za-z_\-|*]{6,32}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export interface WechatPayFakeOptions {
  mchid: string;
  appid: string;
  merchantSerial: string;
  merchantPublicKey: KeyObject;
  platformPrivateKey: KeyObject;
  platformKeyId: string;
  apiV3Key: string;
  /** The fake's clock (ms): the tests' clock. */
  now: () => number;
  /** How notifications reach the merchant (default: fetch). */
  transport?: (url: string, body: string, headers: Record<string, string>) => Promise<{ status: number; body: string }>;
}

export interface FakeTrade {
  out_trade_no: string;
  kind: 'native' | 'h5';
  description: string;
  amount: number;
  notify_url: string;
  time_expire: string;
  payer_client_ip: string | null;
  prepay_id: string;
  state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND';
  transaction_id: string | null;
  success_time: string | null;
  refunded: number;
}

export interface FakeRefund {
  out_refund_no: string;
  out_trade_no: string;
  refund_id: string;
  amount: number;
  reason: string;
  notify_url: string | null;
  status: 'PROCESSING' | 'SUCCESS' | 'ABNORMAL' | 'CLOSED';
  create_time: string;
  success_time: string | null;
}

/** One detail row of the fake's trade bill (amounts in cents), before it is written as CSV. */
export interface FakeBillRow {
  state: 'SUCCESS' | 'REFUND';
  /** China wall clock, yyyy-MM-dd HH:mm:ss */
  time: string;
  transaction_id: string;
  out_trade_no: string;
  refund_id: string;
  out_refund_no: string;
  /** The trade's total (cents). */
  total: number;
  /** The refund's amount (cents); 0 on a payment row. */
  refund: number;
  description: string;
}

/** The columns of WeChat Pay's trade bill (bill_type ALL), in WeChat's order. */
export const TRADE_BILL_COLUMNS = [
  '交易时间',
  '公众账号ID',
  '商户号',
  '特约商户号',
  '设备号',
  '微信订单号',
  '商户订单号',
  '用户标识',
  '交易类型',
  '交易状态',
  '付款银行',
  '货币种类',
  '应结订单金额',
  '代金券金额',
  '微信退款单号',
  '商户退款单号',
  '退款金额',
  '充值券退款金额',
  '退款类型',
  '退款状态',
  '商品名称',
  '商户数据包',
  '手续费',
  '费率',
  '订单金额',
  '申请退款金额',
  '费率备注',
];

export interface FakeRequestLog {
  method: string;
  url: string;
  status: number;
  code: string | null;
}

function chinaTime(ms: number): string {
  return `${new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19)}+08:00`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function createWechatPayFake(options: WechatPayFakeOptions) {
  const trades = new Map<string, FakeTrade>();
  const refunds = new Map<string, FakeRefund>();
  const nonces = new Set<string>();
  const log: FakeRequestLog[] = [];
  const notificationsSent: Array<{ url: string; body: string; status: number }> = [];
  /** Answers held back this long after the work is done (the caller times out). */
  let stall: { match: RegExp; ms: number; times: number } | null = null;
  let refuseRefunds: { code: string; message: string; status: number } | null = null;
  let billEdit: ((rows: FakeBillRow[]) => FakeBillRow[]) | null = null;
  let tamperNextBill = false;
  /** download_url tokens: the file and until when the URL is good. */
  const billFiles = new Map<string, { file: Buffer; until: number }>();
  let server: Server | null = null;
  let base = '';

  function sign(message: string): string {
    return createSign('RSA-SHA256').update(message).sign(options.platformPrivateKey, 'base64');
  }

  /** Wechatpay-* headers over a body, as WeChat signs answers and notifications. */
  function signedHeaders(body: string): Record<string, string> {
    const timestamp = String(Math.floor(options.now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    return {
      'Wechatpay-Timestamp': timestamp,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Signature': sign(`${timestamp}\n${nonce}\n${body}\n`),
      'Wechatpay-Serial': options.platformKeyId,
      'Request-ID': randomUUID(),
    };
  }

  function encrypt(plain: string, associatedData: string): { algorithm: string; ciphertext: string; associated_data: string; nonce: string } {
    const nonce = randomBytes(6).toString('hex');
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(options.apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return { algorithm: 'AEAD_AES_256_GCM', ciphertext: data.toString('base64'), associated_data: associatedData, nonce };
  }

  function transaction(trade: FakeTrade) {
    return {
      appid: options.appid,
      mchid: options.mchid,
      out_trade_no: trade.out_trade_no,
      ...(trade.transaction_id ? { transaction_id: trade.transaction_id } : {}),
      trade_type: trade.kind === 'native' ? 'NATIVE' : 'MWEB',
      trade_state: trade.state,
      trade_state_desc: { NOTPAY: '未支付', SUCCESS: '支付成功', CLOSED: '已关闭', REFUND: '转入退款' }[trade.state],
      ...(trade.success_time ? { success_time: trade.success_time } : {}),
      amount: {
        total: trade.amount,
        currency: 'CNY',
        ...(trade.state !== 'NOTPAY' && trade.state !== 'CLOSED' ? { payer_total: trade.amount, payer_currency: 'CNY' } : {}),
      },
    };
  }

  function refundView(refund: FakeRefund, trade: FakeTrade) {
    return {
      refund_id: refund.refund_id,
      out_refund_no: refund.out_refund_no,
      transaction_id: trade.transaction_id,
      out_trade_no: refund.out_trade_no,
      channel: 'ORIGINAL',
      user_received_account: '支付用户零钱',
      create_time: refund.create_time,
      ...(refund.success_time ? { success_time: refund.success_time } : {}),
      status: refund.status,
      amount: { total: trade.amount, refund: refund.amount, payer_total: trade.amount, payer_refund: refund.amount, currency: 'CNY' },
    };
  }

  type Answer = { status: number; body?: unknown; html?: string; redirect?: string; file?: Buffer };
  const fail = (status: number, code: string, message: string): Answer => ({ status, body: { code, message } });

  /** The Authorization check; null when it holds. */
  function checkAuthorization(req: IncomingMessage, url: string, body: string): Answer | null {
    const header = req.headers.authorization ?? '';
    const match = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(header);
    if (!match) return fail(401, 'SIGN_ERROR', 'Authorization 缺失或认证类型错误');
    const fields: Record<string, string | undefined> = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const { mchid, nonce_str: nonce, signature, timestamp, serial_no: serial } = fields;
    if (!mchid || !nonce || !signature || !timestamp || !serial) return fail(401, 'SIGN_ERROR', 'Authorization 字段不全');
    if (mchid !== options.mchid) return fail(401, 'SIGN_ERROR', '商户号与签名不符');
    if (serial !== options.merchantSerial) return fail(401, 'SIGN_ERROR', '商户证书序列号有误');
    if (!/^\d+$/.test(timestamp) || Math.abs(options.now() / 1000 - Number(timestamp)) > MAX_SKEW_S) return fail(401, 'SIGN_ERROR', '时间戳超出有效范围');
    const method = req.method ?? 'GET';
    const message = `${method}\n${url}\n${timestamp}\n${nonce}\n${body}\n`;
    let valid: boolean;
    try {
      valid = createVerify('RSA-SHA256').update(message).verify(options.merchantPublicKey, signature, 'base64');
    } catch {
      valid = false;
    }
    if (!valid) return fail(401, 'SIGN_ERROR', '签名错误');
    if (nonces.has(`${timestamp}:${nonce}`)) return fail(401, 'SIGN_ERROR', '请求重放（nonce 已使用）');
    nonces.add(`${timestamp}:${nonce}`);
    const platformSerial = req.headers['wechatpay-serial'];
    if (platformSerial !== undefined && platformSerial !== options.platformKeyId) return fail(400, 'PARAM_ERROR', 'Wechatpay-Serial 不是微信支付公钥ID');
    return null;
  }

  function order(kind: 'native' | 'h5', input: Record<string, any>): Answer {
    if (input.appid !== options.appid) return fail(400, 'APPID_MCHID_NOT_MATCH', 'appid 与 mchid 不匹配');
    if (input.mchid !== options.mchid) return fail(400, 'MCH_NOT_EXISTS', '商户号不存在');
    if (typeof input.description !== 'string' || input.description.length < 1 || input.description.length > 127)
      return fail(400, 'PARAM_ERROR', 'description 长度应为 1-127');
    if (typeof input.out_trade_no !== 'string' || !TRADE_NO.test(input.out_trade_no)) return fail(400, 'PARAM_ERROR', 'out_trade_no 格式错误');
    if (typeof input.notify_url !== 'string' || !/^https?:\/\/[^?#]+$/.test(input.notify_url)) return fail(400, 'PARAM_ERROR', 'notify_url 格式错误');
    if (input.time_expire !== undefined && (typeof input.time_expire !== 'string' || !RFC3339.test(input.time_expire)))
      return fail(400, 'PARAM_ERROR', 'time_expire 不符合 rfc3339');
    const total = input.amount?.total;
    if (!Number.isInteger(total) || total <= 0) return fail(400, 'PARAM_ERROR', 'amount.total 必须为正整数（分）');
    if (input.amount.currency !== undefined && input.amount.currency !== 'CNY') return fail(400, 'PARAM_ERROR', '仅支持 CNY');
    let ip: string | null = null;
    if (kind === 'h5') {
      ip = input.scene_info?.payer_client_ip;
      if (typeof ip !== 'string' || ip.length === 0) return fail(400, 'PARAM_ERROR', 'scene_info.payer_client_ip 必填');
      if (typeof input.scene_info?.h5_info?.type !== 'string') return fail(400, 'PARAM_ERROR', 'scene_info.h5_info.type 必填');
    }
    const existing = trades.get(input.out_trade_no);
    if (existing) {
      // The same order again (a retry) answers the same; anything else with that number is refused.
      if (existing.kind !== kind || existing.amount !== total || existing.description !== input.description)
        return fail(400, 'INVALID_REQUEST', '商户订单号重复');
      if (existing.state !== 'NOTPAY') return fail(400, 'ORDER_PAID', '该订单已支付或已关闭');
      return { status: 200, body: payAnswer(existing) };
    }
    const trade: FakeTrade = {
      out_trade_no: input.out_trade_no,
      kind,
      description: input.description,
      amount: total,
      notify_url: input.notify_url,
      time_expire: input.time_expire ?? chinaTime(options.now() + 2 * 3_600_000),
      payer_client_ip: ip,
      prepay_id: `wx${Date.now()}${randomBytes(8).toString('hex')}`,
      state: 'NOTPAY',
      transaction_id: null,
      success_time: null,
      refunded: 0,
    };
    trades.set(trade.out_trade_no, trade);
    return { status: 200, body: payAnswer(trade) };
  }

  function payAnswer(trade: FakeTrade) {
    return trade.kind === 'native'
      ? { code_url: `weixin://wxpay/bizpayurl?pr=${trade.prepay_id.slice(-12)}` }
      : { h5_url: `${base}/h5pay/checkmweb?prepay_id=${trade.prepay_id}&package=${randomInt(1_000_000_000)}` };
  }

  function refund(input: Record<string, any>): Answer {
    if (refuseRefunds) return fail(refuseRefunds.status, refuseRefunds.code, refuseRefunds.message);
    const trade = typeof input.out_trade_no === 'string' ? trades.get(input.out_trade_no) : undefined;
    if (!trade || (trade.state !== 'SUCCESS' && trade.state !== 'REFUND')) return fail(404, 'RESOURCE_NOT_EXISTS', '订单不存在或未支付');
    if (typeof input.out_refund_no !== 'string' || !/^[0-9A-Za-z_\-|*@]{1,64}$/.test(input.out_refund_no))
      return fail(400, 'PARAM_ERROR', 'out_refund_no 格式错误');
    const amount = input.amount?.refund;
    if (!Number.isInteger(amount) || amount <= 0) return fail(400, 'PARAM_ERROR', 'amount.refund 必须为正整数');
    if (input.amount.total !== trade.amount) return fail(400, 'PARAM_ERROR', 'amount.total 与原订单金额不符');
    if (input.amount.currency !== 'CNY') return fail(400, 'PARAM_ERROR', 'amount.currency 必须为 CNY');
    const existing = refunds.get(input.out_refund_no);
    if (existing) {
      if (existing.out_trade_no !== trade.out_trade_no || existing.amount !== amount) return fail(400, 'INVALID_REQUEST', '同一退款单号的退款金额须一致');
      return { status: 200, body: refundView(existing, trade) };
    }
    if (trade.refunded + amount > trade.amount) return fail(400, 'INVALID_REQUEST', '申请退款金额超过订单可退金额');
    const at = options.now();
    const created: FakeRefund = {
      out_refund_no: input.out_refund_no,
      out_trade_no: trade.out_trade_no,
      refund_id: `50${String(at).slice(-10)}${String(randomInt(1e9)).padStart(9, '0')}`,
      amount,
      reason: String(input.reason ?? ''),
      notify_url: typeof input.notify_url === 'string' ? input.notify_url : null,
      status: 'PROCESSING',
      create_time: chinaTime(at),
      success_time: null,
    };
    refunds.set(created.out_refund_no, created);
    trade.refunded += amount;
    trade.state = 'REFUND';
    return { status: 200, body: refundView(created, trade) };
  }

  const yuan = (cents: number): string => (cents / 100).toFixed(2);
  const wallClock = (rfc3339: string): string => rfc3339.slice(0, 19).replace('T', ' ');

  /** The day's detail rows from the ledger: each payment on the day it was paid, each finished refund on the day it succeeded. */
  function billRows(billDate: string): FakeBillRow[] {
    const rows: FakeBillRow[] = [];
    for (const trade of trades.values()) {
      if (!trade.transaction_id || !trade.success_time?.startsWith(billDate)) continue;
      rows.push({
        state: 'SUCCESS',
        time: wallClock(trade.success_time),
        transaction_id: trade.transaction_id,
        out_trade_no: trade.out_trade_no,
        refund_id: '0',
        out_refund_no: '0',
        total: trade.amount,
        refund: 0,
        description: trade.description,
      });
    }
    for (const found of refunds.values()) {
      if (found.status !== 'SUCCESS' || !found.success_time?.startsWith(billDate)) continue;
      const trade = trades.get(found.out_trade_no)!;
      rows.push({
        state: 'REFUND',
        time: wallClock(found.success_time),
        transaction_id: trade.transaction_id ?? '',
        out_trade_no: trade.out_trade_no,
        refund_id: found.refund_id,
        out_refund_no: found.out_refund_no,
        total: trade.amount,
        refund: found.amount,
        description: trade.description,
      });
    }
    return rows.sort((a, b) => a.time.localeCompare(b.time));
  }

  /** The CSV WeChat serves: header, backticked detail rows, the summary header and line. */
  function billCsv(rows: FakeBillRow[]): string {
    const detail = rows.map((row) => {
      const refund = row.state === 'REFUND';
      const fields = [
        row.time,
        options.appid,
        options.mchid,
        '0',
        '',
        row.transaction_id,
        row.out_trade_no,
        'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o',
        'NATIVE',
        row.state,
        'OTHERS',
        'CNY',
        refund ? '0.00' : yuan(row.total),
        '0.00',
        row.refund_id,
        row.out_refund_no,
        refund ? yuan(row.refund) : '0.00',
        '0.00',
        refund ? 'ORIGINAL' : '',
        refund ? 'SUCCESS' : '',
        row.description,
        '',
        '0.00000',
        '0.60%',
        refund ? '0.00' : yuan(row.total),
        refund ? yuan(row.refund) : '0.00',
        '',
      ];
      return fields.map((field) => `\`${field}`).join(',');
    });
    const paid = rows.filter((row) => row.state === 'SUCCESS').reduce((sum, row) => sum + row.total, 0);
    const refunded = rows.filter((row) => row.state === 'REFUND').reduce((sum, row) => sum + row.refund, 0);
    const summary = [String(rows.length), yuan(paid), yuan(refunded), '0.00', '0.00000', yuan(paid), yuan(refunded)].map((field) => `\`${field}`).join(',');
    return [
      TRADE_BILL_COLUMNS.join(','),
      ...detail,
      '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额',
      summary,
      '',
    ].join('\r\n');
  }

  function tradeBill(query: URLSearchParams): Answer {
    const billDate = query.get('bill_date') ?? '';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(billDate)) return fail(400, 'PARAM_ERROR', 'bill_date 格式应为 yyyy-MM-dd');
    const billType = query.get('bill_type') ?? 'ALL';
    if (!['ALL', 'SUCCESS', 'REFUND'].includes(billType)) return fail(400, 'PARAM_ERROR', 'bill_type 取值错误');
    // Made after 10:00 China time the next day.
    if (options.now() < Date.parse(`${billDate}T10:00:00+08:00`) + 86_400_000) return fail(400, 'STATEMENT_CREATING', '账单生成中');
    let rows = billRows(billDate).filter((row) => billType === 'ALL' || row.state === billType);
    if (rows.length === 0) return fail(400, 'NO_STATEMENT_EXIST', '账单文件不存在');
    if (billEdit) rows = billEdit(rows);
    const file = Buffer.from(billCsv(rows), 'utf8');
    const hash = createHash('sha1').update(file).digest('hex');
    // Changed on the way: the file no longer matches the hash WeChat signed.
    const served = tamperNextBill
      ? Buffer.from(
          file.toString('utf8').replace(/`(\d+)\.(\d\d)/, (_m, a: string, b: string) => `\`${a}.${b === '99' ? '98' : String(Number(b) + 1).padStart(2, '0')}`),
        )
      : file;
    tamperNextBill = false;
    const token = randomBytes(24).toString('base64url');
    billFiles.set(token, { file: served, until: options.now() + 5 * 60_000 });
    return { status: 200, body: { hash_type: 'SHA1', hash_value: hash, download_url: `${base}/v3/billdownload/file?token=${token}` } };
  }

  async function route(req: IncomingMessage, url: string, body: string): Promise<Answer> {
    const path = url.split('?')[0] ?? '';
    const query = new URLSearchParams(url.split('?')[1] ?? '');
    // The payer's side (no merchant signature): the H5 cashier page.
    if (path === '/h5pay/checkmweb' || path === '/h5pay/confirm') return cashier(req, path, query);
    if (!path.startsWith('/v3/')) return fail(404, 'NOT_FOUND', '资源不存在');
    const refused = checkAuthorization(req, url, body);
    if (refused) return refused;
    let input: Record<string, any> = {};
    if (req.method === 'POST') {
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return fail(400, 'PARAM_ERROR', 'Content-Type 须为 application/json');
      try {
        input = JSON.parse(body) as Record<string, any>;
      } catch {
        return fail(400, 'PARAM_ERROR', '请求体不是 JSON');
      }
    }
    if (req.method === 'POST' && path === '/v3/pay/transactions/native') return order('native', input);
    if (req.method === 'POST' && path === '/v3/pay/transactions/h5') return order('h5', input);
    let m = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(path);
    if (m && req.method === 'GET') {
      if (query.get('mchid') !== options.mchid) return fail(400, 'PARAM_ERROR', 'mchid 缺失或不符');
      const trade = trades.get(decodeURIComponent(m[1] ?? ''));
      return trade ? { status: 200, body: transaction(trade) } : fail(404, 'ORDER_NOT_EXIST', '订单不存在');
    }
    m = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(path);
    if (m && req.method === 'POST') {
      if (input.mchid !== options.mchid) return fail(400, 'PARAM_ERROR', 'mchid 缺失或不符');
      const trade = trades.get(decodeURIComponent(m[1] ?? ''));
      if (!trade) return fail(404, 'ORDER_NOT_EXIST', '订单不存在');
      if (trade.state === 'SUCCESS' || trade.state === 'REFUND') return fail(400, 'ORDER_PAID', '订单已支付');
      trade.state = 'CLOSED';
      return { status: 204 };
    }
    if (req.method === 'POST' && path === '/v3/refund/domestic/refunds') return refund(input);
    if (req.method === 'GET' && path === '/v3/bill/tradebill') return tradeBill(query);
    if (req.method === 'GET' && path === '/v3/billdownload/file') {
      const found = billFiles.get(query.get('token') ?? '');
      if (!found || found.until < options.now()) return fail(400, 'INVALID_REQUEST', '下载链接已过期或无效');
      return { status: 200, file: found.file };
    }
    m = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(path);
    if (m && req.method === 'GET') {
      const found = refunds.get(decodeURIComponent(m[1] ?? ''));
      return found ? { status: 200, body: refundView(found, trades.get(found.out_trade_no)!) } : fail(404, 'RESOURCE_NOT_EXISTS', '退款单不存在');
    }
    return fail(404, 'NOT_FOUND', '资源不存在');
  }

  /** The H5 cashier: what WeChat shows the phone; 确认支付 pays, notifies, and returns to redirect_url. */
  async function cashier(req: IncomingMessage, path: string, query: URLSearchParams): Promise<Answer> {
    const trade = [...trades.values()].find((t) => t.prepay_id === query.get('prepay_id'));
    if (!trade) return { status: 404, html: '<p>订单不存在</p>' };
    const back = query.get('redirect_url');
    if (path === '/h5pay/confirm' && req.method === 'POST') {
      if (trade.state === 'NOTPAY') await payAndNotify(trade.out_trade_no);
      return { status: 303, redirect: back ?? `${base}/h5pay/checkmweb?prepay_id=${trade.prepay_id}` };
    }
    const action = `/h5pay/confirm?prepay_id=${encodeURIComponent(trade.prepay_id)}${back ? `&redirect_url=${encodeURIComponent(back)}` : ''}`;
    return {
      status: 200,
      html: `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>微信支付</title>
<style>body{margin:0;font-family:'Noto Sans CJK SC','PingFang SC',sans-serif;background:#f2f3f5}header{background:#07c160;color:#fff;padding:14px 16px;font-size:17px}main{padding:24px 16px;text-align:center}.amount{font-size:36px;margin:16px 0}button{width:100%;padding:13px;border:0;border-radius:8px;background:#07c160;color:#fff;font-size:17px}</style></head>
<body><header>微信支付（测试替身）</header><main><div>${escapeHtml(trade.description)}</div><div class="amount" data-testid="wxfake-amount">￥${(trade.amount / 100).toFixed(2)}</div>
${trade.state === 'NOTPAY' ? `<form method="post" action="${escapeHtml(action)}"><button type="submit" data-testid="wxfake-confirm">确认支付</button></form>` : `<p data-testid="wxfake-state">${trade.state === 'CLOSED' ? '订单已关闭' : '已支付'}</p>`}
</main></body></html>`,
    };
  }

  function notificationBody(eventType: string, originalType: 'transaction' | 'refund', plain: object, summary: string, id: string = randomUUID()): string {
    return JSON.stringify({
      id,
      create_time: chinaTime(options.now()),
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary,
      resource: { original_type: originalType, ...encrypt(JSON.stringify(plain), originalType) },
    });
  }

  async function deliver(url: string, body: string, headers: Record<string, string> = signedHeaders(body)): Promise<number> {
    const all = { 'Content-Type': 'application/json', ...headers };
    let status: number;
    try {
      if (options.transport) status = (await options.transport(url, body, all)).status;
      else status = (await fetch(url, { method: 'POST', headers: all, body, signal: AbortSignal.timeout(5_000) })).status;
    } catch {
      status = 0;
    }
    notificationsSent.push({ url, body, status });
    return status;
  }

  /** The payer pays: the trade is SUCCESS from now on (no notification). */
  function pay(outTradeNo: string): FakeTrade {
    const trade = trades.get(outTradeNo);
    if (!trade) throw new Error(`wechatpay fake: no trade ${outTradeNo}`);
    if (trade.state !== 'NOTPAY') throw new Error(`wechatpay fake: trade ${outTradeNo} is ${trade.state}`);
    const at = options.now();
    trade.state = 'SUCCESS';
    trade.transaction_id = `4200${String(at).slice(-10)}${String(randomInt(1e9)).padStart(9, '0')}`.slice(0, 28);
    trade.success_time = chinaTime(at);
    return trade;
  }

  /** The signed, encrypted TRANSACTION.SUCCESS notification of a paid trade (not sent). */
  function paymentNotification(outTradeNo: string, id?: string): { url: string; body: string; headers: Record<string, string> } {
    const trade = trades.get(outTradeNo);
    if (!trade || trade.state === 'NOTPAY' || trade.state === 'CLOSED') throw new Error(`wechatpay fake: trade ${outTradeNo} is not paid`);
    const body = notificationBody('TRANSACTION.SUCCESS', 'transaction', { ...transaction(trade), trade_state: 'SUCCESS' }, '支付成功', id);
    return { url: trade.notify_url, body, headers: signedHeaders(body) };
  }

  async function payAndNotify(outTradeNo: string): Promise<number> {
    pay(outTradeNo);
    const note = paymentNotification(outTradeNo);
    return deliver(note.url, note.body, note.headers);
  }

  /** The refund's end at WeChat (money arrived, or stuck), then its signed notification. */
  async function finishRefund(outRefundNo: string, status: 'SUCCESS' | 'ABNORMAL' | 'CLOSED' = 'SUCCESS', send = true): Promise<number | null> {
    const found = refunds.get(outRefundNo);
    if (!found) throw new Error(`wechatpay fake: no refund ${outRefundNo}`);
    found.status = status;
    found.success_time = status === 'SUCCESS' ? chinaTime(options.now()) : null;
    const trade = trades.get(found.out_trade_no)!;
    if (status !== 'SUCCESS') trade.refunded -= found.amount;
    if (!send || !found.notify_url) return null;
    const plain = {
      mchid: options.mchid,
      transaction_id: trade.transaction_id,
      out_trade_no: trade.out_trade_no,
      refund_id: found.refund_id,
      out_refund_no: found.out_refund_no,
      refund_status: status,
      ...(found.success_time ? { success_time: found.success_time } : {}),
      user_received_account: '支付用户零钱',
      amount: { total: trade.amount, refund: found.amount, payer_total: trade.amount, payer_refund: found.amount },
    };
    const body = notificationBody(`REFUND.${status}`, 'refund', plain, status === 'SUCCESS' ? '退款成功' : '退款异常');
    return deliver(found.notify_url, body);
  }

  function send(res: ServerResponse, answer: Answer) {
    if (answer.redirect) {
      res.writeHead(answer.status, { Location: answer.redirect }).end();
      return;
    }
    if (answer.file !== undefined) {
      // The bill file is not signed (its hash is, in the tradebill answer).
      res.writeHead(answer.status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(answer.file);
      return;
    }
    if (answer.html !== undefined) {
      res.writeHead(answer.status, { 'Content-Type': 'text/html; charset=utf-8' }).end(answer.html);
      return;
    }
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    res.writeHead(answer.status, { ...(text ? { 'Content-Type': 'application/json' } : {}), ...signedHeaders(text) }).end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = req.url ?? '/';
    let answer: Answer;
    try {
      answer = await route(req, url, body);
    } catch (error) {
      answer = fail(500, 'SYSTEM_ERROR', String(error));
    }
    const body2 = answer.body as { code?: string } | undefined;
    log.push({ method: req.method ?? '', url, status: answer.status, code: answer.status >= 400 ? (body2?.code ?? null) : null });
    if (stall && stall.match.test(url.split('?')[0] ?? '') && stall.times > 0) {
      stall.times -= 1;
      const ms = stall.ms;
      // Done, but answered too late: the caller has given up by then.
      setTimeout(() => {
        if (!res.destroyed) send(res, answer);
      }, ms).unref();
      return;
    }
    send(res, answer);
  }

  return {
    trades,
    refunds,
    log,
    notificationsSent,
    get baseUrl() {
      return base;
    },
    async listen(port = 0): Promise<string> {
      server = createServer((req, res) => void handle(req, res));
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return base;
    },
    async close(): Promise<void> {
      if (!server) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
    /** The next `times` answers to paths matching `match` are held back `ms` (the work itself is done). */
    stallNext(match: RegExp, ms: number, times = 1) {
      stall = { match, ms, times };
    },
    /** Every refund is refused with this error until cleared (null). */
    refuseRefunds(refusal: { code: string; message: string; status: number } | null) {
      refuseRefunds = refusal;
    },
    /** The bills served from now on are the ledger's rows passed through edit (null: as they are). */
    setBillEdit(edit: ((rows: FakeBillRow[]) => FakeBillRow[]) | null) {
      billEdit = edit;
    },
    /** The next bill file served differs from the hash in the signed answer. */
    tamperNextBill() {
      tamperNextBill = true;
    },
    pay,
    payAndNotify,
    paymentNotification,
    deliver,
    signedHeaders,
    finishRefund,
    /** Notifications of the payment itself may be posted again as they were (WeChat resends until 2xx). */
    resend: (note: { url: string; body: string; headers: Record<string, string> }) => deliver(note.url, note.body, note.headers),
  };
}

export type WechatPayFake = ReturnType<typeof createWechatPayFake>;
