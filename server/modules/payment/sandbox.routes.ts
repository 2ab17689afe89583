// The sandbox payment company's own pages, outside the signed /www API (the
// payer's phone opens them from the QR code, without our session):
//   GET  /sandbox/pay/:outTradeNo           the pay page (?return=… : opened by a phone browser as its
//                                           "wallet", with the way back to our order page)
//   POST /sandbox/pay/:outTradeNo/confirm   "确认支付": pay, then notify the merchant
//   POST /sandbox/pay/:outTradeNo/renotify  "模拟重复通知": send the same notification again, twice at once
// The forms post and are redirected back to the page (no script needed).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type PayPageNotice, renderMissingTradePage, renderPayPage } from './sandbox-page.ts';
import type { SandboxProvider } from './sandbox-provider.ts';

const TRADE_NO = /^[A-Za-z0-9_-]{1,40}$/;
const NOTICES = new Set(['paid', 'already_paid', 'expired', 'closed', 'resent']);
const DUPLICATE_COPIES = 2;

function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
    .type('text/html; charset=utf-8')
    .send(body);
}

function back(reply: FastifyReply, outTradeNo: string, notice: Exclude<PayPageNotice, null>, returnUrl: string | null) {
  const again = returnUrl ? `&return=${encodeURIComponent(returnUrl)}` : '';
  return reply.redirect(`/sandbox/pay/${encodeURIComponent(outTradeNo)}?notice=${notice}${again}`, 303);
}

type PageQuery = { Params: { outTradeNo: string }; Querystring: { notice?: string; return?: string } };

export async function registerSandboxRoutes(app: FastifyInstance, sandbox: SandboxProvider, now: () => number): Promise<void> {
  await app.register(async (scope) => {
    // The forms post application/x-www-form-urlencoded; nothing in them is read.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) => done(null, null));

    scope.get<PageQuery>('/sandbox/pay/:outTradeNo', { schema: { hide: true } }, async (request, reply) => {
      const { outTradeNo } = request.params;
      const trade = TRADE_NO.test(outTradeNo) ? await sandbox.ledger.find(outTradeNo) : undefined;
      if (!trade) return html(reply, 404, renderMissingTradePage());
      const notice = request.query.notice && NOTICES.has(request.query.notice) ? (request.query.notice as PayPageNotice) : null;
      return html(reply, 200, renderPayPage(trade, now(), notice, sandbox.returnUrl(request.query.return)));
    });

    scope.post<PageQuery>('/sandbox/pay/:outTradeNo/confirm', { schema: { hide: true } }, async (request, reply) => {
      const { outTradeNo } = request.params;
      const returnUrl = sandbox.returnUrl(request.query.return);
      if (!TRADE_NO.test(outTradeNo)) return html(reply, 404, renderMissingTradePage());
      const outcome = await sandbox.confirm(outTradeNo);
      if (!outcome.ok) return outcome.reason === 'not_found' ? html(reply, 404, renderMissingTradePage()) : back(reply, outTradeNo, outcome.reason, returnUrl);
      return back(reply, outTradeNo, outcome.alreadyPaid ? 'already_paid' : 'paid', returnUrl);
    });

    scope.post<PageQuery>('/sandbox/pay/:outTradeNo/renotify', { schema: { hide: true } }, async (request, reply) => {
      const { outTradeNo } = request.params;
      const returnUrl = sandbox.returnUrl(request.query.return);
      const trade = TRADE_NO.test(outTradeNo) ? await sandbox.ledger.find(outTradeNo) : undefined;
      if (!trade) return html(reply, 404, renderMissingTradePage());
      if (trade.state !== 'SUCCESS') return reply.redirect(`/sandbox/pay/${encodeURIComponent(outTradeNo)}`, 303);
      await sandbox.notifier.resend(outTradeNo, DUPLICATE_COPIES);
      return back(reply, outTradeNo, 'resent', returnUrl);
    });
  });
}
