// The sandbox's outgoing notifications: after a trade is paid it POSTs a
// signed JSON notification to the merchant (us) at
// PUBLIC_SITE_URL/pay/notify/sandbox, and resends it with growing delays
// until the merchant answers success — a few tries, like the real companies
// (which go on for hours); our query fallback and reconciliation sweep cover
// whatever is still missing after that. Every sending is signed anew (new
// timestamp and nonce) but carries the same notify_id and body fields.
// Refunds are announced the same way, to PUBLIC_SITE_URL/pay/refund-notify/sandbox,
// once the refund has succeeded (the sandbox's "bank" takes the configured delay).
import type { FastifyBaseLogger } from 'fastify';
import type { SandboxLedger, SandboxRefund, SandboxTrade } from './sandbox-ledger.ts';
import { signedSandboxHeaders } from './sandbox-signature.ts';

/** Sends one HTTP POST; the sandbox's network. Tests swap it for app.inject. */
export type NotifyTransport = (url: string, body: string, headers: Record<string, string>) => Promise<{ status: number; body: string }>;

/** Waits before the 2nd, 3rd … sending, after the first (which waits PAYMENT_SANDBOX_NOTIFY_DELAY_MS). */
export const SANDBOX_RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000] as const;
const SEND_TIMEOUT_MS = 5_000;

export const fetchTransport: NotifyTransport = async (url, body, headers) => {
  const response = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(SEND_TIMEOUT_MS), redirect: 'manual' });
  return { status: response.status, body: await response.text() };
};

/** The notification's body, as the merchant receives it. */
export function sandboxNotificationBody(trade: SandboxTrade): string {
  return JSON.stringify({
    notify_id: trade.notify_id,
    event_type: 'TRANSACTION.SUCCESS',
    out_trade_no: trade.out_trade_no,
    provider_trade_no: trade.provider_trade_no,
    trade_state: trade.state,
    channel: trade.channel,
    amount: trade.amount,
    currency: 'CNY',
    paid_at: trade.paid_at,
    description: trade.description,
  });
}

/** A refund notification's body (WeChat Pay's REFUND.SUCCESS, decrypted). */
export function sandboxRefundNotificationBody(refund: SandboxRefund): string {
  return JSON.stringify({
    notify_id: refund.notify_id,
    event_type: 'REFUND.SUCCESS',
    out_refund_no: refund.out_refund_no,
    out_trade_no: refund.out_trade_no,
    provider_refund_no: refund.provider_refund_no,
    refund_status: refund.state,
    amount: refund.amount,
    currency: 'CNY',
    success_at: refund.success_at,
  });
}

/** Success = a 2xx answer whose JSON code, when there is one, is SUCCESS (WeChat Pay v3 accepts 200/204). */
function accepted(answer: { status: number; body: string }): boolean {
  if (answer.status < 200 || answer.status > 299) return false;
  if (answer.body.trim() === '') return true;
  try {
    return (JSON.parse(answer.body) as { code?: unknown }).code === 'SUCCESS';
  } catch {
    return false;
  }
}

export interface SandboxNotifierOptions {
  ledger: SandboxLedger;
  secret: string;
  notifyUrl: string;
  /** Where refund notifications go (…/pay/refund-notify/sandbox). */
  refundNotifyUrl: string;
  firstDelayMs: number;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  transport?: NotifyTransport;
  /** Defaults to SANDBOX_RETRY_DELAYS_MS (tests shorten it). */
  retryDelaysMs?: readonly number[];
}

export function createSandboxNotifier(options: SandboxNotifierOptions) {
  const { ledger, secret, notifyUrl, now, log } = options;
  let transport = options.transport ?? fetchTransport;
  const retryDelays = options.retryDelaysMs ?? SANDBOX_RETRY_DELAYS_MS;
  const timers = new Set<NodeJS.Timeout>();
  /** Sendings under way (their timer fired): close() waits for them. */
  const sending = new Set<Promise<void>>();
  let closed = false;

  function track(work: Promise<void>): void {
    sending.add(work);
    void work.finally(() => sending.delete(work));
  }

  /** Sends the notification once; true when the merchant answered success. */
  async function sendOnce(outTradeNo: string, onFailure: 'pending' | 'failed' | 'keep'): Promise<boolean> {
    const trade = await ledger.find(outTradeNo);
    if (!trade || trade.state !== 'SUCCESS') return true; // nothing (left) to announce
    const body = sandboxNotificationBody(trade);
    let delivered = false;
    try {
      const answer = await transport(notifyUrl, body, signedSandboxHeaders(secret, body, now()));
      delivered = accepted(answer);
      if (!delivered) log.warn({ outTradeNo, status: answer.status, answer: answer.body.slice(0, 200) }, 'sandbox notification refused');
    } catch (error) {
      log.warn({ err: error, outTradeNo }, 'sandbox notification not delivered');
    }
    await ledger.recordNotifyAttempt(outTradeNo, { delivered, at: now(), onFailure });
    return delivered;
  }

  function schedule(outTradeNo: string, attempt: number, delayMs: number): void {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const final = attempt >= retryDelays.length;
      track(
        sendOnce(outTradeNo, final ? 'failed' : 'pending')
          .then((delivered) => {
            if (!delivered && !final) schedule(outTradeNo, attempt + 1, retryDelays[attempt]!);
          })
          .catch((error: unknown) => log.warn({ err: error, outTradeNo }, 'sandbox notification failed')),
      );
    }, delayMs);
    timer.unref();
    timers.add(timer);
  }

  /** Sends a refund's notification once; true when the merchant answered success. */
  async function sendRefundOnce(outRefundNo: string, onFailure: 'pending' | 'failed' | 'keep'): Promise<boolean> {
    const refund = await ledger.findRefund(outRefundNo, now());
    if (!refund) return true;
    // Not arrived yet (the bank's delay is not over): a later sending announces it.
    if (refund.state !== 'SUCCESS') return false;
    const body = sandboxRefundNotificationBody(refund);
    let delivered = false;
    try {
      const answer = await transport(options.refundNotifyUrl, body, signedSandboxHeaders(secret, body, now()));
      delivered = accepted(answer);
      if (!delivered) log.warn({ outRefundNo, status: answer.status, answer: answer.body.slice(0, 200) }, 'sandbox refund notification refused');
    } catch (error) {
      log.warn({ err: error, outRefundNo }, 'sandbox refund notification not delivered');
    }
    await ledger.recordRefundNotifyAttempt(outRefundNo, { delivered, at: now(), onFailure });
    return delivered;
  }

  function scheduleRefund(outRefundNo: string, attempt: number, delayMs: number): void {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const final = attempt >= retryDelays.length;
      track(
        sendRefundOnce(outRefundNo, final ? 'failed' : 'pending')
          .then((delivered) => {
            if (!delivered && !final) scheduleRefund(outRefundNo, attempt + 1, retryDelays[attempt]!);
          })
          .catch((error: unknown) => log.warn({ err: error, outRefundNo }, 'sandbox refund notification failed')),
      );
    }, delayMs);
    timer.unref();
    timers.add(timer);
  }

  return {
    /** Starts the notification of a refund the ledger just took: first sending once it has arrived (after delayMs). */
    startRefund(outRefundNo: string, delayMs: number): void {
      scheduleRefund(outRefundNo, 0, delayMs);
    },
    /** The same refund notification `copies` times at once, now (the duplicate a real provider may send). */
    async resendRefund(outRefundNo: string, copies: number): Promise<boolean[]> {
      return Promise.all(Array.from({ length: copies }, () => sendRefundOnce(outRefundNo, 'keep')));
    },
    /** Starts the notification of a freshly paid trade (first sending after the configured delay). */
    start(outTradeNo: string): void {
      schedule(outTradeNo, 0, options.firstDelayMs);
    },
    /** The pay page's "模拟重复通知": the same notification `copies` times at once, now. */
    async resend(outTradeNo: string, copies: number): Promise<boolean[]> {
      return Promise.all(Array.from({ length: copies }, () => sendOnce(outTradeNo, 'keep')));
    },
    setTransport(next: NotifyTransport): void {
      transport = next;
    },
    /** Stops every pending sending (app shutdown); resolves once those under way have finished. */
    async close(): Promise<void> {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(sending);
    },
  };
}

export type SandboxNotifier = ReturnType<typeof createSandboxNotifier>;
