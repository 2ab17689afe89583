import {
  operatorCreate,
  operatorList,
  operatorLogin,
  operatorLogout,
  operatorMe,
  operatorStatusSet,
  operatorTotpReset,
} from '../../../common/contracts/operator.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import { clearSessionCookie, cookieValue, OPERATOR_COOKIE, setSessionCookie } from '../../web/cookies.ts';
import type { OperatorService } from './operator.service.ts';

const TAG = '后台 · 操作员';

export function operatorOperations(service: OperatorService) {
  return [
    defineOperation({
      ...operatorLogin,
      tag: TAG,
      summary: '后台登录（账号 + 密码摘要 + 6 位动态验证码）',
      description:
        'password 为密码的 SHA-256 十六进制摘要（与客户登录相同）。已绑定动态验证码时必须带 code（RFC 6238，30 秒一个，允许前后各一个时间窗口，每个验证码只能用一次），成功返回 next=done 和令牌。' +
        '尚未绑定（新账号经主管重置后）时，不带 code 返回 next=enroll 和新的密钥，用身份验证器 App 绑定后带上 code 再次调用即完成绑定并登录。失败次数过多时暂时拒绝登录（1302）。',
      auth: 'none',
      errors: [ErrorCode.OPERATOR_LOGIN_FAILED, ErrorCode.LOGIN_THROTTLED, ErrorCode.OPERATOR_DISABLED],
      handle: async (payload, { request, reply }) => {
        const result = await service.login({
          account: payload.account,
          passwordDigest: payload.password,
          code: payload.code,
          ip: request.ip,
          userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
        });
        if (result.next !== 'done') return result;
        // The token exists only in the HttpOnly cookie: no script of the back office ever holds it (decision 0032).
        const { token, ...answer } = result;
        setSessionCookie(request, reply, OPERATOR_COOKIE, token, answer.expires_at);
        return answer;
      },
    }),
    defineOperation({
      ...operatorLogout,
      tag: TAG,
      summary: '后台退出登录（服务器端吊销当前令牌并清除 Cookie）',
      description: '吊销 Cookie admin_token（或 X-Token）对应的会话；令牌已失效时也成功，并清除 Cookie。',
      // No session needed: an expired login still clears its cookie.
      auth: 'none',
      errors: [],
      handle: async (_payload, { request, reply }) => {
        const header = request.headers['x-token'];
        await service.logoutToken(typeof header === 'string' && header !== '' ? header : cookieValue(request, OPERATOR_COOKIE.name));
        clearSessionCookie(request, reply, OPERATOR_COOKIE);
        return {};
      },
    }),
    defineOperation({
      ...operatorMe,
      tag: TAG,
      summary: '当前登录的操作员（任一角色）',
      auth: 'staff',
      errors: [],
      handle: (_payload, { caller }) => service.me(caller),
    }),
    defineOperation({
      ...operatorList,
      tag: TAG,
      summary: '操作员列表（主管）',
      auth: 'supervisor',
      errors: [],
      handle: async () => ({ list: await service.list() }),
    }),
    defineOperation({
      ...operatorCreate,
      tag: TAG,
      summary: '新建操作员（主管）：返回只显示一次的动态验证码密钥',
      auth: 'supervisor',
      errors: [ErrorCode.OPERATOR_ACCOUNT_TAKEN],
      handle: (payload) => service.create({ account: payload.account, name: payload.name, role: payload.role, passwordDigest: payload.password }),
    }),
    defineOperation({
      ...operatorStatusSet,
      tag: TAG,
      summary: '停用或启用操作员（主管）：停用立即结束其所有会话',
      auth: 'supervisor',
      errors: [ErrorCode.OPERATOR_NOT_FOUND, ErrorCode.OPERATOR_SELF_CHANGE],
      handle: async (payload, { caller }) => {
        await service.setStatus(caller, payload.operator_id, payload.status);
        return {};
      },
    }),
    defineOperation({
      ...operatorTotpReset,
      tag: TAG,
      summary: '重置操作员的动态验证码（主管）：丢失手机时的恢复途径',
      description: '清除其动态验证码并结束其所有会话；该操作员下次登录时绑定新的密钥（扫码后输入验证码确认）。',
      auth: 'supervisor',
      errors: [ErrorCode.OPERATOR_NOT_FOUND, ErrorCode.OPERATOR_SELF_CHANGE],
      handle: async (payload, { caller }) => {
        await service.resetTotp(caller, payload.operator_id);
        return {};
      },
    }),
  ];
}
