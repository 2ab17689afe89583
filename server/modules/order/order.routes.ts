// The order calls. Every one needs a session and sees only the orders of the
// caller's enterprise: another enterprise's order answers exactly like a
// missing one (1801 订单不存在).
import type { OrderDetail, OrderListResult, OrderListScope } from '../../../common/contracts/order.ts';
import { orderCancel, orderCreate, orderDepartureDateUpdate, orderDetailGet, orderList } from '../../../common/contracts/order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { OrderListTabKey } from '../../../common/order.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { Customer } from '../../platform/principal.ts';
import type { OrderService } from './order.service.ts';

/**
 * The customer's reads of an order, built above the modules that hold its
 * parts (server/modules/order-view/customer-view.ts); app.ts hands them in
 * with the service, so this module does not import them back.
 */
export interface CustomerOrderReads {
  detail(customer: Customer, userOrderId: number): Promise<OrderDetail>;
  list(customer: Customer, tab: OrderListTabKey, page: number, scope?: OrderListScope): Promise<OrderListResult>;
}

const TAG = '订单';

export function orderOperations(service: OrderService & CustomerOrderReads) {
  return [
    defineOperation({
      ...orderCreate,
      tag: TAG,
      summary: '创建订单（草稿）：一个签证产品、一个领区、一个出发日期，1–20 位申请人',
      description:
        '产品须在售（未下架）且支持线下办理；出发日期不得早于今天（北京时间）；单价取下单时的企业价（有 distributor_discount 时）或 sell_price，' +
        '总价 = 单价 × 申请人数。订单、申请人和“创建订单”记录在同一个事务中写入。未支付的订单在创建 24 小时后自动取消。',
      auth: 'customer',
      errors: [
        ErrorCode.VISA_PRODUCT_NOT_FOUND,
        ErrorCode.ORDER_PRODUCT_DELISTED,
        ErrorCode.ORDER_PRODUCT_NOT_OFFLINE,
        ErrorCode.ORDER_DEPARTURE_DATE_INVALID,
        ErrorCode.ORDER_DEPARTURE_DATE_PAST,
        ErrorCode.ORDER_DEPARTURE_DATE_TOO_FAR,
        ErrorCode.ORDER_DATE_INVALID,
        ErrorCode.ORDER_DISTRICT_INVALID,
        ErrorCode.ORDER_APPLICANTS_REQUIRED,
        ErrorCode.ORDER_TOO_MANY_APPLICANTS,
        ErrorCode.ORDER_APPLICANT_NAME_INVALID,
        ErrorCode.ORDER_APPLICANT_MOBILE_INVALID,
        ErrorCode.ORDER_APPLICANT_EMAIL_INVALID,
        ErrorCode.ORDER_APPLICANT_DUPLICATE,
      ],
      handle: (payload, context) => service.create(context.caller, payload),
    }),
    defineOperation({
      ...orderDetailGet,
      tag: TAG,
      summary: '订单详情：基本信息、快照、申请人、状态与办理进度（事件记录）',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, context) => service.detail(context.caller, user_order_id),
    }),
    defineOperation({
      ...orderList,
      tag: TAG,
      summary: '订单列表：按标签筛选，每页 10 条，最新在前',
      description:
        '标签：全部 · 待支付（草稿和待支付）· 需要处理（待重新上传、待邮寄资料、待确认核对页，或出发日期已过且尚未递交使馆）· 办理中 · 已完成 · 已取消/已退款。',
      auth: 'customer',
      errors: [],
      handle: ({ tab, page, scope }, context) => service.list(context.caller, tab, page, scope),
    }),
    defineOperation({
      ...orderDepartureDateUpdate,
      tag: TAG,
      summary: '修改出发日期（“出发日期已过”时选择新日期）',
      description:
        '未支付（草稿、待支付）或办理中但尚未递交使馆的订单可以修改；新日期不得早于今天，也不得早于尚未到来的办理日期。' +
        '已选保险的订单，保险起止日期随出发日期平移（天数和金额不变）。写入“修改出发日期”记录。',
      auth: 'customer',
      errors: [
        ErrorCode.ORDER_NOT_FOUND,
        ErrorCode.ORDER_ALREADY_CANCELLED,
        ErrorCode.ORDER_DEPARTURE_NOT_CHANGEABLE,
        ErrorCode.ORDER_DEPARTURE_DATE_INVALID,
        ErrorCode.ORDER_DEPARTURE_DATE_PAST,
        ErrorCode.ORDER_DEPARTURE_DATE_TOO_FAR,
        ErrorCode.ORDER_DATE_INVALID,
        ErrorCode.ORDER_CONFLICT,
      ],
      handle: ({ user_order_id, departure_date }, context) => service.changeDepartureDate(context.caller, user_order_id, departure_date),
    }),
    defineOperation({
      ...orderCancel,
      tag: TAG,
      summary: '取消订单（仅草稿和待支付）',
      description: '已取消的订单再次取消返回 1815 订单已取消，不做任何修改；已支付的订单返回 1816。',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND, ErrorCode.ORDER_ALREADY_CANCELLED, ErrorCode.ORDER_NOT_CANCELLABLE, ErrorCode.ORDER_CONFLICT],
      handle: ({ user_order_id, reason }, context) => service.cancel(context.caller, user_order_id, reason),
    }),
  ];
}
