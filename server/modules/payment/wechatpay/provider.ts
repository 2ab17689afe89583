// WeChat Pay APIv3 behind the payment provider interface (decision 0036):
// Native pay (code_url, shown as the QR code) for desktop browsers, H5 pay
// (h5_url, the phone browser is sent there) for phones; query and close by
// out_trade_no; the payment and refund notifications, checked with the
// platform public key and decrypted with the APIv3 key; refunds and their
// query. Every call is signed and every answer's signature checked
// (client.ts); a call that fails or times out throws (outcome unknown).
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { NotificationAnswer, PaymentProvider, RefundAnswer, RefundInfo, RefundState, TradeInfo, TradeStatus } from '../provider.ts';
import { type WechatPayClient, type WechatPayKeys, createWechatPayClient } from './client.ts';
import { billHashMatches, parseTradeBill } from './bill.ts';
import { decryptResource, verifyWechatpaySignature } from './crypto.ts';

export const WECHATPAY_PROVIDER = 'wechatpay';

export interface WechatPayProviderOptions {
  keys: WechatPayKeys;
  baseUrl: string;
  timeoutMs: number;
  /** PUBLIC_SITE_URL: WeChat posts to /pay/notify/wechatpay and /pay/refund-notify/wechatpay there. */
  siteUrl: string;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

/** Amount of a WeChat Pay trade or refund (cents, CNY). */
const amountSchema = z.object({ total: z.number().int().positive(), currency: z.string().optional() }).passthrough();

const transactionSchema = z
  .object({
    appid: z.string(),
    mchid: z.string(),
    out_trade_no: z.string().min(1).max(40),
    transaction_id: z.string().max(64).optional(),
    trade_state: z.string(),
    success_time: z.string().optional(),
    amount: amountSchema.optional(),
  })
  .passthrough();

const refundSchema = z
  .object({
    refund_id: z.string().min(1).max(64),
    out_refund_no: z.string().min(1).max(64),
    out_trade_no: z.string().min(1).max(40),
    status: z.enum(['SUCCESS', 'CLOSED', 'PROCESSING', 'ABNORMAL']),
    success_time: z.string().optional(),
    amount: z.object({ total: z.number().int(), refund: z.number().int().positive() }).passthrough(),
  })
  .passthrough();

/** The refund notification's resource: the same refund, its state named refund_status. */
const refundResourceSchema = z
  .object({
    mchid: z.string(),
    out_trade_no: z.string().min(1).max(40),
    out_refund_no: z.string().min(1).max(64),
    refund_id: z.string().min(1).max(64),
    refund_status: z.enum(['SUCCESS', 'CLOSED', 'PROCESSING', 'ABNORMAL']),
    success_time: z.string().optional(),
    amount: z.object({ total: z.number().int(), refund: z.number().int().positive() }).passthrough(),
  })
  .passthrough();

/** The signed answer of GET /v3/bill/tradebill. */
const tradeBillSchema = z.object({ hash_type: z.string(), hash_value: z.string().min(1).max(1024), download_url: z.string().min(1).max(2048) });

const notificationSchema = z.object({
  id: z.string().min(1).max(64),
  event_type: z.string(),
  resource_type: z.string().optional(),
  resource: z.object({
    algorithm: z.string(),
    ciphertext: z.string(),
    associated_data: z.string().optional(),
    nonce: z.string(),
    original_type: z.string().optional(),
  }),
});

/** RFC 3339 in China time, as WeChat Pay writes times (time_expire). */
export function chinaRfc3339(ms: number): string {
  return `${new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19)}+08:00`;
}

function timeOf(value: string | undefined): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * WeChat's trade_state in the interface's three: paid (and maybe refunded
 * since) is SUCCESS; not yet or still paying, or a failed attempt the payer
 * may retry, is NOTPAY; closed or revoked is CLOSED.
 */
export function tradeStatusOf(tradeState: string): TradeStatus {
  if (tradeState === 'SUCCESS' || tradeState === 'REFUND') return 'SUCCESS';
  if (tradeState === 'CLOSED' || tradeState === 'REVOKED') return 'CLOSED';
  return 'NOTPAY';
}

function readId(rawBody: string): string | null {
  try {
    const id = (JSON.parse(rawBody) as { id?: unknown }).id;
    return typeof id === 'string' ? id.slice(0, 64) : null;
  } catch {
    return null;
  }
}

function message(data: Record<string, unknown> | null): string {
  return `${String(data?.code ?? 'UNKNOWN')}: ${String(data?.message ?? '')}`.slice(0, 300);
}

export function createWechatPayProvider(options: WechatPayProviderOptions, client: WechatPayClient = createWechatPayClient(options)): PaymentProvider {
  const { keys, now, log } = options;
  const site = options.siteUrl.replace(/\/+$/, '');
  const platform = { publicKey: keys.platformPublicKey, keyId: keys.platformPublicKeyId };

  function tradeInfo(data: Record<string, unknown>): TradeInfo {
    const trade = transactionSchema.parse(data);
    if (trade.mchid !== keys.mchid || trade.appid !== keys.appid) throw new Error('WeChat Pay answered for another merchant');
    const status = tradeStatusOf(trade.trade_state);
    return {
      out_trade_no: trade.out_trade_no,
      status,
      provider_trade_no: status === 'SUCCESS' ? (trade.transaction_id ?? null) : null,
      amount: trade.amount?.total ?? 0,
      paid_at: status === 'SUCCESS' ? timeOf(trade.success_time) : null,
    };
  }

  function refundInfo(data: Record<string, unknown>): RefundInfo {
    const refund = refundSchema.parse(data);
    return {
      out_refund_no: refund.out_refund_no,
      out_trade_no: refund.out_trade_no,
      provider_refund_no: refund.refund_id,
      status: refund.status,
      amount: refund.amount.refund,
      success_at: refund.status === 'SUCCESS' ? timeOf(refund.success_time) : null,
    };
  }

  async function queryTrade(outTradeNo: string): Promise<TradeInfo | null> {
    const answer = await client.get(`/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${encodeURIComponent(keys.mchid)}`);
    if (answer.status === 404) return null;
    if (answer.status !== 200 || !answer.data) throw new Error(`WeChat Pay refused the query: ${message(answer.data)}`);
    return tradeInfo(answer.data);
  }

  /** The notification's resource, decrypted and read; null when it does not decrypt or read. */
  function resourceOf(rawBody: string): { id: string; event_type: string; resource: Record<string, unknown> } | null {
    try {
      const note = notificationSchema.parse(JSON.parse(rawBody));
      const resource = JSON.parse(decryptResource(keys.apiV3Key, note.resource)) as Record<string, unknown>;
      return { id: note.id, event_type: note.event_type, resource };
    } catch {
      return null;
    }
  }

  return {
    name: WECHATPAY_PROVIDER,

    async createTrade(input) {
      const common = {
        appid: keys.appid,
        mchid: keys.mchid,
        description: input.description.slice(0, 127),
        out_trade_no: input.out_trade_no,
        time_expire: chinaRfc3339(input.expires_at),
        notify_url: `${site}/pay/notify/${WECHATPAY_PROVIDER}`,
        amount: { total: input.amount, currency: 'CNY' },
      };
      if (input.scene === 'phone') {
        const answer = await client.post('/v3/pay/transactions/h5', {
          ...common,
          scene_info: { payer_client_ip: input.client_ip, h5_info: { type: 'Wap' } },
        });
        const h5 = answer.status === 200 ? answer.data?.h5_url : undefined;
        if (typeof h5 !== 'string') throw new Error(`WeChat Pay refused the H5 trade: ${message(answer.data)}`);
        // WeChat sends the payer back to redirect_url once the wallet is done (paid or not).
        return { scene: 'phone', redirect_url: `${h5}${h5.includes('?') ? '&' : '?'}redirect_url=${encodeURIComponent(input.return_url)}` };
      }
      const answer = await client.post('/v3/pay/transactions/native', common);
      const codeUrl = answer.status === 200 ? answer.data?.code_url : undefined;
      if (typeof codeUrl !== 'string') throw new Error(`WeChat Pay refused the Native trade: ${message(answer.data)}`);
      return { scene: 'qr', code_url: codeUrl };
    },

    queryTrade,

    async closeTrade(outTradeNo) {
      const answer = await client.post(`/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, { mchid: keys.mchid });
      if (answer.status !== 204 && answer.status !== 200) {
        // Already paid, unknown, …: WeChat's own state says what happened.
        log.warn({ outTradeNo, answer: message(answer.data) }, 'WeChat Pay did not close the trade');
      }
      const trade = await queryTrade(outTradeNo);
      // Closed just now: WeChat's query may still say NOTPAY for a moment.
      if (trade && trade.status === 'NOTPAY' && (answer.status === 204 || answer.status === 200)) return { ...trade, status: 'CLOSED' };
      return trade;
    },

    parseNotification(rawBody, headers) {
      const check = verifyWechatpaySignature(headers, rawBody, platform, now());
      if (!check.ok) return { ok: false, reason: 'bad_signature', notify_id: readId(rawBody), out_trade_no: null };
      const read = resourceOf(rawBody);
      if (!read) return { ok: false, reason: 'malformed', notify_id: readId(rawBody), out_trade_no: null };
      let trade: TradeInfo;
      try {
        trade = tradeInfo(read.resource);
      } catch {
        return { ok: false, reason: 'malformed', notify_id: read.id, out_trade_no: null };
      }
      return {
        ok: true,
        notification: {
          notify_id: read.id,
          out_trade_no: trade.out_trade_no,
          provider_trade_no: trade.provider_trade_no ?? '',
          trade_state: trade.status,
          amount: trade.amount,
          paid_at: trade.paid_at ?? now(),
        },
      };
    },

    answer(result): NotificationAnswer {
      // Success: 204 with no body; otherwise 4xx/5xx and {code, message} (WeChat resends then).
      return result.success
        ? { status: 204, contentType: 'application/json; charset=utf-8', body: '' }
        : { status: result.status, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ code: 'FAIL', message: result.message }) };
    },

    async refund(input): Promise<RefundAnswer> {
      // The trade's total is part of WeChat's refund request: ask for it first.
      const trade = await queryTrade(input.out_trade_no);
      if (!trade) return { ok: false, code: 'TRADE_NOT_FOUND', message: 'WeChat Pay has no such trade' };
      if (trade.status !== 'SUCCESS') return { ok: false, code: 'TRADE_NOT_PAID', message: `WeChat Pay trade is ${trade.status}` };
      const answer = await client.post('/v3/refund/domestic/refunds', {
        out_trade_no: input.out_trade_no,
        out_refund_no: input.out_refund_no,
        reason: input.reason.slice(0, 80),
        notify_url: `${site}/pay/refund-notify/${WECHATPAY_PROVIDER}`,
        amount: { refund: input.amount, total: trade.amount, currency: 'CNY' },
      });
      if (answer.status === 200 && answer.data) return { ok: true, refund: refundInfo(answer.data) };
      const code = String(answer.data?.code ?? '');
      // Asked again later with the same out_refund_no: WeChat's own advice for these.
      if (code === 'SYSTEM_ERROR' || code === 'FREQUENCY_LIMITED' || answer.status === 429 || answer.status === 401)
        throw new Error(`WeChat Pay could not take the refund now: ${message(answer.data)}`);
      if (code === 'RESOURCE_NOT_EXISTS' || answer.status === 404) return { ok: false, code: 'TRADE_NOT_FOUND', message: message(answer.data) };
      return { ok: false, code: 'INVALID_REQUEST', message: message(answer.data) };
    },

    async queryRefund(outRefundNo) {
      const answer = await client.get(`/v3/refund/domestic/refunds/${encodeURIComponent(outRefundNo)}`);
      if (answer.status === 404) return null;
      if (answer.status !== 200 || !answer.data) throw new Error(`WeChat Pay refused the refund query: ${message(answer.data)}`);
      return refundInfo(answer.data);
    },

    async downloadBill(billDate) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(billDate)) throw new Error(`not a bill date: ${billDate}`);
      const answer = await client.get(`/v3/bill/tradebill?bill_date=${billDate}&bill_type=ALL`);
      // No trade that day: WeChat has no bill for it (400 NO_STATEMENT_EXIST).
      if (answer.status === 400 && answer.data?.code === 'NO_STATEMENT_EXIST') return [];
      // Anything else (STATEMENT_CREATING before ~10:00 the next day, …) is tried again later.
      if (answer.status !== 200 || !answer.data) throw new Error(`WeChat Pay gave no bill for ${billDate}: ${message(answer.data)}`);
      const bill = tradeBillSchema.parse(answer.data);
      const file = await client.download(bill.download_url);
      if (!billHashMatches(file, bill.hash_type, bill.hash_value))
        throw new Error(`WeChat Pay's bill for ${billDate} does not match its ${bill.hash_type} hash: refused`);
      return parseTradeBill(file.toString('utf8'));
    },

    parseRefundNotification(rawBody, headers) {
      const check = verifyWechatpaySignature(headers, rawBody, platform, now());
      if (!check.ok) return { ok: false, reason: 'bad_signature', notify_id: readId(rawBody), out_refund_no: null };
      const read = resourceOf(rawBody);
      const parsed = read ? refundResourceSchema.safeParse(read.resource) : null;
      if (!read || !parsed?.success || parsed.data.mchid !== keys.mchid)
        return { ok: false, reason: 'malformed', notify_id: readId(rawBody), out_refund_no: null };
      const refund = parsed.data;
      return {
        ok: true,
        notification: {
          notify_id: read.id,
          out_refund_no: refund.out_refund_no,
          out_trade_no: refund.out_trade_no,
          provider_refund_no: refund.refund_id,
          refund_status: refund.refund_status satisfies RefundState,
          amount: refund.amount.refund,
          success_at: refund.refund_status === 'SUCCESS' ? timeOf(refund.success_time) : null,
        },
      };
    },
  };
}
