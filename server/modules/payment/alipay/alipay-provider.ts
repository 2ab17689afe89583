// Alipay behind the payment provider interface (OpenAPI v2, RSA2), through
// Alipay's own Node SDK (alipay-sdk, decision 0037): it signs each request
// with the app's private key and checks the signature of each answer (over
// the *_response JSON) with Alipay's public key — or with the certificates in
// certificate mode.
// - Desktop: alipay.trade.precreate answers the qr_code the page shows.
// - Phone: alipay.trade.wap.pay is a page call — no request from us; the
//   browser is sent to the signed gateway URL and Alipay's cashier opens.
// - alipay.trade.query / alipay.trade.close; the asynchronous notification
//   (a form post signed over its sorted parameters but sign and sign_type),
//   answered with the plain text `success` (anything else: Alipay resends).
// - alipay.trade.refund answers synchronously: fund_change Y means the money
//   moved, so the refund is answered SUCCESS at once and the refund worker
//   books it there and then; a repeated request (fund_change N) is confirmed
//   by alipay.trade.fastpay.refund.query. Alipay posts no refund
//   notification of its own.
// A call that times out or whose answer is not Alipay's throws: the outcome
// is unknown, and the caller asks again with the same number.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { AlipaySdk, type AlipaySdkConfig } from 'alipay-sdk';
import type { OpenedTrade, PaidNotification, PaymentProvider, RefundAnswer, RefundInfo, TradeInfo, TradeStatus } from '../provider.ts';
import type { BillLine } from '../bill.ts';
import { parseAlipayBill } from './alipay-bill.ts';
import { cents, chinaTime, parseChinaTime, yuan } from './alipay-format.ts';

export const ALIPAY_PROVIDER = 'alipay';
export const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do';

export interface AlipayKeys {
  appId: string;
  /** The app's private key (PEM, PKCS#1 or PKCS#8, or the bare base64 Alipay's key tool prints). */
  privateKey: string;
  /** Public-key mode: Alipay's public key (PEM or bare base64). */
  alipayPublicKey?: string;
  /** Certificate mode: the three certificates' contents (PEM). */
  certificates?: { appCert: string; alipayPublicCert: string; alipayRootCert: string };
}

export interface AlipayProviderOptions extends AlipayKeys {
  /** Alipay's gateway (the fake's in tests). */
  gateway: string;
  /** Longer than this and the call throws (outcome unknown). */
  timeoutMs: number;
  /** Our notification endpoint, registered with Alipay: PUBLIC_SITE_URL/pay/notify/alipay. */
  notifyUrl: string;
  now: () => number;
  /** The trade a refund of ours belongs to (Alipay's refund query needs both numbers). */
  tradeOfRefund(outRefundNo: string): Promise<string | null>;
}

/** What alipay-sdk answers for one call (camelcase off: Alipay's own field names). */
type AlipayAnswer = Record<string, unknown> & { code?: string; msg?: string; sub_code?: string; sub_msg?: string };

const SUCCESS = '10000';
const BUSINESS_FAILURE = '40004';

/** Alipay's trade states in the interface's (WeChat Pay's) words. */
function tradeStatus(value: unknown): TradeStatus | null {
  switch (value) {
    case 'WAIT_BUYER_PAY':
      return 'NOTPAY';
    case 'TRADE_SUCCESS':
    case 'TRADE_FINISHED':
      return 'SUCCESS';
    case 'TRADE_CLOSED':
      return 'CLOSED';
    default:
      return null;
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** PEM or bare base64 (either PKCS) → a PKCS#8 PEM, the form the SDK is told to expect. */
function privateKeyPem(key: string): string {
  const trimmed = key.trim();
  if (trimmed.startsWith('-----')) return createPrivateKey(trimmed).export({ type: 'pkcs8', format: 'pem' }).toString();
  const der = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64');
  for (const type of ['pkcs8', 'pkcs1'] as const) {
    try {
      return createPrivateKey({ key: der, format: 'der', type }).export({ type: 'pkcs8', format: 'pem' }).toString();
    } catch {
      // the other encoding
    }
  }
  throw new Error('ALIPAY_APP_PRIVATE_KEY is not an RSA private key');
}

function publicKeyPem(key: string): string {
  const trimmed = key.trim();
  if (trimmed.startsWith('-----')) return createPublicKey(trimmed).export({ type: 'spki', format: 'pem' }).toString();
  return createPublicKey({ key: Buffer.from(trimmed.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' })
    .export({ type: 'spki', format: 'pem' })
    .toString();
}

/** An error that says which call and what Alipay answered, never a key or a signature. */
function callError(method: string, answer: AlipayAnswer): Error {
  return new Error(`alipay ${method}: ${answer.code ?? '?'} ${answer.sub_code ?? ''} ${answer.sub_msg ?? answer.msg ?? ''}`.trim());
}

export function createAlipayProvider(options: AlipayProviderOptions) {
  const { appId, now } = options;
  const config: AlipaySdkConfig = {
    appId,
    privateKey: privateKeyPem(options.privateKey),
    keyType: 'PKCS8',
    signType: 'RSA2',
    gateway: options.gateway,
    timeout: options.timeoutMs,
    camelcase: false,
  };
  if (options.certificates) {
    config.appCertContent = options.certificates.appCert;
    config.alipayPublicCertContent = options.certificates.alipayPublicCert;
    config.alipayRootCertContent = options.certificates.alipayRootCert;
  } else if (options.alipayPublicKey) {
    config.alipayPublicKey = publicKeyPem(options.alipayPublicKey);
  } else {
    throw new Error('Alipay needs its public key (ALIPAY_PUBLIC_KEY) or its certificates');
  }
  const sdk = new AlipaySdk(config);

  /**
   * One signed call; the answer's signature must check out. The SDK stamps
   * requests with the server's local time, and Alipay reads the timestamp as
   * China's: it is given here in China's time, whatever the server's zone.
   */
  async function call(method: string, bizContent: Record<string, unknown>, extra: Record<string, string> = {}): Promise<AlipayAnswer> {
    const answer = (await sdk.exec(method, { bizContent, timestamp: chinaTime(now()), ...extra }, { validateSign: true })) as AlipayAnswer;
    if (typeof answer?.code !== 'string') throw new Error(`alipay ${method}: an answer without a code`);
    return answer;
  }

  function tradeInfo(outTradeNo: string, answer: AlipayAnswer): TradeInfo {
    const status = tradeStatus(answer.trade_status);
    const amount = cents(answer.total_amount);
    if (!status || amount === null) throw callError('alipay.trade.query', { ...answer, sub_msg: 'unreadable trade' });
    return {
      out_trade_no: outTradeNo,
      status,
      provider_trade_no: text(answer.trade_no),
      amount,
      paid_at: status === 'SUCCESS' ? (parseChinaTime(answer.send_pay_date) ?? null) : null,
    };
  }

  async function queryTrade(outTradeNo: string): Promise<TradeInfo | null> {
    const answer = await call('alipay.trade.query', { out_trade_no: outTradeNo });
    if (answer.code === BUSINESS_FAILURE && answer.sub_code === 'ACQ.TRADE_NOT_EXIST') return null;
    if (answer.code !== SUCCESS) throw callError('alipay.trade.query', answer);
    return tradeInfo(outTradeNo, answer);
  }

  async function queryRefundOf(outTradeNo: string, outRefundNo: string): Promise<RefundInfo | null> {
    const answer = await call('alipay.trade.fastpay.refund.query', {
      out_trade_no: outTradeNo,
      out_request_no: outRefundNo,
      query_options: ['gmt_refund_pay'],
    });
    if (answer.code === BUSINESS_FAILURE && answer.sub_code === 'ACQ.TRADE_NOT_EXIST') return null;
    if (answer.code !== SUCCESS) throw callError('alipay.trade.fastpay.refund.query', answer);
    // Alipay: no refund_amount / out_request_no in the answer → no such refund (it did not take it).
    const amount = cents(answer.refund_amount);
    if (amount === null || text(answer.out_request_no) === null) return null;
    const done = answer.refund_status === undefined || answer.refund_status === 'REFUND_SUCCESS';
    return {
      out_refund_no: outRefundNo,
      out_trade_no: outTradeNo,
      provider_refund_no: text(answer.trade_no) ?? outRefundNo,
      status: done ? 'SUCCESS' : 'PROCESSING',
      amount,
      success_at: done ? (parseChinaTime(answer.gmt_refund_pay) ?? now()) : null,
    };
  }

  /**
   * The trade bill of one China day: Alipay answers a short-lived URL of a
   * zip (bill.downloadurl.query), fetched at once. No bill for the day
   * (isp.bill_not_exist: nothing moved that day) is an empty bill.
   */
  async function downloadBill(billDate: string): Promise<BillLine[]> {
    const answer = await call('alipay.data.dataservice.bill.downloadurl.query', { bill_type: 'trade', bill_date: billDate });
    if (answer.code === BUSINESS_FAILURE && answer.sub_code === 'isp.bill_not_exist') return [];
    const url = text(answer.bill_download_url);
    if (answer.code !== SUCCESS || !url) throw callError('alipay.data.dataservice.bill.downloadurl.query', answer);
    const response = await fetch(url, { signal: AbortSignal.timeout(Math.max(options.timeoutMs * 6, 30_000)) });
    if (!response.ok) throw new Error(`alipay bill download: HTTP ${response.status}`);
    return parseAlipayBill(Buffer.from(await response.arrayBuffer()));
  }

  const provider: PaymentProvider = {
    name: ALIPAY_PROVIDER,

    async createTrade(input): Promise<OpenedTrade> {
      const bizContent = {
        out_trade_no: input.out_trade_no,
        total_amount: yuan(input.amount),
        subject: input.description,
        // Alipay takes no payment after this (China time).
        time_expire: chinaTime(input.expires_at),
      };
      if (input.scene === 'phone') {
        // A page call: the signed URL itself is the request, made by the payer's browser.
        const redirectUrl = sdk.pageExecute('alipay.trade.wap.pay', 'GET', {
          bizContent: { ...bizContent, product_code: 'QUICK_WAP_WAY', quit_url: input.return_url },
          notify_url: options.notifyUrl,
          return_url: input.return_url,
          timestamp: chinaTime(now()),
        });
        return { scene: 'phone', redirect_url: redirectUrl };
      }
      const answer = await call('alipay.trade.precreate', bizContent, { notify_url: options.notifyUrl });
      const qrCode = text(answer.qr_code);
      if (answer.code !== SUCCESS || !qrCode) throw callError('alipay.trade.precreate', answer);
      return { scene: 'qr', code_url: qrCode };
    },

    queryTrade,

    async closeTrade(outTradeNo) {
      const answer = await call('alipay.trade.close', { out_trade_no: outTradeNo });
      // Not scanned yet (Alipay has no trade until then) or paid meanwhile: the query says which.
      const known =
        answer.code === SUCCESS || (answer.code === BUSINESS_FAILURE && ['ACQ.TRADE_NOT_EXIST', 'ACQ.TRADE_STATUS_ERROR'].includes(answer.sub_code ?? ''));
      if (!known) throw callError('alipay.trade.close', answer);
      return queryTrade(outTradeNo);
    },

    parseNotification(rawBody) {
      const params = Object.fromEntries(new URLSearchParams(rawBody)) as Record<string, string>;
      const unread = { notify_id: text(params.notify_id)?.slice(0, 64) ?? null, out_trade_no: text(params.out_trade_no)?.slice(0, 40) ?? null };
      // Signed by Alipay over every parameter but sign and sign_type, and for our app.
      if (!params.sign || !sdk.checkNotifySignV2(params) || params.app_id !== appId) return { ok: false, reason: 'bad_signature', ...unread };
      const state = tradeStatus(params.trade_status);
      const amount = cents(params.total_amount);
      const paidAt = parseChinaTime(params.gmt_payment) ?? parseChinaTime(params.notify_time);
      if (!unread.notify_id || !unread.out_trade_no || !text(params.trade_no) || !state || amount === null || amount <= 0 || paidAt === null)
        return { ok: false, reason: 'malformed', ...unread };
      const notification: PaidNotification = {
        notify_id: unread.notify_id,
        out_trade_no: unread.out_trade_no,
        provider_trade_no: params.trade_no!,
        trade_state: state,
        amount,
        paid_at: paidAt,
      };
      return { ok: true, notification };
    },

    answer(result) {
      // Alipay reads only the body: `success` stops its resending, anything else is retried.
      return result.success
        ? { status: 200, contentType: 'text/plain; charset=utf-8', body: 'success' }
        : { status: result.status, contentType: 'text/plain; charset=utf-8', body: 'fail' };
    },

    async refund(input): Promise<RefundAnswer> {
      const answer = await call('alipay.trade.refund', {
        out_trade_no: input.out_trade_no,
        refund_amount: yuan(input.amount),
        // Our refund number: the same one again answers the same refund, never a second one.
        out_request_no: input.out_refund_no,
        refund_reason: input.reason.slice(0, 256),
      });
      if (answer.code === SUCCESS) {
        if (answer.fund_change === 'Y') {
          return {
            ok: true,
            refund: {
              out_refund_no: input.out_refund_no,
              out_trade_no: input.out_trade_no,
              provider_refund_no: text(answer.trade_no) ?? input.out_refund_no,
              status: 'SUCCESS',
              amount: input.amount,
              success_at: parseChinaTime(answer.gmt_refund_pay) ?? now(),
            },
          };
        }
        // Asked again (fund_change N): Alipay's refund query says how the first request ended.
        const known = await queryRefundOf(input.out_trade_no, input.out_refund_no);
        if (known) return { ok: true, refund: known };
        return {
          ok: true,
          refund: {
            out_refund_no: input.out_refund_no,
            out_trade_no: input.out_trade_no,
            provider_refund_no: text(answer.trade_no) ?? input.out_refund_no,
            status: 'PROCESSING',
            amount: input.amount,
            success_at: null,
          },
        };
      }
      if (answer.code === BUSINESS_FAILURE) {
        const message = text(answer.sub_msg) ?? text(answer.msg) ?? '支付宝拒绝退款';
        switch (answer.sub_code) {
          case 'ACQ.TRADE_NOT_EXIST':
            return { ok: false, code: 'TRADE_NOT_FOUND', message };
          case 'ACQ.TRADE_STATUS_ERROR':
          case 'ACQ.TRADE_NOT_ALLOW_REFUND':
            return { ok: false, code: 'TRADE_NOT_PAID', message };
          case 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL':
          case 'ACQ.REFUND_AMOUNT_EXCEED':
            return { ok: false, code: 'NOT_ENOUGH', message };
          case 'ACQ.SYSTEM_ERROR':
          case 'ACQ.SELLER_BALANCE_NOT_ENOUGH':
            // Alipay's side, for now: asked again later with the same number.
            throw callError('alipay.trade.refund', answer);
          default:
            return { ok: false, code: 'INVALID_REQUEST', message };
        }
      }
      throw callError('alipay.trade.refund', answer);
    },

    async queryRefund(outRefundNo) {
      const outTradeNo = await options.tradeOfRefund(outRefundNo);
      return outTradeNo ? queryRefundOf(outTradeNo, outRefundNo) : null;
    },

    downloadBill,

    parseRefundNotification(rawBody) {
      // Alipay posts no refund notification (its refunds answer at once); nothing here is one.
      const params = new URLSearchParams(rawBody);
      return {
        ok: false,
        reason: 'malformed',
        notify_id: params.get('notify_id')?.slice(0, 64) ?? null,
        out_refund_no: params.get('out_request_no')?.slice(0, 64) ?? null,
      };
    },
  };

  return { provider, sdk };
}

export type AlipayProvider = ReturnType<typeof createAlipayProvider>;
