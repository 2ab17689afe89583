import {
  teamInvitationAccept,
  teamInvitationGet,
  teamInvitationResend,
  teamMemberDisable,
  teamMemberEnable,
  teamMemberInvite,
  teamMemberList,
  teamMemberPasswordReset,
  teamMemberRoleUpdate,
} from '../../../common/contracts/team.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { TeamService } from './team.service.ts';

const TAG = '账号 · 成员管理';
const ADMIN_ONLY = '仅企业管理员（其他角色答 2501）。';

export function teamOperations(service: TeamService) {
  return [
    defineOperation({
      ...teamMemberList,
      tag: TAG,
      summary: '企业的全部成员（含待接受邀请和已停用的）',
      description: ADMIN_ONLY,
      auth: 'customer',
      errors: [ErrorCode.TEAM_ROLE_FORBIDDEN],
      handle: (_payload, { caller }) => service.list(caller),
    }),
    defineOperation({
      ...teamMemberInvite,
      tag: TAG,
      summary: '邀请成员（手机号或邮箱为登录账号；成员打开链接自行设置密码）',
      description: `${ADMIN_ONLY}有邮箱时链接通过邮件发送；只有手机号时（短信尚未开通）链接在 link 中返回，由管理员转交。链接 72 小时内有效。`,
      auth: 'customer',
      errors: [ErrorCode.TEAM_ROLE_FORBIDDEN, ErrorCode.TEAM_NAME_INVALID, ErrorCode.TEAM_CONTACT_INVALID, ErrorCode.TEAM_CONTACT_TAKEN],
      handle: (payload, { caller }) => service.invite(caller, payload),
    }),
    defineOperation({
      ...teamInvitationResend,
      tag: TAG,
      summary: '重新发送邀请（之前的链接失效）',
      description: ADMIN_ONLY,
      auth: 'customer',
      errors: [ErrorCode.TEAM_ROLE_FORBIDDEN, ErrorCode.TEAM_MEMBER_NOT_FOUND, ErrorCode.TEAM_MEMBER_STATE],
      handle: (payload, { caller }) => service.resendInvitation(caller, payload.account_id),
    }),
    defineOperation({
      ...teamMemberPasswordReset,
      tag: TAG,
      summary: '重置成员密码（旧密码立即失效、会话结束，成员通过链接设置新密码）',
      description: ADMIN_ONLY,
      auth: 'customer',
      errors: [ErrorCode.TEAM_ROLE_FORBIDDEN, ErrorCode.TEAM_MEMBER_NOT_FOUND, ErrorCode.TEAM_MEMBER_STATE, ErrorCode.TEAM_SELF_CHANGE],
      handle: (payload, { caller }) => service.resetPassword(caller, payload.account_id),
    }),
    defineOperation({
      ...teamMemberRoleUpdate,
      tag: TAG,
      summary: '修改成员角色',
      description: `${ADMIN_ONLY}最后一位启用的管理员不能改为其他角色。`,
      auth: 'customer',
      errors: [ErrorCode.TEAM_ROLE_FORBIDDEN, ErrorCode.TEAM_MEMBER_NOT_FOUND, ErrorCode.TEAM_LAST_ADMIN],
      handle: async (payload, { caller }) => {
        await service.updateRole(caller, payload.account_id, payload.role);
        return {};
      },
    }),
    defineOperation({
      ...teamMemberDisable,
      tag: TAG,
      summary: '停用成员（其会话立即失效；订单仍属于企业）',
      description: `${ADMIN_ONLY}最后一位启用的管理员不能停用。`,
      auth: 'customer',
      errors: [ErrorCode.TEAM_ROLE_FORBIDDEN, ErrorCode.TEAM_MEMBER_NOT_FOUND, ErrorCode.TEAM_LAST_ADMIN, ErrorCode.TEAM_MEMBER_STATE],
      handle: async (payload, { caller }) => {
        await service.disable(caller, payload.account_id);
        return {};
      },
    }),
    defineOperation({
      ...teamMemberEnable,
      tag: TAG,
      summary: '重新启用成员',
      description: `${ADMIN_ONLY}从未设置密码的成员恢复为待接受邀请（请重新发送邀请）。`,
      auth: 'customer',
      errors: [ErrorCode.TEAM_ROLE_FORBIDDEN, ErrorCode.TEAM_MEMBER_NOT_FOUND, ErrorCode.TEAM_MEMBER_STATE],
      handle: async (payload, { caller }) => {
        await service.enable(caller, payload.account_id);
        return {};
      },
    }),
    defineOperation({
      ...teamInvitationGet,
      tag: TAG,
      summary: '邀请或重置密码链接的信息（不需要登录，凭链接中的 token）',
      auth: 'none',
      errors: [ErrorCode.TEAM_INVITATION_INVALID, ErrorCode.TEAM_INVITATION_EXPIRED, ErrorCode.ACCOUNT_DISABLED],
      handle: (payload) => service.invitation(payload.token),
    }),
    defineOperation({
      ...teamInvitationAccept,
      tag: TAG,
      summary: '通过链接设置密码（一次有效；成员之前的会话全部结束）',
      auth: 'none',
      errors: [ErrorCode.TEAM_INVITATION_INVALID, ErrorCode.TEAM_INVITATION_EXPIRED, ErrorCode.ACCOUNT_DISABLED],
      handle: (payload) => service.accept(payload.token, payload.password),
    }),
  ];
}
