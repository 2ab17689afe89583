import { accountLogin, accountLogout, userCsQuery, userInfoQuery } from '../../../common/contracts/account.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { AppConfig } from '../../config.ts';
import { defineOperation } from '../../platform/operation.ts';
import { clearSessionCookie, cookieValue, CUSTOMER_COOKIE, setSessionCookie } from '../../web/cookies.ts';
import type { AccountService } from './account.service.ts';

export function accountOperations(service: AccountService, config: AppConfig) {
  return [
    defineOperation({
      ...accountLogin,
      tag: '账号',
      summary: '登录（企业管理员账号）',
      description: 'password 为用户输入密码的 SHA-256 十六进制摘要（64 位小写），绝不发送明文。每次登录签发新的令牌。',
      auth: 'none',
      errors: [ErrorCode.LOGIN_FAILED, ErrorCode.LOGIN_THROTTLED, ErrorCode.ACCOUNT_DISABLED],
      handle: async (payload, { request, reply }) => {
        const login = await service.login({
          account: payload.account,
          passwordDigest: payload.password,
          ip: request.ip,
          userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
        });
        // The page cookie is the server's to write (HttpOnly); scripts keep the token in login_data (spec §3).
        setSessionCookie(request, reply, CUSTOMER_COOKIE, login.token, login.expires_at);
        return login;
      },
    }),
    defineOperation({
      ...accountLogout,
      tag: '账号',
      summary: '退出登录（服务器端吊销当前令牌并清除 Cookie）',
      description: '吊销 X-Token（或 Cookie token）对应的会话；令牌已失效时也成功，并清除 token Cookie。',
      // No session needed: an expired login still clears its cookie.
      auth: 'none',
      errors: [],
      handle: async (_payload, { request, reply }) => {
        const header = request.headers['x-token'];
        await service.logoutToken(typeof header === 'string' && header !== '' ? header : cookieValue(request, CUSTOMER_COOKIE.name));
        clearSessionCookie(request, reply, CUSTOMER_COOKIE);
        return {};
      },
    }),
    defineOperation({
      ...userInfoQuery,
      tag: '账号',
      summary: '当前登录账号的信息',
      auth: 'customer',
      errors: [],
      handle: (_payload, { caller }) => service.userInfo(caller.accountId),
    }),
    defineOperation({
      ...userCsQuery,
      tag: '账号',
      summary: '客服联系方式（热线、服务时间、微信、邮箱，以及企业的专属签证顾问）',
      auth: 'customer',
      errors: [],
      handle: async (_payload, { caller }) => ({
        hotline: config.CS_HOTLINE,
        working_hours: config.CS_WORKING_HOURS,
        wechat: config.CS_WECHAT,
        email: config.CS_EMAIL,
        consultant: await service.consultantOf(caller.accountId),
      }),
    }),
  ];
}
