// The refund panel's /admin-api calls (operator sessions; creating refunds is
// for supervisors: 2201), and the provider's refund notification endpoint
// (POST /pay/refund-notify/{provider}), which, like the payment one, is not a
// signed /www call: its own signature is checked over the raw body.
import type { FastifyInstance } from 'fastify';
import { adminRefundClose, adminRefundCreate, adminRefundFailedCount, adminRefundList } from '../../../common/contracts/refund.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { RefundService } from './refund.service.ts';
import type { PaymentProvider } from '../payment/provider.ts';

const TAG = '后台 · 退款';
/** Notifications are small; anything bigger is not one. */
const NOTIFY_BODY_LIMIT = 64 * 1024;

export function refundOperations(service: RefundService) {
  return [
    defineOperation({
      ...adminRefundList,
      tag: TAG,
      summary: '订单的退款：已付合计、已退（含退款中）合计、可退金额和每一笔退款',
      auth: 'operator',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => service.list(caller, user_order_id),
    }),
    defineOperation({
      ...adminRefundFailedCount,
      tag: TAG,
      summary: '退款失败、款项尚未重新退回的退款笔数和订单数（工作台的提醒）',
      description:
        '支付服务商最终拒绝的退款（退款失败），之后订单没有再发起成功或进行中的手动退款或全额退款、且订单仍有可退金额的，计入；' +
        '只计办理中和已完成的订单。订单见订单队列的“退款失败”筛选（refund=failed）。',
      auth: 'operator',
      errors: [],
      handle: () => service.failedCount(),
    }),
    defineOperation({
      ...adminRefundCreate,
      tag: TAG,
      summary: '手动退款（主管）：金额和原因，原路退回',
      description:
        '只有主管可以操作（2201）；订单须在办理中或已完成（2206）。金额不超过可退金额（已支付减去已退和退款中的，2204）；' +
        '先从订单支付中退，不够再从已支付的补差价中退，每笔支付一笔退款。带上打开面板时的 version 和 last_refund_id，之后订单或退款有变化则拒绝（2208），防止重复提交。' +
        '退款提交支付服务商后异步到账，到账后通知客户。',
      auth: 'operator',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.REFUND_SUPERVISOR_ONLY,
        ErrorCode.REFUND_ORDER_STATE,
        ErrorCode.REFUND_AMOUNT_INVALID,
        ErrorCode.REFUND_REASON_INVALID,
        ErrorCode.REFUND_AMOUNT_EXCEEDS,
        ErrorCode.REFUND_NOTHING_PAID,
        ErrorCode.REFUND_ORDER_STALE,
      ],
      handle: (payload, { caller }) => service.create(caller, payload),
    }),
    defineOperation({
      ...adminRefundClose,
      tag: TAG,
      summary: '全额退款并关闭订单（主管，递交使馆前）',
      description:
        '只有主管可以操作（2201），且只能在递交使馆之前（2207）。已支付的款项（订单支付和补差价）中尚未退的全部退回，订单变为“已退款”，' +
        '未支付的补差价取消，面试名额释放。带上打开工作台时的 version（2208）。',
      auth: 'operator',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.REFUND_SUPERVISOR_ONLY,
        ErrorCode.REFUND_CLOSE_NOT_ALLOWED,
        ErrorCode.REFUND_REASON_INVALID,
        ErrorCode.REFUND_ORDER_STALE,
        ErrorCode.ORDER_CONFLICT,
      ],
      handle: (payload, { caller }) => service.close(caller, payload),
    }),
  ];
}

/** POST /pay/refund-notify/{provider}: the raw body (for the signature), answered in the provider's format. */
export async function registerRefundNotifyRoute(app: FastifyInstance, provider: PaymentProvider, service: RefundService): Promise<void> {
  const providerName = provider.name;
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: NOTIFY_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post(`/pay/refund-notify/${providerName}`, { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const answer = await service.notify(provider, raw, request.headers);
      return reply.status(answer.status).type(answer.contentType).send(answer.body);
    });
  });
}
