// Who is told what when an order event happens (docs/order-rules.md, decision
// 0018). NOTICE_MAP says, for each lifecycle event that tells somebody, which
// notice kinds it makes and for whom: the customer (the account that placed
// the order) or the order's assignee (the operator who took it). Each kind
// has one template: the in-app notice (title, body, the link to the page to
// act on) and, for customers, the e-mail (subject, text, HTML). noticesOf()
// is pure: the lifecycle hands it the event and the order row it just wrote,
// and stores what it returns in the same transaction (notice-store.ts).
// This module sits below both the lifecycle (which stores the notices of an
// event) and the notification module (which sends the e-mails and lists the
// notices): it imports neither (issue 24).
import { isRefunded, type OrderEventName, type OrderStatus, type OrderStep, stepIs } from '../../../common/order.ts';
import { PRICE_DIFFERENCE_ANCHOR } from '../../../common/price-difference.ts';
import { VISA_INFOS_ANCHOR } from '../../../common/visa-result.ts';
import { REFUND_ANCHOR } from '../../../common/refund.ts';
import { channelLabel, formatPayAmount } from '../../../common/payment.ts';
import { formatDateTime } from '../../../common/format.ts';
import { escapeHtml } from '../../platform/html.ts';

/** Where the e-mail's links start; the outbox worker puts the site's public origin in (PUBLIC_SITE_URL). */
export const SITE_TOKEN = '{{site}}';

export type NoticeRecipient = 'customer' | 'assignee';

/** What a template may use of the order (the lifecycle passes the order row). */
export interface NoticeOrder {
  user_order_id: number;
  /** The readable order number people see (migration 041); links keep the id. */
  order_no: string;
  /** The customer account that placed the order: the customer recipient. */
  account_id: number;
  product_title: string;
  /** The operator who took the order (REVIEW's column); null or absent when nobody has. */
  assignee_operator_id?: number | null;
}

/** What a template may use of the event (the order_event row just written). */
export interface NoticeEvent {
  event_id: number;
  event: OrderEventName;
  to_step: OrderStep | null;
  created_at: number;
  /** Issue 11: where the order went (completed or refunded) and what the event recorded (the waybill). */
  to_status?: OrderStatus | null;
  detail?: Record<string, unknown> | null;
}

interface Rendered {
  title: string;
  body: string;
  link: string;
}

export interface NoticeTemplate {
  recipient: NoticeRecipient;
  render(order: NoticeOrder, event: NoticeEvent): Rendered;
  /** Customers get an e-mail of every notice (when their account has an address); operators only the in-app notice. */
  email: boolean;
}

const reupload = (id: number) => `/order/order-reupload/${id}`;
const detail = (id: number) => `/order/order-detail/${id}`;
const mailList = (id: number) => `/order/order-mail-list/${id}`;
const pageCheck = (id: number) => `/order/order-page-check/${id}`;
const interviewNotice = (id: number) => `/order/order-interview-notification/${id}`;
const workbench = (id: number) => `/admin/orders/${id}`;

/** One template per kind. The first three are fired today (issue 9); the rest wait for issues 10 and 11. */
export const NOTICE_TEMPLATES = {
  material_review_failed: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '需要重新上传资料',
      body: `订单 ${order.order_no}（${order.product_title}）有资料未通过审核，请查看审核意见并重新上传，提交后我们会尽快再次审核。`,
      link: reupload(order.user_order_id),
    }),
  },
  material_review_passed: {
    recipient: 'customer',
    email: true,
    render: (order, event) =>
      stepIs({ step: event.to_step }, 'awaiting_mail')
        ? {
            title: '资料审核通过，请邮寄纸质资料',
            body: `订单 ${order.order_no}（${order.product_title}）的电子资料已全部审核通过。下一步：请按邮寄清单寄出纸质资料。`,
            link: mailList(order.user_order_id),
          }
        : {
            title: '资料审核通过',
            body: `订单 ${order.order_no}（${order.product_title}）的资料已全部审核通过。下一步：我们为您填写申请表，核对页发布后会通知您确认。`,
            link: detail(order.user_order_id),
          },
  },
  reupload_submit: {
    recipient: 'assignee',
    email: false,
    render: (order) => ({
      title: '客户已重新上传资料',
      body: `订单 ${order.order_no}（${order.product_title}）的客户已重新提交资料，请审核。`,
      link: workbench(order.user_order_id),
    }),
  },
  // Issues 10 and 11 fire these; their templates are ready.
  mail_missing: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '纸质资料缺件，请补寄',
      body: `订单 ${order.order_no}（${order.product_title}）收到的纸质资料有缺件，请查看缺少的资料并补寄。`,
      link: mailList(order.user_order_id),
    }),
  },
  // Mailing paper materials (issue 10): the assignee hears that the parcel left, the customer that it arrived.
  mail_send: {
    recipient: 'assignee',
    email: false,
    render: (order) => ({
      title: '客户已寄出纸质资料',
      body: `订单 ${order.order_no}（${order.product_title}）的客户已寄出纸质资料，收到后请核对并标记已收到或缺少资料。`,
      link: workbench(order.user_order_id),
    }),
  },
  mail_receive: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '纸质资料已收到',
      body: `订单 ${order.order_no}（${order.product_title}）的纸质资料已收到并核对无误。下一步：我们为您填写申请表，核对页发布后会通知您确认。`,
      link: detail(order.user_order_id),
    }),
  },
  page_check_publish: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '请确认核对页',
      body: `订单 ${order.order_no}（${order.product_title}）的申请表核对页已发布，请逐页核对并确认，有误可提出修改。`,
      link: pageCheck(order.user_order_id),
    }),
  },
  // Issue 10 (page check): the assignee hears of a correction and of all confirmed; the customer of the submission.
  page_check_correction: {
    recipient: 'assignee',
    email: false,
    render: (order) => ({
      title: '客户申请修改核对页',
      body: `订单 ${order.order_no}（${order.product_title}）的客户对核对页提出了修改意见，请修改后重新发布。`,
      link: workbench(order.user_order_id),
    }),
  },
  page_check_done: {
    recipient: 'assignee',
    email: false,
    render: (order, event) => ({
      title: '核对页已全部确认',
      body: stepIs({ step: event.to_step }, 'interview')
        ? `订单 ${order.order_no}（${order.product_title}）的核对页已全部确认，请发布面试/录指纹通知。`
        : `订单 ${order.order_no}（${order.product_title}）的核对页已全部确认，可以递交使馆。`,
      link: workbench(order.user_order_id),
    }),
  },
  submit: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '已递交使馆',
      body: `订单 ${order.order_no}（${order.product_title}）的申请已递交使馆，请耐心等待审理结果。`,
      link: detail(order.user_order_id),
    }),
  },
  interview_notice_publish: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '面试/录指纹通知',
      body: `订单 ${order.order_no}（${order.product_title}）的面试/录指纹通知已发布，请查看时间、地点和需携带的资料。`,
      link: interviewNotice(order.user_order_id),
    }),
  },
  // Interview date changes (issue 10, decision 0023).
  interview_change_request: {
    recipient: 'assignee',
    email: false,
    render: (order) => ({
      title: '客户申请修改面试时间',
      body: `订单 ${order.order_no}（${order.product_title}）的客户申请修改面试/录指纹时间，请在工作台接受或拒绝。`,
      link: workbench(order.user_order_id),
    }),
  },
  interview_change_accept: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '面试时间已修改',
      body: `订单 ${order.order_no}（${order.product_title}）的改期申请已接受，请查看新的面试/录指纹时间。`,
      link: interviewNotice(order.user_order_id),
    }),
  },
  interview_change_decline: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '改期申请未通过',
      body: `订单 ${order.order_no}（${order.product_title}）的面试改期申请未通过，面试/录指纹时间不变，请查看原因。`,
      link: interviewNotice(order.user_order_id),
    }),
  },
  price_difference_request: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '请补差价',
      body: `订单 ${order.order_no}（${order.product_title}）需要补差价，请查看金额和原因并支付。`,
      link: `${detail(order.user_order_id)}#${PRICE_DIFFERENCE_ANCHOR}`,
    }),
  },
  price_difference_cancel: {
    recipient: 'customer',
    email: true,
    render: (order, event) => {
      const amount = typeof event.detail?.amount === 'number' ? `（${formatPayAmount(event.detail.amount)}）` : '';
      return {
        title: '补差价已取消',
        body: `订单 ${order.order_no}（${order.product_title}）的补差价${amount}已取消，无需再支付。`,
        link: detail(order.user_order_id),
      };
    },
  },
  price_difference_pay: {
    recipient: 'assignee',
    email: false,
    render: (order) => ({
      title: '客户已补差价',
      body: `订单 ${order.order_no}（${order.product_title}）的客户已支付补差价，可以继续办理。`,
      link: workbench(order.user_order_id),
    }),
  },
  result_issue: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '已出签',
      body: `订单 ${order.order_no}（${order.product_title}）有申请人已出签，请查看签证信息。`,
      link: `${detail(order.user_order_id)}#${VISA_INFOS_ANCHOR}`,
    }),
  },
  result_reject: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '签证结果：拒签',
      body: `订单 ${order.order_no}（${order.product_title}）有申请人被拒签，请在签证信息中查看拒签原因。`,
      link: `${detail(order.user_order_id)}#${VISA_INFOS_ANCHOR}`,
    }),
  },
  // Ship back and completion (issue 11, modules/ship-back).
  ship_back: {
    recipient: 'customer',
    email: true,
    render: (order, event) => {
      const waybill = typeof event.detail?.waybill_no === 'string' ? event.detail.waybill_no : '';
      const company = typeof event.detail?.courier_company_name === 'string' ? event.detail.courier_company_name : '快递';
      return {
        title: '护照已寄回',
        body: `订单 ${order.order_no}（${order.product_title}）的护照已寄回${waybill ? `，${company}运单号 ${waybill}` : ''}。您可以在订单详情中查看物流。`,
        link: detail(order.user_order_id),
      };
    },
  },
  return_delivered: {
    recipient: 'customer',
    email: true,
    render: (order, event) => ({
      title: isRefunded({ status: event.to_status ?? '' }) ? '护照已签收，订单已退款' : '护照已签收，订单已完成',
      body: isRefunded({ status: event.to_status ?? '' })
        ? `订单 ${order.order_no}（${order.product_title}）寄回的护照已签收。申请人均被拒签，费用已按拒签退全款退回，订单已结束。`
        : `订单 ${order.order_no}（${order.product_title}）寄回的护照已签收，订单已完成。感谢您的信任，祝您旅途愉快！`,
      link: detail(order.user_order_id),
    }),
  },
  return_back: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '寄回的护照快件已退回',
      body: `订单 ${order.order_no}（${order.product_title}）寄回护照的快件未能送达，已退回易签通。我们会与您核对回寄地址后重新寄出。`,
      link: detail(order.user_order_id),
    }),
  },
  complete: {
    recipient: 'customer',
    email: true,
    render: (order, event) => ({
      title: isRefunded({ status: event.to_status ?? '' }) ? '订单已结束（已退款）' : '订单已完成',
      body: isRefunded({ status: event.to_status ?? '' })
        ? `订单 ${order.order_no}（${order.product_title}）的申请人均被拒签，费用已按拒签退全款退回，订单已结束。`
        : `订单 ${order.order_no}（${order.product_title}）已办理完成，请在订单详情中查看签证信息。祝您旅途愉快！`,
      link: detail(order.user_order_id),
    }),
  },
  // Refunds (issue 11, decision 0026): created, arrived, and the order closed with a full refund.
  refund_create: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '退款已发起',
      body: `订单 ${order.order_no}（${order.product_title}）有一笔退款已发起，款项将原路退回您的支付账户，请在订单详情中查看金额和进度。`,
      link: `${detail(order.user_order_id)}#${REFUND_ANCHOR}`,
    }),
  },
  refund_settle: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '退款已到账',
      body: `订单 ${order.order_no}（${order.product_title}）的一笔退款已原路退回您的支付账户，请查收。`,
      link: `${detail(order.user_order_id)}#${REFUND_ANCHOR}`,
    }),
  },
  close_refund: {
    recipient: 'customer',
    email: true,
    render: (order) => ({
      title: '订单已全额退款并关闭',
      body: `订单 ${order.order_no}（${order.product_title}）已关闭，已支付的款项将全额原路退回，请在订单详情中查看退款进度。`,
      link: `${detail(order.user_order_id)}#${REFUND_ANCHOR}`,
    }),
  },
  // The receipt (issue 29 part 5, decision 0047): written with the 'pay' or
  // 'price_difference_pay' event itself, so a notification the provider sends
  // twice (settled once, the second is a duplicate that writes no event) makes
  // one receipt. The figures are the event's: what the provider took, by which
  // channel, when (China time).
  payment_receipt: {
    recipient: 'customer',
    email: true,
    render: (order, event) => {
      const amount = typeof event.detail?.amount === 'number' ? formatPayAmount(event.detail.amount) : '';
      const channel = typeof event.detail?.channel === 'string' ? channelLabel(event.detail.channel) : '';
      const paidAt = formatDateTime(typeof event.detail?.paid_at === 'number' ? event.detail.paid_at : event.created_at);
      const what = event.event === 'price_difference_pay' ? '补差价' : '订单款项';
      const facts = [
        `订单号：${order.order_no}`,
        `支付项目：${what}`,
        ...(amount ? [`支付金额：${amount}`] : []),
        ...(channel ? [`支付方式：${channel}`] : []),
        `支付时间：${paidAt}（北京时间）`,
      ];
      return {
        title: event.event === 'price_difference_pay' ? '补差价支付成功' : '支付成功',
        body: `订单 ${order.order_no}（${order.product_title}）已收到您的付款。${facts.join('；')}。${event.event === 'price_difference_pay' ? '我们将继续为您办理。' : '我们将尽快开始审核您的资料。'}`,
        link: detail(order.user_order_id),
      };
    },
  },
} satisfies Record<string, NoticeTemplate>;

export type NoticeKind = keyof typeof NOTICE_TEMPLATES;

/**
 * Which lifecycle events tell somebody, and with which kinds. Every event is
 * named, so a new event asks the compiler "who is told?"; [] is an answer.
 * docs/order-rules.md's notice table lists the events that tell somebody
 * (notice.test.ts keeps the two equal).
 */
export const NOTICE_MAP: Readonly<Record<OrderEventName, readonly NoticeKind[]>> = {
  // The customer's own steps: they see the result on the page they are on.
  create: [],
  material_upload: [],
  material_replace: [],
  material_delete: [],
  effect_date: [],
  interview_choose: [],
  confirm: [],
  payment_create: [],
  cancel: [],
  departure_date_update: [],
  page_check_confirm: [],
  // Unpaid orders: the reminder 30 minutes before (reminders.ts) is the notice; the order list shows 已取消.
  expire: [],
  // Money the order cannot take (a second payment, a cancelled difference paid): recorded for the
  // operators; the refund they make (refund_create) tells the customer.
  payment_refund_due: [],
  // The back office's own steps (the assignee sees them in the queue and the workbench).
  assign: [],
  material_review: [],
  // Audit only: files past retention are deleted, nothing anybody acts on.
  retention_purge: [],
  material_review_failed: ['material_review_failed'],
  material_review_passed: ['material_review_passed'],
  reupload_submit: ['reupload_submit'],
  mail_missing: ['mail_missing'],
  mail_send: ['mail_send'],
  mail_receive: ['mail_receive'],
  page_check_publish: ['page_check_publish'],
  page_check_correction: ['page_check_correction'],
  page_check_done: ['page_check_done'],
  submit: ['submit'],
  interview_notice_publish: ['interview_notice_publish'],
  interview_change_request: ['interview_change_request'],
  interview_change_accept: ['interview_change_accept'],
  interview_change_decline: ['interview_change_decline'],
  price_difference_request: ['price_difference_request'],
  price_difference_pay: ['price_difference_pay', 'payment_receipt'],
  // The customer was asked to pay: they are told they need not.
  price_difference_cancel: ['price_difference_cancel'],
  result_issue: ['result_issue'],
  result_reject: ['result_reject'],
  ship_back: ['ship_back'],
  return_delivered: ['return_delivered'],
  // Recorded by hand, the customer hears the same as from the courier.
  return_confirm: ['return_delivered'],
  return_back: ['return_back'],
  complete: ['complete'],
  refund_create: ['refund_create'],
  refund_settle: ['refund_settle'],
  close_refund: ['close_refund'],
  // The receipt of issue 29 part 5 (decision 0047).
  pay: ['payment_receipt'],
};

/** Does this event tell anybody? (The lifecycle reads the order row only when it does.) */
export function notifies(event: OrderEventName): boolean {
  return NOTICE_MAP[event].length > 0;
}

export interface NoticeEmail {
  subject: string;
  text: string;
  html: string;
}

/** A notice to store: its row and, for a customer, the e-mail to queue when the account has an address. */
export interface NoticeDraft {
  recipient_kind: 'customer' | 'operator';
  recipient_id: number;
  kind: NoticeKind;
  user_order_id: number;
  title: string;
  body: string;
  link: string;
  order_event_id: number;
  created_at: number;
  email: NoticeEmail | null;
}

const BRAND = '易签通';

/** The e-mail of a notice: the notice's words and a link to act on (SITE_TOKEN + path). */
export function noticeEmail(notice: Rendered): NoticeEmail {
  const url = `${SITE_TOKEN}${notice.link}`;
  const title = notice.title.replace(/[\r\n]+/g, ' ');
  return {
    subject: `【${BRAND}】${title}`,
    text: `您好：\n\n${notice.body}\n\n立即处理：${url}\n\n您也可以登录${BRAND}，在“消息通知”中查看。此邮件由系统自动发送，请勿回复。\n`,
    html:
      `<p>您好：</p><h2>${escapeHtml(title)}</h2><p>${escapeHtml(notice.body)}</p>` +
      `<p><a href="${escapeHtml(url)}">立即处理</a></p>` +
      `<p style="color:#666">您也可以登录${BRAND}，在“消息通知”中查看。此邮件由系统自动发送，请勿回复。</p>`,
  };
}

/**
 * The notices one event makes: for each kind of the event, its recipient
 * (the order's customer account, or its assignee — none when nobody took the
 * order) and its words. Pure: the order row and the event come from the caller.
 */
export function noticesOf(event: NoticeEvent, order: NoticeOrder): NoticeDraft[] {
  const drafts: NoticeDraft[] = [];
  for (const kind of NOTICE_MAP[event.event]) {
    const template: NoticeTemplate = NOTICE_TEMPLATES[kind];
    const recipient =
      template.recipient === 'customer'
        ? { recipient_kind: 'customer' as const, recipient_id: order.account_id }
        : order.assignee_operator_id
          ? { recipient_kind: 'operator' as const, recipient_id: order.assignee_operator_id }
          : null;
    if (!recipient) continue;
    const rendered = template.render(order, event);
    drafts.push({
      ...recipient,
      kind,
      user_order_id: order.user_order_id,
      ...rendered,
      order_event_id: event.event_id,
      created_at: event.created_at,
      email: template.email ? noticeEmail(rendered) : null,
    });
  }
  return drafts;
}

/** The site-relative links of an outbox row made absolute (the worker, which knows PUBLIC_SITE_URL). */
export function withSite(value: string, siteUrl: string): string {
  return value.split(SITE_TOKEN).join(siteUrl.replace(/\/+$/, ''));
}
