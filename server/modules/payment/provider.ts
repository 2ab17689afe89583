// What the payment module needs from a payment company (WeChat Pay / Alipay
// style): open a trade and get the URL its QR code encodes, ask how a trade
// stands, close it, and read the company's signed asynchronous notification
// and answer it the way the company expects; and give money back (refund,
// its query and its own signed notification). Several providers live in one
// app (registry.ts): the channel the customer picks (wechat / alipay) names
// the provider new trades go to (PAYMENT_WECHAT_PROVIDER,
// PAYMENT_ALIPAY_PROVIDER; the sandbox by default), and everything after —
// query, close, refunds, notifications — goes to the provider the payment
// was made with (payment.provider).
import type { PaymentChannel } from '../../../common/ordering.ts';
import type { PaymentScene } from '../../../common/payment.ts';
import type { BillDate, BillLine } from './bill.ts';

export type { BillDate, BillLine, PaymentScene };

/** The provider's trade states (WeChat Pay names). */
export type TradeStatus = 'NOTPAY' | 'SUCCESS' | 'CLOSED';

export interface CreateTradeInput {
  /** Our number for the trade (payment.out_trade_no). */
  out_trade_no: string;
  /** cents */
  amount: number;
  channel: PaymentChannel;
  /** What the payer's phone shows. */
  description: string;
  /** After this instant the provider refuses to take the money. */
  expires_at: number;
  /**
   * qr: a desktop browser shows a QR code the payer scans with the phone
   * (WeChat Native, Alipay precreate); phone: the browser is on the phone,
   * so it is sent to the wallet (WeChat H5, Alipay WAP).
   */
  scene: PaymentScene;
  /** The payer's IP address (WeChat H5 requires it: scene_info.payer_client_ip). */
  client_ip: string;
  /** Where the wallet sends the payer back after a phone payment (our order page, which then queries). */
  return_url: string;
}

/**
 * What the payer is shown: the URL its QR code encodes (scene qr), or the
 * wallet's page the browser is sent to (scene phone: WeChat's h5_url, or
 * Alipay's signed WAP gateway URL).
 */
export type OpenedTrade = { scene: 'qr'; code_url: string } | { scene: 'phone'; redirect_url: string };

export interface TradeInfo {
  out_trade_no: string;
  status: TradeStatus;
  /** The provider's own number, once paid. */
  provider_trade_no: string | null;
  /** cents */
  amount: number;
  /** When the money moved (provider's clock), once paid. */
  paid_at: number | null;
}

/** A notification whose signature checked out. */
export interface PaidNotification {
  /** Same id on every resend of one notification. */
  notify_id: string;
  out_trade_no: string;
  provider_trade_no: string;
  trade_state: TradeStatus;
  /** cents */
  amount: number;
  paid_at: number;
}

export type ParsedNotification =
  | { ok: true; notification: PaidNotification }
  | {
      ok: false;
      /** bad_signature: not from the provider (or replayed too late); malformed: signed but unreadable. */
      reason: 'bad_signature' | 'malformed';
      /** Whatever could be read, for the record only (never trusted). */
      notify_id: string | null;
      out_trade_no: string | null;
    };

/** The HTTP answer the provider expects to a notification. */
export interface NotificationAnswer {
  status: number;
  contentType: string;
  body: string;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

// ── Refunds (issue 11, WeChat Pay v3 style) ───────────────────────────────

/** The provider's refund states (WeChat Pay names): accepted and on its way, arrived, stuck (money cannot reach the payer), closed. */
export type RefundState = 'PROCESSING' | 'SUCCESS' | 'ABNORMAL' | 'CLOSED';

export interface RefundInput {
  /** Our number for the refund (refund.out_refund_no): asking again with it answers the same refund. */
  out_refund_no: string;
  /** The trade it gives back. */
  out_trade_no: string;
  /** cents; with the trade's other refunds, never more than the trade paid */
  amount: number;
  /** What the payer's statement shows. */
  reason: string;
}

export interface RefundInfo {
  out_refund_no: string;
  out_trade_no: string;
  provider_refund_no: string;
  status: RefundState;
  /** cents */
  amount: number;
  /** When the money reached the payer, once SUCCESS. */
  success_at: number | null;
}

/**
 * The provider's answer to a refund request: accepted (usually PROCESSING), or
 * refused for good — the trade is unknown or unpaid, or the amount is more
 * than what remains of it, or the same number was used for another refund.
 * A provider that cannot be reached throws (the outcome is unknown: ask again
 * with the same out_refund_no).
 */
export type RefundAnswer =
  { ok: true; refund: RefundInfo } | { ok: false; code: 'TRADE_NOT_FOUND' | 'TRADE_NOT_PAID' | 'NOT_ENOUGH' | 'INVALID_REQUEST'; message: string };

/** A refund notification whose signature checked out. */
export interface RefundNotification {
  /** Same id on every resend of one notification. */
  notify_id: string;
  out_refund_no: string;
  out_trade_no: string;
  provider_refund_no: string;
  refund_status: RefundState;
  /** cents */
  amount: number;
  success_at: number | null;
}

export type ParsedRefundNotification =
  { ok: true; notification: RefundNotification } | { ok: false; reason: 'bad_signature' | 'malformed'; notify_id: string | null; out_refund_no: string | null };

export interface PaymentProvider {
  /** Stored in payment.provider and used in the notification paths /pay/notify/{name} and /pay/refund-notify/{name}. */
  readonly name: string;
  createTrade(input: CreateTradeInput): Promise<OpenedTrade>;
  /** null when the provider has no such trade. */
  queryTrade(outTradeNo: string): Promise<TradeInfo | null>;
  /**
   * Closes an unpaid trade so it can no longer be paid. A trade that was paid
   * meanwhile stays paid: the answer then says SUCCESS, and the caller must
   * book the money.
   */
  closeTrade(outTradeNo: string): Promise<TradeInfo | null>;
  parseNotification(rawBody: string, headers: HeaderBag): ParsedNotification | Promise<ParsedNotification>;
  /** success: the provider stops resending; otherwise it retries later. */
  answer(result: { success: true } | { success: false; status: 400 | 401 | 404 | 500; message: string }): NotificationAnswer;
  /**
   * Asks the provider to give money of a paid trade back (see RefundAnswer).
   * Idempotent by out_refund_no. A provider that refunds at once (Alipay)
   * answers the refund as SUCCESS and the worker books it there and then.
   */
  refund(input: RefundInput): Promise<RefundAnswer>;
  /** null when the provider has no such refund. */
  queryRefund(outRefundNo: string): Promise<RefundInfo | null>;
  /** The signed asynchronous refund notification (posted to /pay/refund-notify/{name}); answered with answer(). */
  parseRefundNotification(rawBody: string, headers: HeaderBag): ParsedRefundNotification | Promise<ParsedRefundNotification>;
  /** Stops timers and notifications under way (app close); optional. */
  close?(): Promise<void>;
  /**
   * The company's bill of one China day (BillDate yyyy-MM-dd, 00:00–24:00 China time), for the
   * daily reconciliation (server/modules/reconciliation, decision 0038): one normalised line per
   * payment taken and per refund given back that day — our numbers (out_trade_no, and
   * out_refund_no for a refund), the company's numbers, the amount in cents (positive for both
   * kinds) and when the money moved. A day on which nothing moved is an empty list (WeChat Pay's
   * NO_STATEMENT_EXIST, Alipay's isp.bill_not_exist); a bill not ready yet or a company not
   * reachable throws (the run is tried again later). Optional: a provider without it is left out
   * of the reconciliation.
   */
  downloadBill?(billDate: BillDate): Promise<BillLine[]>;
}
