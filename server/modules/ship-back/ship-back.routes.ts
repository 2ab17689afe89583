// The calls of sending the passports home: the customer's
// (/www/order/return_…) and the back office's (/admin-api/order/ship_back…,
// /admin-api/order/complete).
import {
  adminOrderComplete,
  adminReturnRecord,
  adminReturnTracking,
  adminShipBackGet,
  adminShipBackSend,
  returnParcel,
  returnTracking,
} from '../../../common/contracts/ship-back.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { ShipBackService } from './ship-back.service.ts';

const TAG = '订单 · 护照寄回';
const ADMIN_TAG = '后台 · 护照寄回与完成';

const ACT_ERRORS = [
  ErrorCode.ORDER_NOT_FOUND,
  ErrorCode.ORDER_STATE_INVALID,
  ErrorCode.REVIEW_NOT_ASSIGNEE,
  ErrorCode.SHIP_BACK_ORDER_STALE,
  ErrorCode.SHIP_BACK_RESULTS_PENDING,
  ErrorCode.ORDER_CONFLICT,
];

export function shipBackOperations(shipBack: ShipBackService) {
  return [
    defineOperation({
      ...returnParcel,
      tag: TAG,
      summary: '寄回护照的快递及物流轨迹，以及寄往的地址',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => shipBack.returnParcel(caller, user_order_id),
    }),
    defineOperation({
      ...returnTracking,
      tag: TAG,
      summary: '刷新物流：向快递公司查询未签收的寄回快递；签收后订单自动完成',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => shipBack.returnTracking(caller, user_order_id),
    }),
    defineOperation({
      ...adminShipBackGet,
      tag: ADMIN_TAG,
      summary: '工作台的寄回面板：申请人结果、回寄地址、寄件地址、寄回快递，能否寄回或办理完成',
      auth: 'operator',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => shipBack.adminGet(caller, user_order_id),
    }),
    defineOperation({
      ...adminShipBackSend,
      tag: ADMIN_TAG,
      summary: '寄回护照：预约快递从服务中心上门取件，寄往订单的回寄地址（或同行地址）；订单进入寄回中',
      description:
        '先向快递公司下单，再在订单的 ship_back 变更中保存快递；变更失败（如订单已变化）时取消预约。签收后系统触发 return_delivered：订单完成，或全部拒签且拒签退全款时为已退款。',
      auth: 'operator',
      errors: [
        ...ACT_ERRORS,
        ErrorCode.SHIP_BACK_NOTHING_TO_RETURN,
        ErrorCode.SHIP_BACK_NO_RETURN_ADDRESS,
        ErrorCode.COURIER_NO_RECEIVING_ADDRESS,
        ErrorCode.COURIER_PICKUP_WINDOW_INVALID,
        ErrorCode.COURIER_CONTACT_INVALID,
        ErrorCode.COURIER_APPLICANTS_INVALID,
        ErrorCode.COURIER_PROVIDER_UNAVAILABLE,
      ],
      handle: (payload, { caller }) => shipBack.shipBack(caller, payload),
    }),
    defineOperation({
      ...adminReturnRecord,
      tag: ADMIN_TAG,
      summary: '物流异常：登记寄回护照的快递已签收（订单完成）或已退回（订单回到已递交使馆，可重新寄回），须填写说明',
      description:
        '寄回快递的轨迹停止更新，或最新轨迹为派送不成功、滞留、退回（顺丰 opCode 70/33/99/631/648）时使用。delivered 触发 return_confirm（全部拒签且拒签退全款时为已退款），returned 触发 return_back；快递上同时记下一条由工作人员登记的轨迹。',
      auth: 'operator',
      errors: [...ACT_ERRORS, ErrorCode.INVALID_PARAMS, ErrorCode.COURIER_SHIPMENT_NOT_FOUND, ErrorCode.COURIER_SHIPMENT_CANCELLED],
      handle: (payload, { caller }) => shipBack.recordReturn(caller, payload),
    }),
    defineOperation({
      ...adminOrderComplete,
      tag: ADMIN_TAG,
      summary: '办理完成：没有需要寄回的护照（电子签或未寄来资料），且每位申请人都有结果',
      auth: 'operator',
      errors: [...ACT_ERRORS, ErrorCode.SHIP_BACK_PASSPORTS_HELD],
      handle: (payload, { caller }) => shipBack.complete(caller, payload),
    }),
    defineOperation({
      ...adminReturnTracking,
      tag: ADMIN_TAG,
      summary: '刷新寄回快递的物流（向快递公司查询），返回寄回面板',
      auth: 'operator',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => shipBack.adminTracking(caller, user_order_id),
    }),
  ];
}
