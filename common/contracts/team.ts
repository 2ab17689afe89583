// Teams (issue 29): the administrator's 成员管理 calls, and the invitation a
// colleague accepts by setting their own password (no session: the link's token).
import { z } from 'zod';
import { TEAM_ROLES } from '../team.ts';
import { defineContract, type ResultOf } from './define.ts';
import { idField, noPayload, noResult } from './fields.ts';

const role = z.enum(TEAM_ROLES).describe('admin 管理员，agent 经办人，finance 财务');

export const teamMember = z.object({
  account_id: z.number(),
  account: z.string().describe('登录账号（邀请时的手机号或邮箱）'),
  name: z.string(),
  mobile_phone: z.string().nullable(),
  email: z.string().nullable(),
  role: z.string(),
  role_label: z.string(),
  status: z.enum(['active', 'disabled', 'invited']),
  status_label: z.string(),
  last_login_at: z.number().nullable(),
  created_at: z.number(),
  is_self: z.boolean(),
  /** The open invitation's (or reset's) end, when one is waiting to be used. */
  link_expires_at: z.number().nullable(),
});

export const teamMemberList = defineContract({
  path: '/www/team/member_list',
  payload: noPayload,
  result: z.object({ members: z.array(teamMember) }),
});

/** How a link reached the colleague: e-mailed, or shown here for the administrator to pass on (no SMS yet). */
const linkDelivery = z.object({
  account_id: z.number(),
  channel: z.enum(['email', 'manual']).describe('email：已发送到成员邮箱；manual：成员没有邮箱（短信尚未开通），请管理员把 link 转交给成员'),
  link: z.string().nullable().describe('channel 为 manual 时的链接；email 时为 null（只在邮件里）'),
  expires_at: z.number(),
});

export const teamMemberInvite = defineContract({
  path: '/www/team/member_invite',
  payload: z.object({
    name: z.string().max(40),
    contact: z.string().max(120).describe('成员的手机号或邮箱，作为其登录账号'),
    role,
  }),
  result: linkDelivery,
});

const memberId = z.object({ account_id: idField });

export const teamInvitationResend = defineContract({ path: '/www/team/invitation_resend', payload: memberId, result: linkDelivery });
export const teamMemberPasswordReset = defineContract({ path: '/www/team/member_password_reset', payload: memberId, result: linkDelivery });
export const teamMemberRoleUpdate = defineContract({
  path: '/www/team/member_role_update',
  payload: z.object({ account_id: idField, role }),
  result: noResult,
});
export const teamMemberDisable = defineContract({ path: '/www/team/member_disable', payload: memberId, result: noResult });
export const teamMemberEnable = defineContract({ path: '/www/team/member_enable', payload: memberId, result: noResult });

const token = z.string().min(1).max(200);

export const teamInvitationGet = defineContract({
  path: '/www/team/invitation_get',
  payload: z.object({ token }),
  result: z.object({
    purpose: z.enum(['invite', 'reset']),
    enterprise_name: z.string(),
    name: z.string(),
    account: z.string(),
    role_label: z.string(),
    expires_at: z.number(),
  }),
});

export const teamInvitationAccept = defineContract({
  path: '/www/team/invitation_accept',
  payload: z.object({ token, password: z.string().min(1).max(128).describe('新密码的 SHA-256 十六进制摘要') }),
  result: z.object({ account: z.string() }),
});

export const TEAM_CONTRACTS = [
  teamMemberList,
  teamMemberInvite,
  teamInvitationResend,
  teamMemberPasswordReset,
  teamMemberRoleUpdate,
  teamMemberDisable,
  teamMemberEnable,
  teamInvitationGet,
  teamInvitationAccept,
] as const;

export type TeamMember = z.output<typeof teamMember>;
export type TeamMemberList = ResultOf<typeof teamMemberList>;
export type LinkDelivery = ResultOf<typeof teamMemberInvite>;
export type InvitationInfo = ResultOf<typeof teamInvitationGet>;
