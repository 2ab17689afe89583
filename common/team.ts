// Teams (issue 29): an enterprise's colleagues, their roles and what each role
// may call. The server refuses a call the caller's role may not make (2501,
// server/app.ts's session hook) and the pages hide what the role cannot do;
// both read this one table.

export const TEAM_ROLES = ['admin', 'agent', 'finance'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = { admin: '管理员', agent: '经办人', finance: '财务' };

/** What each role is for, as the 成员管理 page explains it. */
export const TEAM_ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  admin: '全部功能，并管理成员',
  agent: '下单、办理订单、管理申请人和地址',
  finance: '查看订单和支付记录，可支付订单、导出报表和申请发票；不能下单、取消或修改订单',
};

export function isTeamRole(value: unknown): value is TeamRole {
  return typeof value === 'string' && (TEAM_ROLES as readonly string[]).includes(value);
}

/** A role as the pages show it; an unknown stored value is shown as it is. */
export function teamRoleLabel(role: string): string {
  return isTeamRole(role) ? TEAM_ROLE_LABELS[role] : role;
}

export type MemberStatus = 'active' | 'disabled' | 'invited';
export const MEMBER_STATUS_LABELS: Record<MemberStatus, string> = { active: '已启用', disabled: '已停用', invited: '待接受邀请' };

/** account.status as stored (0 active, 1 disabled, 2 invited). */
export const ACCOUNT_STATUS = { active: 0, disabled: 1, invited: 2 } as const;

/**
 * The kinds of customer call:
 * - read: reading the enterprise's orders, notices, addresses (every role);
 * - pay: paying an order or its price difference, requesting an invoice
 *   (admin, agent and finance — finance settles the company's bills and keeps
 *   its invoices; neither changes anything that was ordered);
 * - order: placing, changing or cancelling orders, travellers' materials,
 *   interviews, mail and addresses (admin and agent);
 * - team: managing colleagues (admin only).
 */
export type CallAccess = 'read' | 'pay' | 'order' | 'team';

const ALLOWED: Record<CallAccess, readonly TeamRole[]> = {
  read: ['admin', 'agent', 'finance'],
  pay: ['admin', 'agent', 'finance'],
  order: ['admin', 'agent'],
  team: ['admin'],
};

export function roleMay(role: string, access: CallAccess): boolean {
  return isTeamRole(role) && ALLOWED[access].includes(role);
}

/** The sentence a refused caller reads (2501). */
export function refusalMessage(role: string, access: CallAccess): string {
  const label = teamRoleLabel(role);
  if (access === 'team') return `只有管理员可以管理成员，您的角色是${label}`;
  if (role === 'finance') return '财务角色只能查看订单、支付记录并支付订单，不能下单、取消或修改订单';
  return `您的角色（${label}）无权进行此操作`;
}

/**
 * Every customer call (auth 'customer') by path, with its kind. A call missing
 * here is refused to everyone but an administrator (server/app.ts), and
 * server/modules/account/team.test.ts fails until it is listed.
 */
export const CUSTOMER_CALL_ACCESS: Record<string, CallAccess> = {
  '/www/user/user_info_query': 'read',
  '/www/user/user_cs_query': 'read',
  '/www/notice/notice_list': 'read',
  '/www/notice/notice_read': 'read',
  '/www/notice/notice_read_all': 'read',
  '/www/notice/notice_unread_count': 'read',
  '/www/order/order_list': 'read',
  '/www/order/order_detail_get': 'read',
  '/www/order/insurance_plan_list': 'read',
  '/www/order/interview_slot_list': 'read',
  '/www/order/interview_change_slots': 'read',
  '/www/order/interview_notice_detail': 'read',
  '/www/order/mail_list': 'read',
  '/www/order/mail_tracking': 'read',
  '/www/order/material_list': 'read',
  '/www/order/page_check_detail': 'read',
  '/www/order/return_tracking': 'read',
  '/www/order/visa_info_send': 'read',
  '/www/address/address_list': 'read',
  '/www/payment/payment_query': 'read',
  '/www/payment/payment_create': 'pay',
  '/www/order/order_create': 'order',
  '/www/order/order_cancel': 'order',
  '/www/order/order_confirm': 'order',
  '/www/order/order_departure_date_update': 'order',
  '/www/order/effect_date_set': 'order',
  '/www/order/interview_time_choose': 'order',
  '/www/order/interview_change_request': 'order',
  '/www/order/mail_pickup': 'order',
  '/www/order/mail_self_express': 'order',
  '/www/order/material_upload': 'order',
  '/www/order/material_delete': 'order',
  '/www/order/reupload_submit': 'order',
  '/www/order/page_check_confirm': 'order',
  '/www/order/page_check_correction': 'order',
  '/www/order/return_parcel': 'order',
  '/www/address/address_save': 'order',
  '/www/address/address_delete': 'order',
  '/www/order/order_group_list': 'read',
  '/www/order/order_group_set': 'order',
  '/www/invoice/invoice_list': 'read',
  '/www/invoice/invoiceable_orders': 'read',
  '/www/invoice/invoice_request': 'pay',
  '/www/order/photo_choice': 'order',
  '/www/passport/passport_read': 'order',
  '/www/traveller/traveller_list': 'read',
  '/www/traveller/offer_list': 'read',
  '/www/traveller/traveller_save': 'order',
  '/www/traveller/traveller_delete': 'order',
  '/www/traveller/document_upload': 'order',
  '/www/traveller/document_delete': 'order',
  '/www/traveller/offer_accept': 'order',
  '/www/team/member_list': 'team',
  '/www/team/member_invite': 'team',
  '/www/team/invitation_resend': 'team',
  '/www/team/member_role_update': 'team',
  '/www/team/member_disable': 'team',
  '/www/team/member_enable': 'team',
  '/www/team/member_password_reset': 'team',
};

/** The kind of a customer call; an unlisted one counts as 'team' (administrators only). */
export function callAccess(path: string): CallAccess {
  return CUSTOMER_CALL_ACCESS[path] ?? 'team';
}

/** The lifecycle events a 财务 may fire from the order pages: paying only (pay). */
const FINANCE_EVENTS: readonly string[] = ['payment_create'];

/** An order view's allowed_events as this role may use them (the pages hide the rest; the server refuses them with 2501). */
export function eventsForRole<E extends string>(role: string | null, events: readonly E[]): E[] {
  return role === 'finance' ? events.filter((event) => FINANCE_EVENTS.includes(event)) : [...events];
}

/** How long an invitation or a reset link stays valid. */
export const INVITATION_TTL_MS = 72 * 3_600_000;
