import { z } from 'zod';
import { LOGIN_FIELD_MAX_LENGTH } from '../../../common/constants.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { AppConfig } from '../../config.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { AccountService } from './account.service.ts';

const userInfo = z.object({
  account_id: z.number(),
  account: z.string(),
  name: z.string(),
  mobile_phone: z.string().nullable().describe('中间四位已隐藏'),
  email: z.string().nullable(),
  role: z.string().describe('admin：企业管理员'),
  last_login_at: z.number().nullable().describe('毫秒时间戳'),
  enterprise: z.object({
    enterprise_id: z.number(),
    name: z.string(),
    kind: z.string().describe('company：企业；agency：旅行社/代理机构'),
    kind_label: z.string(),
  }),
});

export function accountOperations(service: AccountService, config: AppConfig) {
  return [
    defineOperation({
      path: '/www/account_login',
      tag: '账号',
      summary: '登录（企业管理员账号）',
      description: 'password 为用户输入密码的 SHA-256 十六进制摘要（64 位小写），绝不发送明文。每次登录签发新的令牌。',
      auth: 'none',
      payload: z.object({
        account: z.string().trim().min(1).max(LOGIN_FIELD_MAX_LENGTH),
        password: z.string().min(1).max(128),
      }),
      result: z.object({ token: z.string(), expires_at: z.number().describe('令牌的绝对过期时间（毫秒时间戳）') }),
      errors: [ErrorCode.LOGIN_FAILED, ErrorCode.LOGIN_THROTTLED, ErrorCode.ACCOUNT_DISABLED],
      handle: (payload, { request }) =>
        service.login({
          account: payload.account,
          passwordDigest: payload.password,
          ip: request.ip,
          userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
        }),
    }),
    defineOperation({
      path: '/www/account_logout',
      tag: '账号',
      summary: '退出登录（服务器端吊销当前令牌）',
      auth: 'customer',
      payload: z.object({}),
      result: z.object({}),
      errors: [],
      handle: async (_payload, { request }) => {
        await service.logout(request.account!.sessionId);
        return {};
      },
    }),
    defineOperation({
      path: '/www/user/user_info_query',
      tag: '账号',
      summary: '当前登录账号的信息',
      auth: 'customer',
      payload: z.object({}),
      result: userInfo,
      errors: [],
      handle: (_payload, { caller }) => service.userInfo(caller.accountId),
    }),
    defineOperation({
      path: '/www/user/user_cs_query',
      tag: '账号',
      summary: '客服联系方式（热线、服务时间、微信、邮箱，以及企业的专属签证顾问）',
      auth: 'customer',
      payload: z.object({}),
      result: z.object({
        hotline: z.string(),
        working_hours: z.string(),
        wechat: z.string(),
        email: z.string(),
        consultant: z.object({ name: z.string(), phone: z.string().nullable() }).nullable().describe('企业的专属签证顾问，未分配时为 null'),
      }),
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
