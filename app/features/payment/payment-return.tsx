// Back from the phone's wallet (decision 0036): the wallet sends the payer to
// /order/order-detail/{id}?pay={out_trade_no}. This asks payment_query about
// that payment — which asks the payment company itself while our payment is
// still pending, so a late or lost notification does not matter — every 2 s
// for a while, and says what it found; once paid the page reloads its order.
import { Alert } from 'antd';
import { useEffect, useEffectEvent, useState } from 'react';
import { PAYMENT_LIMITS } from '../../../common/payment';
import { ApiError, api } from '../../lib/api-client';
import { verdictOf } from './payment-model';

/** How many times the result is asked before the page says it is not known yet. */
const MAX_ASKS = 15;

type ReturnState = { kind: 'checking' } | { kind: 'paid' } | { kind: 'unknown' } | { kind: 'closed'; message: string } | { kind: 'failed'; message: string };

export function PaymentReturn({ userOrderId, outTradeNo, onPaid }: { userOrderId: number; outTradeNo: string; onPaid: () => void }) {
  const [state, setState] = useState<ReturnState>({ kind: 'checking' });
  const paid = useEffectEvent(onPaid);

  useEffect(() => {
    const abort = new AbortController();
    let asks = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      asks += 1;
      try {
        const result = await api(
          '/www/payment/payment_query',
          { user_order_id: userOrderId, out_trade_no: outTradeNo },
          { toast: false, signal: abort.signal },
        );
        if (abort.signal.aborted) return;
        const verdict = verdictOf(result);
        if (verdict.kind === 'paid') {
          setState({ kind: 'paid' });
          paid();
          return;
        }
        if (verdict.kind === 'refund' || verdict.kind === 'stopped') {
          setState({ kind: 'closed', message: verdict.message });
          return;
        }
      } catch (error) {
        if (abort.signal.aborted) return;
        if (error instanceof ApiError) {
          setState({ kind: 'failed', message: error.message });
          return;
        }
      }
      if (asks >= MAX_ASKS) setState({ kind: 'unknown' });
      else timer = setTimeout(() => void ask(), PAYMENT_LIMITS.pollIntervalMs);
    };
    void ask();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [userOrderId, outTradeNo]);

  const shown: Record<ReturnState['kind'], { type: 'info' | 'success' | 'warning' | 'error'; text: string }> = {
    checking: { type: 'info', text: '正在确认支付结果…' },
    paid: { type: 'success', text: '支付成功' },
    unknown: { type: 'warning', text: '暂未查询到支付结果。如已付款，请稍后刷新本页；未付款可重新支付' },
    closed: { type: 'warning', text: state.kind === 'closed' ? state.message : '' },
    failed: { type: 'error', text: state.kind === 'failed' ? state.message : '' },
  };
  const { type, text } = shown[state.kind];
  return <Alert className="pay-return" type={type} showIcon title={text} data-testid={`pay-return-${state.kind}`} />;
}
