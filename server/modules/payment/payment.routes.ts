// The payment calls of the signed /www API (session required; another
// enterprise's order answers 1801 exactly like a missing one), and the
// provider's notification endpoint, which is not a /www call: the payment
// company posts it without our signature or a session, and its own
// signature is checked over the raw body.
import type { FastifyInstance } from 'fastify';
import { sceneOfUserAgent } from '../../../common/payment.ts';
import { paymentCreate, paymentQuery } from '../../../common/contracts/payment.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { PaymentService } from './payment.service.ts';
import type { PaymentProvider } from './provider.ts';

const TAG = '支付';
/** Notifications are small; anything bigger is not one. */
const NOTIFY_BODY_LIMIT = 64 * 1024;

export function paymentOperations(service: PaymentService) {
  return [
    defineOperation({
      ...paymentCreate,
      tag: TAG,
      summary: '发起支付：为待支付订单生成微信支付/支付宝二维码',
      description:
        '只有待支付（已确认）且未超时的订单可以支付；金额为订单总价。二维码 15 分钟内有效，且不晚于订单的自动取消时间。' +
        '同一订单、同一支付方式、同一金额且仍有效的二维码会被沿用（reused 为 true），不会重复创建；订单金额变化后旧二维码被关闭。' +
        '支付结果由支付服务商异步通知，页面通过 payment_query 轮询。' +
        '带 price_difference_id 时支付办理中订单的一笔待支付补差价（金额为补差价金额），通知与幂等规则相同。',
      auth: 'customer',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_ALREADY_CANCELLED,
        ErrorCode.PAYMENT_ORDER_NOT_PAYABLE,
        ErrorCode.PAYMENT_ORDER_EXPIRED,
        ErrorCode.PAYMENT_ORDER_PAID,
        ErrorCode.PAYMENT_CHANNEL_INVALID,
        ErrorCode.PAYMENT_PROVIDER_UNAVAILABLE,
        ErrorCode.PAYMENT_AMOUNT_INVALID,
        ErrorCode.PRICE_DIFFERENCE_ORDER_NOT_PROCESSING,
        ErrorCode.PRICE_DIFFERENCE_NOT_FOUND,
        ErrorCode.PRICE_DIFFERENCE_NOT_OPEN,
      ],
      handle: (payload, context) =>
        service.create(context.caller, payload, {
          scene: payload.scene ?? sceneOfUserAgent(context.request.headers['user-agent']),
          client_ip: context.request.ip,
        }),
    }),
    defineOperation({
      ...paymentQuery,
      tag: TAG,
      summary: '查询支付结果：订单状态和支付状态',
      description:
        '支付仍为待支付时，服务器会向支付服务商查询该笔交易（通知延迟或丢失时的补偿），已支付则按与异步通知相同的规则入账。' +
        '超时未支付的订单在此时被自动取消。',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND, ErrorCode.PAYMENT_NOT_FOUND],
      handle: (payload, context) => service.query(context.caller, payload),
    }),
  ];
}

/** POST /pay/notify/{provider}: the raw body (for the signature), answered in the provider's format. */
export async function registerNotifyRoute(app: FastifyInstance, provider: PaymentProvider, service: PaymentService): Promise<void> {
  const providerName = provider.name;
  await app.register(async (scope) => {
    // Whatever the content type, the body is kept as the exact bytes that were signed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: NOTIFY_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post(`/pay/notify/${providerName}`, { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const answer = await service.notify(provider, raw, request.headers);
      return reply.status(answer.status).type(answer.contentType).send(answer.body);
    });
  });
}
