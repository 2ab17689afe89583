// The calls of mailing paper materials: the customer's (/www/order/mail_…)
// and the back office's (/admin-api/order/mail…).
import { adminMailGet, adminMailMissing, adminMailReceive, mailList, mailPickup, mailSelfExpress, mailTracking } from '../../../common/contracts/mail.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { MailService } from './mail.service.ts';

const TAG = '订单 · 邮寄资料';
const ADMIN_TAG = '后台 · 邮寄资料';

const SEND_ERRORS = [
  ErrorCode.ORDER_NOT_FOUND,
  ErrorCode.ORDER_STATE_INVALID,
  ErrorCode.MAIL_ORDER_STALE,
  ErrorCode.MAIL_ALREADY_SENT,
  ErrorCode.MAIL_NOTHING_TO_MAIL,
  ErrorCode.COURIER_NO_RECEIVING_ADDRESS,
  ErrorCode.COURIER_APPLICANTS_INVALID,
  ErrorCode.ORDER_CONFLICT,
];
const CHECK_ERRORS = [
  ErrorCode.ORDER_NOT_FOUND,
  ErrorCode.ORDER_STATE_INVALID,
  ErrorCode.REVIEW_NOT_ASSIGNEE,
  ErrorCode.MAIL_ORDER_STALE,
  ErrorCode.MAIL_NOT_SENT,
  ErrorCode.ORDER_CONFLICT,
];

export function mailOperations(mail: MailService) {
  return [
    defineOperation({
      ...mailList,
      tag: TAG,
      summary: '邮寄资料清单：每位申请人需邮寄的纸质资料、收件地址、已寄出的快递及物流轨迹',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => mail.list(caller, user_order_id),
    }),
    defineOperation({
      ...mailPickup,
      tag: TAG,
      summary: '预约快递上门取件（取件地址来自地址簿），快递公司返回运单号；订单仍为待邮寄资料',
      description: '先向快递公司下单，再在订单的 mail_send 变更中保存快递；变更失败（如订单已变化）时取消预约。',
      auth: 'customer',
      errors: [
        ...SEND_ERRORS,
        ErrorCode.MAIL_ADDRESS_NOT_FOUND,
        ErrorCode.COURIER_PICKUP_WINDOW_INVALID,
        ErrorCode.COURIER_CONTACT_INVALID,
        ErrorCode.COURIER_PROVIDER_UNAVAILABLE,
      ],
      handle: (payload, { caller }) => mail.pickup(caller, payload),
    }),
    defineOperation({
      ...mailSelfExpress,
      tag: TAG,
      summary: '自行寄送：填写快递公司和快递单号',
      auth: 'customer',
      errors: [...SEND_ERRORS, ErrorCode.COURIER_COMPANY_INVALID, ErrorCode.COURIER_WAYBILL_INVALID],
      handle: (payload, { caller }) => mail.selfExpress(caller, payload),
    }),
    defineOperation({
      ...mailTracking,
      tag: TAG,
      summary: '刷新物流轨迹：向快递公司查询未签收的上门取件快递，返回本订单寄送资料的快递',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => mail.tracking(caller, user_order_id),
    }),
    defineOperation({
      ...adminMailGet,
      tag: ADMIN_TAG,
      summary: '订单的邮寄资料清单、收件地址和快递（工作台的邮寄面板）',
      auth: 'operator',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => mail.list(caller, user_order_id),
    }),
    defineOperation({
      ...adminMailReceive,
      tag: ADMIN_TAG,
      summary: '已收到：核对无误，快递标记为已签收，订单进入待确认核对页',
      auth: 'operator',
      errors: CHECK_ERRORS,
      handle: (payload, { caller }) => mail.receive(caller, payload),
    }),
    defineOperation({
      ...adminMailMissing,
      tag: ADMIN_TAG,
      summary: '缺少资料：填写缺少的资料，通知客户补寄；订单仍为待邮寄资料',
      auth: 'operator',
      errors: [...CHECK_ERRORS, ErrorCode.MAIL_NOTE_REQUIRED],
      handle: (payload, { caller }) => mail.missing(caller, payload),
    }),
  ];
}
