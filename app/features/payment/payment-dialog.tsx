// The payment dialog: choose 微信支付 or 支付宝, scan the QR code, and the
// dialog notices the payment by itself (polling every 2 s) or when asked
// ('我已支付'), shows the success and moves on (onPaid). An expired code can be
// refreshed. On a phone (narrow screen or a phone's browser) there is no QR
// code: the button opens the chosen wallet (WeChat Pay H5 / Alipay WAP), which
// brings the payer back to the order page (payment-return.tsx asks for the
// result there). Rules: docs/order-rules.md, "Payment"; decision 0036.
import { AlipayCircleFilled, CheckCircleFilled, ClockCircleOutlined, ExclamationCircleFilled, ReloadOutlined, WechatFilled } from '@ant-design/icons';
import { Button, Spin } from 'antd';
import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import { PAYMENT_CHANNELS, type PaymentChannel } from '../../../common/ordering';
import { type PaymentScene, formatPayAmount, sceneOfUserAgent } from '../../../common/payment';
import { AppDialog } from '../../components/app-dialog';
import { toast } from '../../lib/toast';
import { CHANNEL_HINTS, countdownText } from './payment-model';
import { usePayment } from './use-payment';
import './payment-dialog.css';

export interface PaymentDialogProps {
  userOrderId: number;
  /** The readable order number shown to the customer (calls take userOrderId). */
  orderNo: string;
  /** cents: what the order costs, shown until the payment itself says. */
  amount: number;
  open: boolean;
  onClose: () => void;
  onPaid: () => void;
  /** Pay this open price difference (补差价) of a processing order instead of the order itself. */
  priceDifferenceId?: number;
}

/** Phone or desktop: a narrow screen or a phone's browser cannot scan its own QR code. */
function detectScene(): PaymentScene {
  if (typeof window === 'undefined') return 'qr';
  const narrow = typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 767px)').matches;
  return narrow || sceneOfUserAgent(window.navigator.userAgent) === 'phone' ? 'phone' : 'qr';
}

/** How long the success is shown before the dialog moves on. */
const SUCCESS_PAUSE_MS = 1_500;

const CHANNEL_ICONS: Record<PaymentChannel, ReactNode> = {
  wechat: <WechatFilled />,
  alipay: <AlipayCircleFilled />,
};

/** The time, every second, only while a countdown is shown (null before the first tick). */
function useClock(active: boolean): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function ChannelPicker({ value, onChange, disabled }: { value: PaymentChannel; onChange: (channel: PaymentChannel) => void; disabled: boolean }) {
  return (
    <div className="pay-channels" role="radiogroup" aria-label="支付方式">
      {(Object.keys(PAYMENT_CHANNELS) as PaymentChannel[]).map((channel) => (
        <button
          key={channel}
          type="button"
          role="radio"
          aria-checked={value === channel}
          disabled={disabled}
          className={`pay-channel pay-channel-${channel}${value === channel ? ' is-active' : ''}`}
          onClick={() => onChange(channel)}
          data-testid={`pay-channel-${channel}`}
        >
          <span className="pay-channel-icon">{CHANNEL_ICONS[channel]}</span>
          {PAYMENT_CHANNELS[channel]}
        </button>
      ))}
    </div>
  );
}

function Outcome({ icon, tone, title, text, action }: { icon: ReactNode; tone: 'success' | 'warning'; title: string; text: string; action?: ReactNode }) {
  return (
    <div className={`pay-outcome pay-outcome-${tone}`} data-testid={`pay-outcome-${tone}`}>
      <div className="pay-outcome-icon">{icon}</div>
      <div className="pay-outcome-title">{title}</div>
      <div className="pay-outcome-text">{text}</div>
      {action}
    </div>
  );
}

export function PaymentDialog({ userOrderId, orderNo, amount, open, onClose, onPaid, priceDifferenceId }: PaymentDialogProps) {
  const [scene] = useState(detectScene);
  const { channel, phase, checking, chooseChannel, refresh, checkNow, expire, openWallet } = usePayment(userOrderId, open, priceDifferenceId, scene);
  const payment = phase.kind === 'waiting' || phase.kind === 'expired' ? phase.payment : null;
  const now = useClock(open && payment !== null);
  const movedOn = useRef(false);
  const moveOn = useEffectEvent(() => onPaid());

  // Paid: show it, then move on (once).
  const paid = open && phase.kind === 'paid';
  useEffect(() => {
    if (!paid) {
      movedOn.current = false;
      return;
    }
    if (movedOn.current) return;
    const timer = setTimeout(() => {
      movedOn.current = true;
      moveOn();
    }, SUCCESS_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [paid]);

  const msLeft = payment && now !== null ? payment.expires_at - now : null;
  const timeUp = phase.kind === 'waiting' && msLeft !== null && msLeft <= 0;
  useEffect(() => {
    if (timeUp) expire();
  }, [timeUp, expire]);

  const onChecked = async () => {
    const done = await checkNow();
    if (!done) toast.warning('暂未查询到支付结果，如已付款请稍候片刻');
  };

  let body: ReactNode;
  if (phase.kind === 'paid') {
    body = (
      <Outcome
        icon={<CheckCircleFilled />}
        tone="success"
        title="支付成功"
        text={priceDifferenceId === undefined ? '订单已进入资料审核，正在为您跳转…' : '补差价已支付，正在刷新订单…'}
      />
    );
  } else if (phase.kind === 'refund' || phase.kind === 'stopped') {
    body = (
      <Outcome
        icon={<ExclamationCircleFilled />}
        tone="warning"
        title={phase.kind === 'refund' ? '款项将原路退回' : '无法支付'}
        text={phase.message}
        action={
          <Button onClick={onClose} className="pay-outcome-action">
            我知道了
          </Button>
        }
      />
    );
  } else if (scene === 'phone' && phase.kind !== 'waiting' && phase.kind !== 'expired') {
    const busy = phase.kind === 'creating' || phase.kind === 'redirecting';
    body = (
      <div className="pay-body pay-body-phone" data-testid="pay-phone">
        <div className="pay-amount-label">应付金额</div>
        <div className="pay-amount" data-testid="pay-amount">
          {formatPayAmount(amount)}
        </div>
        <ChannelPicker value={channel} onChange={chooseChannel} disabled={busy} />
        <div className="pay-wallet-text">
          {phase.kind === 'failed' ? (
            <span className="pay-wallet-error">{phase.message}</span>
          ) : (
            `将打开${PAYMENT_CHANNELS[channel]}完成付款，付款后自动返回本订单查看结果`
          )}
        </div>
        <Button type="primary" block size="large" loading={busy} onClick={openWallet} data-testid="pay-open-wallet">
          {phase.kind === 'redirecting' ? `正在打开${PAYMENT_CHANNELS[channel]}…` : `打开${PAYMENT_CHANNELS[channel]}付款`}
        </Button>
      </div>
    );
  } else {
    const shownAmount = payment?.amount ?? amount;
    const expired = phase.kind === 'expired';
    body = (
      <div className="pay-body">
        <div className="pay-amount-label">应付金额</div>
        <div className="pay-amount" data-testid="pay-amount">
          {formatPayAmount(shownAmount)}
        </div>
        <ChannelPicker value={channel} onChange={chooseChannel} disabled={phase.kind === 'creating'} />
        <div className={`pay-qr pay-qr-${channel}`}>
          {phase.kind === 'failed' ? (
            <div className="pay-qr-cover">
              <span>{phase.message}</span>
              <Button size="small" icon={<ReloadOutlined />} onClick={refresh}>
                重试
              </Button>
            </div>
          ) : payment ? (
            <>
              <img src={payment.qrcode ?? undefined} alt={`${payment.channel_label}付款二维码`} width={200} height={200} data-testid="pay-qrcode" />
              {expired && (
                <div className="pay-qr-cover" data-testid="pay-qr-expired">
                  <span>二维码已过期</span>
                  <Button type="primary" size="small" icon={<ReloadOutlined />} onClick={refresh}>
                    刷新二维码
                  </Button>
                </div>
              )}
            </>
          ) : (
            <Spin description="正在生成二维码" />
          )}
        </div>
        <div className="pay-scan">请使用手机扫码支付</div>
        <div className="pay-hint">{CHANNEL_HINTS[channel]}</div>
        <div className="pay-countdown" data-testid="pay-countdown">
          {payment && msLeft !== null && !expired ? (
            <>
              <ClockCircleOutlined /> 剩余支付时间 <strong>{countdownText(msLeft)}</strong>
            </>
          ) : (
            '\u00a0'
          )}
        </div>
        <Button type="primary" block size="large" loading={checking} disabled={!payment} onClick={onChecked} data-testid="pay-check">
          我已支付
        </Button>
        {payment?.provider === 'sandbox' && payment.code_url && (
          <a className="pay-sandbox-link" href={payment.code_url} target="_blank" rel="noopener noreferrer" data-testid="pay-sandbox-link">
            在新窗口打开沙箱支付页
          </a>
        )}
      </div>
    );
  }

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={priceDifferenceId === undefined ? '支付订单' : '支付补差价'}
      subtitle={`订单号 ${orderNo}`}
      width={440}
      className="payment-dialog"
      bodyScroll={false}
      destroyOnHidden
    >
      {body}
    </AppDialog>
  );
}
