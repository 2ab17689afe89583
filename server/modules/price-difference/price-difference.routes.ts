// The price difference's /admin-api calls (operator sessions).
import { adminPriceDifferenceCancel, adminPriceDifferenceList, adminPriceDifferenceRequest } from '../../../common/contracts/price-difference.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { PriceDifferenceService } from './price-difference.service.ts';

const TAG = '后台 · 补差价';

export function priceDifferenceOperations(service: PriceDifferenceService) {
  return [
    defineOperation({
      ...adminPriceDifferenceList,
      tag: TAG,
      summary: '订单的补差价：待支付金额、已支付合计和每一笔记录',
      auth: 'operator',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => service.list(caller, user_order_id),
    }),
    defineOperation({
      ...adminPriceDifferenceRequest,
      tag: TAG,
      summary: '发起补差价：金额和原因；通知客户在订单详情中支付',
      description:
        '只能在订单办理中发起（2167），一个订单同时最多一笔待支付的补差价（2163）；带上打开工作台时的 version（2166）。' +
        '客户在订单详情的“补差价”中用原支付方式支付（payment_create 带 price_difference_id），支付成功后通知订单的办理人员。',
      auth: 'operator',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.PRICE_DIFFERENCE_ORDER_NOT_PROCESSING,
        ErrorCode.PRICE_DIFFERENCE_ORDER_STALE,
        ErrorCode.PRICE_DIFFERENCE_ALREADY_OPEN,
        ErrorCode.PRICE_DIFFERENCE_AMOUNT_INVALID,
        ErrorCode.PRICE_DIFFERENCE_REASON_INVALID,
        ErrorCode.ORDER_CONFLICT,
      ],
      handle: (payload, { caller }) => service.request(caller, payload),
    }),
    defineOperation({
      ...adminPriceDifferenceCancel,
      tag: TAG,
      summary: '取消一笔尚未支付的补差价',
      description: '已支付或已取消的不能取消（2165）。取消后客户已扫的二维码若仍被支付，款项按“待退款”记录。',
      auth: 'operator',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.PRICE_DIFFERENCE_ORDER_NOT_PROCESSING,
        ErrorCode.PRICE_DIFFERENCE_ORDER_STALE,
        ErrorCode.PRICE_DIFFERENCE_NOT_FOUND,
        ErrorCode.PRICE_DIFFERENCE_NOT_OPEN,
        ErrorCode.ORDER_CONFLICT,
      ],
      handle: (payload, { caller }) => service.cancel(caller, payload),
    }),
  ];
}
