// The words of the scheduled reminders (issue 29 part 5, decision 0047), in
// the voice of the order notices (server/modules/order-notices/notice-kinds.ts):
// title, body and the page to act on. Pure: the jobs (reminders.ts) pass
// what they read. The payment receipt is not here: it is a notice of the
// payment event itself (notice-kinds.ts, payment_receipt).
import { formatDateTime } from '../../../common/format.ts';

export const REMINDER_KINDS = ['expiry_warning', 'interview_tomorrow', 'departure_at_risk'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export interface ReminderText {
  title: string;
  body: string;
  link: string;
}

/** What every reminder names of its order. */
export interface ReminderOrder {
  user_order_id: number;
  order_no: string;
  product_title: string;
}

const detail = (id: number) => `/order/order-detail/${id}`;
const interviewNotice = (id: number) => `/order/order-interview-notification/${id}`;
const workbench = (id: number) => `/admin/orders/${id}`;

/** An unpaid order whose 24 h are nearly up (the expiry sweep cancels it at expiresAt). */
export function expiryWarning(order: ReminderOrder, expiresAt: number, now: number): ReminderText {
  const minutes = Math.max(1, Math.ceil((expiresAt - now) / 60_000));
  return {
    title: '订单即将自动取消',
    body: `订单 ${order.order_no}（${order.product_title}）尚未支付，将于 ${formatDateTime(expiresAt)}（北京时间，约 ${minutes} 分钟后）自动取消。如需继续办理，请尽快完成支付。`,
    link: detail(order.user_order_id),
  };
}

export interface Appointment {
  applicant_name: string;
  interview_date: string;
  start_time: string;
  end_time: string;
  consulate_name: string;
  consulate_address: string;
  telephone: string;
}

/** The applicant's interview or biometrics appointment is tomorrow (China time). */
export function interviewTomorrow(order: ReminderOrder, appointment: Appointment): ReminderText {
  const time = appointment.end_time ? `${appointment.start_time}–${appointment.end_time}` : appointment.start_time;
  const place = appointment.consulate_address ? `${appointment.consulate_name}（${appointment.consulate_address}）` : appointment.consulate_name;
  const phone = appointment.telephone ? `如有疑问请致电 ${appointment.telephone}。` : '';
  return {
    title: '明天面试/录指纹提醒',
    body: `订单 ${order.order_no}（${order.product_title}）的申请人${appointment.applicant_name}明天（${appointment.interview_date}）${time} 在${place}面试/录指纹，请携带护照原件和通知中列出的资料，提前到达。${phone}`,
    link: interviewNotice(order.user_order_id),
  };
}

export interface Risk {
  departure_date: string;
  /** Working days left before the departure date. */
  daysLeft: number;
  /** Working days the processing still needs. */
  daysNeeded: number;
}

/** The customer: the result may not come before the departure date. */
export function departureAtRiskCustomer(order: ReminderOrder, risk: Risk): ReminderText {
  return {
    title: '出发日期临近，签证可能来不及',
    body: `订单 ${order.order_no}（${order.product_title}）的出发日期为 ${risk.departure_date}，距今仅剩 ${risk.daysLeft} 个工作日，而办理预计还需 ${risk.daysNeeded} 个工作日，签证结果可能无法在出发前取得。我们会优先处理；如行程可以调整，请尽早联系客服。`,
    link: detail(order.user_order_id),
  };
}

/** The operator (the assignee, or the supervisors when nobody took the order): the same, to act on. */
export function departureAtRiskOperator(order: ReminderOrder, risk: Risk): ReminderText {
  return {
    title: '出发日期临近，签证结果未出',
    body: `订单 ${order.order_no}（${order.product_title}）的出发日期为 ${risk.departure_date}，距今仅剩 ${risk.daysLeft} 个工作日，办理预计还需 ${risk.daysNeeded} 个工作日，请优先处理并与客户沟通。`,
    link: workbench(order.user_order_id),
  };
}
