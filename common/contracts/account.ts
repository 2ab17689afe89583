// The account calls: login, logout, the user's info, customer service.
import { z } from 'zod';
import { defineContract, type ResultOf } from './define.ts';
import { noPayload, noResult } from './fields.ts';
import { LOGIN_FIELD_MAX_LENGTH } from './rules.ts';

export const accountLogin = defineContract({
  path: '/www/account_login',
  payload: z.object({
    account: z.string().trim().min(1).max(LOGIN_FIELD_MAX_LENGTH),
    password: z.string().min(1).max(128).describe('用户输入密码的 SHA-256 十六进制摘要'),
  }),
  result: z.object({ token: z.string(), expires_at: z.number().describe('令牌的绝对过期时间（毫秒时间戳）') }),
});

export const accountLogout = defineContract({ path: '/www/account_logout', payload: noPayload, result: noResult });

const userInfo = z.object({
  account_id: z.number(),
  account: z.string(),
  name: z.string(),
  mobile_phone: z.string().nullable().describe('中间四位已隐藏'),
  email: z.string().nullable(),
  role: z.string().describe('admin：企业管理员'),
  last_login_at: z.number().nullable().describe('上次登录（本次之前的一次登录），毫秒时间戳；首次登录为 null'),
  enterprise: z.object({
    enterprise_id: z.number(),
    name: z.string(),
    kind: z.string().describe('company：企业；agency：旅行社/代理机构'),
    kind_label: z.string(),
  }),
});

export const userInfoQuery = defineContract({ path: '/www/user/user_info_query', payload: noPayload, result: userInfo });

export const userCsQuery = defineContract({
  path: '/www/user/user_cs_query',
  payload: noPayload,
  result: z.object({
    hotline: z.string(),
    working_hours: z.string(),
    wechat: z.string(),
    email: z.string(),
    consultant: z.object({ name: z.string(), phone: z.string().nullable() }).nullable().describe('企业的专属签证顾问，未分配时为 null'),
  }),
});

export const ACCOUNT_CONTRACTS = [accountLogin, accountLogout, userInfoQuery, userCsQuery] as const;

export type LoginInfo = ResultOf<typeof accountLogin>;
export type UserInfo = ResultOf<typeof userInfoQuery>;
export type CustomerService = ResultOf<typeof userCsQuery>;
