// The sandbox payment provider: plays a payment company at
// PUBLIC_SITE_URL/sandbox/… so every payment path runs here without a
// merchant account. createTrade opens a trade in its ledger and hands back
// the pay page's URL for the QR code (or, for a phone browser, the same
// page as the "wallet" it is sent to, with the way back to our order page);
// "paying" on that page (confirm) marks
// the trade paid and sends the signed asynchronous notification; queryTrade
// and closeTrade read and change the ledger (the company's query and close
// calls, as plain function calls). refund takes a refund of a paid trade
// (PROCESSING; it succeeds after PAYMENT_SANDBOX_NOTIFY_DELAY_MS, then the
// signed refund notification goes out, resent like the payment's), and
// queryRefund tells how a refund stands.
import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { chinaDate } from '../../../common/order.ts';
import type { Database } from '../../db/schema.ts';
import type { PaymentProvider, RefundState, TradeInfo } from './provider.ts';
import { createSandboxLedger, refundInfo, type SandboxTrade } from './sandbox-ledger.ts';
import { createSandboxNotifier, type NotifyTransport } from './sandbox-notifier.ts';
import { verifySandboxSignature } from './sandbox-signature.ts';
import { sandboxBill } from './sandbox-bill.ts';

export const SANDBOX_PROVIDER = 'sandbox';

export interface SandboxProviderOptions {
  db: Kysely<Database>;
  secret: string;
  /** PUBLIC_SITE_URL: where both the sandbox's pages and our notification endpoint live. */
  siteUrl: string;
  notifyDelayMs: number;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  transport?: NotifyTransport;
  retryDelaysMs?: readonly number[];
}

export type ConfirmOutcome = { ok: true; alreadyPaid: boolean } | { ok: false; reason: 'not_found' | 'expired' | 'closed' };

const notificationSchema = z.object({
  notify_id: z.string().min(1).max(64),
  out_trade_no: z.string().min(1).max(40),
  provider_trade_no: z.string().min(1).max(64),
  trade_state: z.enum(['NOTPAY', 'SUCCESS', 'CLOSED']),
  amount: z.number().int().positive(),
  paid_at: z.number().int().positive(),
});

const refundNotificationSchema = z.object({
  notify_id: z.string().min(1).max(64),
  out_refund_no: z.string().min(1).max(64),
  out_trade_no: z.string().min(1).max(40),
  provider_refund_no: z.string().min(1).max(64),
  refund_status: z.enum(['PROCESSING', 'SUCCESS', 'ABNORMAL', 'CLOSED'] satisfies [RefundState, ...RefundState[]]),
  amount: z.number().int().positive(),
  success_at: z.number().int().positive().nullable(),
});

function tradeInfo(trade: SandboxTrade): TradeInfo {
  return { out_trade_no: trade.out_trade_no, status: trade.state, provider_trade_no: trade.provider_trade_no, amount: trade.amount, paid_at: trade.paid_at };
}

/** 28 digits like a WeChat Pay transaction id: channel prefix, China date, random digits. */
function newProviderTradeNo(channel: string, at: number): string {
  const digits = Array.from({ length: 16 }, () => randomInt(10)).join('');
  return `${channel === 'alipay' ? '2088' : '4200'}${chinaDate(at).replaceAll('-', '')}${digits}`;
}

/** 30 digits like a WeChat Pay refund id. */
function newProviderRefundNo(at: number): string {
  const digits = Array.from({ length: 16 }, () => randomInt(10)).join('');
  return `5030${chinaDate(at).replaceAll('-', '')}${digits}${randomInt(10)}${randomInt(10)}`;
}

function readField(rawBody: string, field: 'notify_id' | 'out_trade_no' | 'out_refund_no'): string | null {
  try {
    const value = (JSON.parse(rawBody) as Record<string, unknown>)[field];
    return typeof value === 'string' ? value.slice(0, 64) : null;
  } catch {
    return null;
  }
}

export function createSandboxProvider(options: SandboxProviderOptions) {
  const { db, secret, now } = options;
  const site = options.siteUrl.replace(/\/+$/, '');
  const ledger = createSandboxLedger(db);
  const notifier = createSandboxNotifier({
    ledger,
    secret,
    notifyUrl: `${site}/pay/notify/${SANDBOX_PROVIDER}`,
    refundNotifyUrl: `${site}/pay/refund-notify/${SANDBOX_PROVIDER}`,
    firstDelayMs: options.notifyDelayMs,
    now,
    log: options.log,
    transport: options.transport,
    retryDelaysMs: options.retryDelaysMs,
  });

  const provider: PaymentProvider = {
    name: SANDBOX_PROVIDER,

    async createTrade(input) {
      await ledger.open({
        out_trade_no: input.out_trade_no,
        amount: input.amount,
        channel: input.channel,
        description: input.description,
        expires_at: input.expires_at,
        created_at: now(),
      });
      const page = `${site}/sandbox/pay/${encodeURIComponent(input.out_trade_no)}`;
      return input.scene === 'phone'
        ? { scene: 'phone', redirect_url: `${page}?return=${encodeURIComponent(input.return_url)}` }
        : { scene: 'qr', code_url: page };
    },

    async queryTrade(outTradeNo) {
      const trade = await ledger.find(outTradeNo);
      return trade ? tradeInfo(trade) : null;
    },

    async closeTrade(outTradeNo) {
      await ledger.close(outTradeNo, now());
      const trade = await ledger.find(outTradeNo);
      return trade ? tradeInfo(trade) : null;
    },

    parseNotification(rawBody, headers) {
      if (!verifySandboxSignature(secret, rawBody, headers, now())) {
        return { ok: false, reason: 'bad_signature', notify_id: readField(rawBody, 'notify_id'), out_trade_no: readField(rawBody, 'out_trade_no') };
      }
      let parsed: ReturnType<typeof notificationSchema.safeParse>;
      try {
        parsed = notificationSchema.safeParse(JSON.parse(rawBody));
      } catch {
        return { ok: false, reason: 'malformed', notify_id: null, out_trade_no: null };
      }
      if (!parsed.success)
        return { ok: false, reason: 'malformed', notify_id: readField(rawBody, 'notify_id'), out_trade_no: readField(rawBody, 'out_trade_no') };
      return { ok: true, notification: parsed.data };
    },

    async refund(input) {
      const at = now();
      const answer = await ledger.refund(input, {
        at,
        succeeds_at: at + options.notifyDelayMs,
        provider_refund_no: newProviderRefundNo(at),
        notify_id: randomUUID(),
      });
      // A new refund: announced once it has arrived. (Asked again: its notification is already on its way.)
      if (answer.ok && answer.created) notifier.startRefund(input.out_refund_no, options.notifyDelayMs);
      return answer.ok ? { ok: true, refund: answer.refund } : answer;
    },

    async queryRefund(outRefundNo) {
      const refund = await ledger.findRefund(outRefundNo, now());
      return refund ? refundInfo(refund) : null;
    },

    parseRefundNotification(rawBody, headers) {
      const unread = () => ({ notify_id: readField(rawBody, 'notify_id'), out_refund_no: readField(rawBody, 'out_refund_no') });
      if (!verifySandboxSignature(secret, rawBody, headers, now())) return { ok: false, reason: 'bad_signature', ...unread() };
      let parsed: ReturnType<typeof refundNotificationSchema.safeParse>;
      try {
        parsed = refundNotificationSchema.safeParse(JSON.parse(rawBody));
      } catch {
        return { ok: false, reason: 'malformed', notify_id: null, out_refund_no: null };
      }
      if (!parsed.success) return { ok: false, reason: 'malformed', ...unread() };
      return { ok: true, notification: parsed.data };
    },

    // Its bill: what its ledger says moved that day (the daily reconciliation runs in development too).
    downloadBill: (billDate) => sandboxBill(db, billDate),

    answer(result) {
      return result.success
        ? { status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ code: 'SUCCESS', message: '成功' }) }
        : { status: result.status, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ code: 'FAIL', message: result.message }) };
    },
  };

  return {
    provider,
    ledger,
    notifier,

    /**
     * The phone "wallet"'s way back: only a page of our own site (the pay
     * page must not send a payer anywhere a crafted link says).
     */
    returnUrl(value: unknown): string | null {
      if (typeof value !== 'string' || value.length > 500) return null;
      try {
        const url = new URL(value);
        return url.origin === new URL(site).origin && url.pathname.startsWith('/order/order-detail/') ? url.toString() : null;
      } catch {
        return null;
      }
    },

    /**
     * The payer presses 确认支付 on the pay page. Idempotent: a paid trade
     * stays paid (and its notification is started again only if it never
     * got through); an expired or closed trade is refused.
     */
    async confirm(outTradeNo: string): Promise<ConfirmOutcome> {
      const at = now();
      const trade = await ledger.find(outTradeNo);
      if (!trade) return { ok: false, reason: 'not_found' };
      if (trade.state === 'NOTPAY') {
        const paid = await ledger.pay(outTradeNo, { at, provider_trade_no: newProviderTradeNo(trade.channel, at), notify_id: randomUUID() });
        if (paid) {
          notifier.start(outTradeNo);
          return { ok: true, alreadyPaid: false };
        }
      }
      const current = (await ledger.find(outTradeNo))!;
      if (current.state === 'SUCCESS') {
        if (current.notify_status === 'failed') notifier.start(outTradeNo);
        return { ok: true, alreadyPaid: true };
      }
      return { ok: false, reason: current.state === 'CLOSED' ? 'closed' : 'expired' };
    },

    /** Stops the notifications; resolves once those under way have finished. */
    close(): Promise<void> {
      return notifier.close();
    },
  };
}

export type SandboxProvider = ReturnType<typeof createSandboxProvider>;
