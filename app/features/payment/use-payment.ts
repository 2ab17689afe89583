// The payment dialog's conversation with the server: create (or reuse) the
// QR code of a channel, poll payment_query every 2 s while the dialog is
// open and the code is live, ask once more at once on '我已支付' or when the
// code runs out. Everything stops when the dialog closes or unmounts.
// On a phone (scene 'phone') there is no QR code to scan: nothing is created
// until the payer presses the wallet button, then the browser goes to the
// wallet (WeChat H5 / Alipay WAP), which sends it back to the order page.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PaymentCreateResult } from '../../../common/contracts/payment';
import { ErrorCode } from '../../../common/error-codes';
import type { PaymentChannel } from '../../../common/ordering';
import { PAYMENT_LIMITS, type PaymentScene } from '../../../common/payment';
import { ApiError, api } from '../../lib/api-client';
import { verdictOf } from './payment-model';

export type PaymentPhase =
  | { kind: 'choosing' }
  | { kind: 'creating' }
  | { kind: 'redirecting'; payment: PaymentCreateResult }
  | { kind: 'waiting'; payment: PaymentCreateResult }
  | { kind: 'expired'; payment: PaymentCreateResult }
  | { kind: 'paid' }
  | { kind: 'refund'; message: string }
  | { kind: 'stopped'; message: string }
  | { kind: 'failed'; message: string };

/** Answers of payment_create after which there is nothing to pay. */
const STOPPING = new Set<number>([
  ErrorCode.PAYMENT_ORDER_EXPIRED,
  ErrorCode.ORDER_ALREADY_CANCELLED,
  ErrorCode.PAYMENT_ORDER_NOT_PAYABLE,
  ErrorCode.ORDER_NOT_FOUND,
  ErrorCode.PAYMENT_AMOUNT_INVALID,
  ErrorCode.PRICE_DIFFERENCE_NOT_FOUND,
  ErrorCode.PRICE_DIFFERENCE_NOT_OPEN,
  ErrorCode.PRICE_DIFFERENCE_ORDER_NOT_PROCESSING,
]);

/** priceDifferenceId: pay that open price difference (补差价) instead of the order itself. */
export function usePayment(userOrderId: number, open: boolean, priceDifferenceId?: number, scene: PaymentScene = 'qr') {
  const [channel, setChannel] = useState<PaymentChannel>('wechat');
  const [phase, setPhase] = useState<PaymentPhase>({ kind: scene === 'phone' ? 'choosing' : 'creating' });
  const [checking, setChecking] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const controller = useRef<AbortController | null>(null);

  const createPayment = useCallback(
    (abort: AbortController) => {
      setPhase({ kind: 'creating' });
      const payload =
        priceDifferenceId === undefined
          ? { user_order_id: userOrderId, channel, scene }
          : { user_order_id: userOrderId, channel, price_difference_id: priceDifferenceId, scene };
      api('/www/payment/payment_create', payload, { signal: abort.signal, toast: false })
        .then((payment) => {
          if (abort.signal.aborted) return;
          if (payment.scene === 'phone' && payment.redirect_url) {
            // Off to the wallet; it sends the payer back to the order page, which asks for the result.
            setPhase({ kind: 'redirecting', payment });
            window.location.assign(payment.redirect_url);
          } else setPhase({ kind: 'waiting', payment });
        })
        .catch((error: unknown) => {
          if (abort.signal.aborted) return;
          if (error instanceof ApiError && error.ret === ErrorCode.PAYMENT_ORDER_PAID) setPhase({ kind: 'paid' });
          else if (error instanceof ApiError && STOPPING.has(error.ret)) setPhase({ kind: 'stopped', message: error.message });
          else setPhase({ kind: 'failed', message: error instanceof ApiError ? error.message : '请求错误' });
        });
    },
    [userOrderId, channel, priceDifferenceId, scene],
  );

  // A QR code: (re)created when the dialog opens, the channel changes or the code is refreshed.
  useEffect(() => {
    if (!open || scene === 'phone') return;
    const abort = new AbortController();
    controller.current = abort;
    createPayment(abort);
    return () => abort.abort();
  }, [open, scene, createPayment, attempt]);

  /** Phone: open the wallet of the chosen channel (a new trade each time: wallet pages are short-lived). */
  const openWallet = useCallback(() => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    createPayment(abort);
  }, [createPayment]);
  useEffect(() => () => controller.current?.abort(), []);

  const outTradeNo = phase.kind === 'waiting' || phase.kind === 'expired' ? phase.payment.out_trade_no : null;

  /** One payment_query; applies its verdict. Returns whether the order is paid. */
  const check = useCallback(
    async (signal?: AbortSignal): Promise<boolean> => {
      if (!outTradeNo) return false;
      const result = await api('/www/payment/payment_query', { user_order_id: userOrderId, out_trade_no: outTradeNo }, { toast: false, signal });
      if (signal?.aborted) return false;
      const verdict = verdictOf(result);
      if (verdict.kind === 'paid') setPhase({ kind: 'paid' });
      else if (verdict.kind === 'refund' || verdict.kind === 'stopped') setPhase(verdict);
      else if (verdict.closed) setPhase((current) => (current.kind === 'waiting' ? { kind: 'expired', payment: current.payment } : current));
      return verdict.kind === 'paid';
    },
    [userOrderId, outTradeNo],
  );

  // Polling while a live code is shown.
  const waiting = open && phase.kind === 'waiting';
  useEffect(() => {
    if (!waiting) return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      check(abort.signal)
        .catch(() => {}) // a failed poll is simply retried on the next tick
        .finally(() => {
          if (!abort.signal.aborted) timer = setTimeout(tick, PAYMENT_LIMITS.pollIntervalMs);
        });
    };
    timer = setTimeout(tick, PAYMENT_LIMITS.pollIntervalMs);
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [waiting, check]);

  /** '我已支付' (the fallback): ask now. */
  const checkNow = useCallback(async (): Promise<boolean> => {
    setChecking(true);
    try {
      return await check();
    } catch {
      return false;
    } finally {
      setChecking(false);
    }
  }, [check]);

  /** The countdown reached zero: the server closes the code (or finds it paid just in time). */
  const expire = useCallback(() => {
    setPhase((current) => (current.kind === 'waiting' ? { kind: 'expired', payment: current.payment } : current));
    check().catch(() => {});
  }, [check]);

  return {
    channel,
    phase,
    checking,
    openWallet,
    chooseChannel: (next: PaymentChannel) => {
      if (next === channel) return;
      setChannel(next);
      if (scene === 'phone') setPhase({ kind: 'choosing' });
    },
    refresh: () => setAttempt((n) => n + 1),
    checkNow,
    expire,
  };
}
