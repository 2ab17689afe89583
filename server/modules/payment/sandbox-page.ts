// The sandbox's pay page: what the payer's phone shows after scanning the QR
// code. Small, server-rendered, no script, in the colours of the channel
// (WeChat Pay green, Alipay blue), clearly marked as a sandbox.
import type { SandboxTrade } from './sandbox-ledger.ts';

const CHANNELS = {
  wechat: { label: '微信支付', color: '#07c160', glyph: '✓' },
  alipay: { label: '支付宝', color: '#1677ff', glyph: '支' },
} as const;

export type PayPageNotice = 'paid' | 'already_paid' | 'expired' | 'closed' | 'resent' | null;

const NOTICES: Record<Exclude<PayPageNotice, null>, { text: string; tone: 'ok' | 'warn' }> = {
  paid: { text: '支付成功，正在通知商户', tone: 'ok' },
  already_paid: { text: '该笔交易已支付，无需重复支付', tone: 'ok' },
  expired: { text: '交易已超时，无法支付', tone: 'warn' },
  closed: { text: '交易已关闭，无法支付', tone: 'warn' },
  resent: { text: '已再次发送支付通知（2 次，同一通知编号）', tone: 'ok' },
};

const NOTIFY_STATUS: Record<string, string> = { none: '未发送', pending: '发送中', delivered: '商户已确认', failed: '发送失败（商户可主动查询）' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function chinaTime(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

function yuan(cents: number): string {
  return (cents / 100).toFixed(2);
}

function shell(title: string, color: string, body: string, refreshSeconds?: number): string {
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="robots" content="noindex">
${refreshSeconds ? `<meta http-equiv="refresh" content="${refreshSeconds}">` : ''}
<title>${escapeHtml(title)}</title>
<style>
*{box-sizing:border-box}
body{margin:0;background:#f2f3f5;color:#1f2329;font-family:-apple-system,BlinkMacSystemFont,'PingFang SC','Hiragino Sans GB','Microsoft YaHei','Noto Sans CJK SC','Noto Sans SC',sans-serif;-webkit-text-size-adjust:100%}
.bar{background:${color};color:#fff;padding:14px 16px;display:flex;align-items:center;gap:10px;font-size:17px;font-weight:600}
.logo{width:28px;height:28px;border-radius:8px;background:#fff;color:${color};display:flex;align-items:center;justify-content:center;font-size:17px;font-weight:700}
.badge{margin-left:auto;font-size:12px;font-weight:500;border:1px solid rgba(255,255,255,.7);border-radius:10px;padding:1px 8px}
main{max-width:480px;margin:0 auto;padding:16px}
.card{background:#fff;border-radius:12px;padding:24px 20px;text-align:center}
.merchant{font-size:15px;color:#646a73}
.desc{margin-top:6px;font-size:14px;color:#8f959e;word-break:break-all}
.amount{margin:18px 0 6px;font-size:40px;font-weight:600;letter-spacing:.5px}
.amount small{font-size:24px;margin-right:2px}
dl{margin:18px 0 0;padding:14px 0 0;border-top:1px solid #eff0f1;text-align:left;font-size:13px}
dl div{display:flex;justify-content:space-between;gap:12px;padding:4px 0}
dt{color:#8f959e;flex:none}
dd{margin:0;color:#1f2329;text-align:right;word-break:break-all}
.pay{display:block;width:100%;margin-top:24px;padding:13px 0;border:0;border-radius:8px;background:${color};color:#fff;font-size:17px;font-weight:600;cursor:pointer}
.pay:active{opacity:.85}
a.pay{text-decoration:none;box-sizing:border-box}
.pay.back{background:#fff;color:${color};border:1px solid ${color}}
.state{font-size:20px;font-weight:600;margin-top:8px}
.state.ok{color:${color}}
.state.off{color:#8f959e}
.icon{width:56px;height:56px;margin:0 auto;border-radius:50%;display:flex;align-items:center;justify-content:center;font-size:30px;color:#fff;background:${color}}
.icon.off{background:#c9cdd4}
.notice{margin-bottom:12px;border-radius:8px;padding:10px 12px;font-size:14px}
.notice.ok{background:#e8f7ee;color:#0b7a3e}
.notice.warn{background:#fff3e8;color:#b35400}
.linkform{margin:16px 0 0;text-align:center}
.link{background:none;border:0;padding:4px;color:#3370ff;font-size:14px;text-decoration:underline;cursor:pointer}
.hint{margin-top:14px;font-size:12px;color:#8f959e;line-height:1.6;text-align:center}
</style>
</head>
<body>
${body}
</body>
</html>`;
}

/**
 * The pay page. With returnUrl it is the phone's "wallet" (WeChat H5 /
 * Alipay WAP style): its forms keep the way back, and a link returns the
 * payer to our order page, which asks for the result.
 */
export function renderPayPage(trade: SandboxTrade, now: number, notice: PayPageNotice, returnUrl: string | null = null): string {
  const channel = CHANNELS[trade.channel as keyof typeof CHANNELS] ?? CHANNELS.wechat;
  const no = encodeURIComponent(trade.out_trade_no);
  const keep = returnUrl ? `?return=${encodeURIComponent(returnUrl)}` : '';
  const expired = trade.state === 'NOTPAY' && trade.expires_at <= now;
  const rows: Array<[string, string]> = [
    ['收款方', '易签通'],
    ['商户订单号', trade.out_trade_no],
    ['支付方式', channel.label],
  ];
  let action = '';
  if (trade.state === 'NOTPAY' && !expired) {
    rows.push(['支付有效期至', chinaTime(trade.expires_at)]);
    action = `<form method="post" action="/sandbox/pay/${no}/confirm${escapeHtml(keep)}"><button class="pay" type="submit" data-testid="sandbox-confirm">确认支付</button></form>
<p class="hint">支付后可在本页“模拟重复通知”，检验商户对重复通知的处理。</p>`;
  } else if (trade.state === 'SUCCESS') {
    rows.push(
      ['交易单号', trade.provider_trade_no ?? ''],
      ['支付时间', trade.paid_at ? chinaTime(trade.paid_at) : ''],
      ['商户通知', `${NOTIFY_STATUS[trade.notify_status] ?? trade.notify_status}（已发送 ${trade.notify_attempts} 次）`],
    );
    action = `<form class="linkform" method="post" action="/sandbox/pay/${no}/renotify${escapeHtml(keep)}"><button class="link" type="submit" data-testid="sandbox-renotify">模拟重复通知</button></form>`;
  }
  if (returnUrl) {
    const label = trade.state === 'SUCCESS' ? '完成，返回商户' : '返回商户';
    action += `<a class="pay back" href="${escapeHtml(returnUrl)}" data-testid="sandbox-return">${label}</a>`;
  }
  const status =
    trade.state === 'SUCCESS'
      ? `<div class="icon">✓</div><div class="state ok">支付成功</div>`
      : trade.state === 'CLOSED' || expired
        ? `<div class="icon off">!</div><div class="state off">${trade.state === 'CLOSED' ? '交易已关闭' : '二维码已过期'}</div>`
        : '';
  const noticeHtml = notice ? `<div class="notice ${NOTICES[notice].tone}" role="status">${NOTICES[notice].text}</div>` : '';
  const body = `<div class="bar"><span class="logo" aria-hidden="true">${channel.glyph}</span>${channel.label}<span class="badge">沙箱环境</span></div>
<main>
${noticeHtml}
<div class="card">
${status}
<div class="merchant">易签通</div>
<div class="desc">${escapeHtml(trade.description)}</div>
<div class="amount" data-testid="sandbox-amount"><small>￥</small>${yuan(trade.amount)}</div>
<dl>${rows.map(([k, v]) => `<div><dt>${k}</dt><dd>${escapeHtml(v)}</dd></div>`).join('')}</dl>
${action}
</div>
<p class="hint">这是沙箱支付页，模拟${channel.label}的付款确认，不会产生真实扣款。</p>
</main>`;
  // While the notification is on its way the page refreshes itself to show how it went.
  const refresh = trade.state === 'SUCCESS' && trade.notify_status === 'pending' ? 2 : undefined;
  return shell(`${channel.label} - 易签通`, channel.color, body, refresh);
}

export function renderMissingTradePage(): string {
  return shell(
    '交易不存在',
    '#8f959e',
    `<div class="bar">沙箱支付<span class="badge">沙箱环境</span></div><main><div class="card"><div class="icon off">?</div><div class="state off">交易不存在</div><p class="hint">请回到电脑上的支付窗口，刷新二维码后重新扫码。</p></div></main>`,
  );
}
