// The back office's operator calls (`/admin-api/…`): login with password and
// TOTP code (or enrolment of a new second factor), logout, the operator's own
// info, and the supervisor's operator management. decision 0017.
import { z } from 'zod';
import { defineContract, type ResultOf } from './define.ts';
import { noPayload, noResult, rowId } from './fields.ts';
import { LOGIN_FIELD_MAX_LENGTH, OPERATOR_ACCOUNT_PATTERN, OPERATOR_NAME_MAX_LENGTH, TOTP_CODE_PATTERN } from './rules.ts';

export const OPERATOR_ROLES = ['operator', 'supervisor', 'catalogue_editor'] as const;
/** 产品编辑 (issue 26) opens 产品管理 only: common/staff-access.ts. */
export const OPERATOR_ROLE_LABELS = { operator: '操作员', supervisor: '主管', catalogue_editor: '产品编辑' } as const;
export const OPERATOR_STATUSES = ['active', 'disabled'] as const;
export const OPERATOR_STATUS_LABELS = { active: '启用', disabled: '停用' } as const;

const role = z.enum(OPERATOR_ROLES).describe('operator：操作员；supervisor：主管；catalogue_editor：产品编辑（只能使用产品管理）');
const passwordDigest = z.string().min(1).max(128).describe('密码的 SHA-256 十六进制摘要（与客户登录相同）');

export const operatorInfo = z.object({
  operator_id: z.number(),
  account: z.string(),
  name: z.string(),
  role,
  role_label: z.string(),
});

export const operatorLogin = defineContract({
  path: '/admin-api/operator_login',
  payload: z.object({
    account: z.string().trim().min(1).max(LOGIN_FIELD_MAX_LENGTH),
    password: passwordDigest,
    code: z.string().regex(TOTP_CODE_PATTERN).optional().describe('身份验证器 App 显示的 6 位动态验证码'),
  }),
  result: z.discriminatedUnion('next', [
    z.object({
      next: z.literal('done').describe('登录成功；令牌只在 HttpOnly Cookie admin_token 中（Set-Cookie），不在应答体里'),
      expires_at: z.number().describe('会话的绝对过期时间（毫秒时间戳）'),
      operator: operatorInfo,
    }),
    z.object({
      next: z.literal('enroll').describe('尚未绑定动态验证码：用 secret（或 otpauth_uri 的二维码）绑定后，带上 code 再次登录'),
      secret: z.string().describe('Base32 密钥'),
      otpauth_uri: z.string(),
      qr_image: z.string().describe('otpauth_uri 的二维码（PNG data URL）'),
    }),
  ]),
});

export const operatorLogout = defineContract({ path: '/admin-api/operator_logout', payload: noPayload, result: noResult });

export const operatorMe = defineContract({ path: '/admin-api/operator_me', payload: noPayload, result: operatorInfo });

const operatorRow = operatorInfo.extend({
  status: z.enum(OPERATOR_STATUSES),
  status_label: z.string(),
  totp_enrolled: z.boolean().describe('已绑定动态验证码；false：下次登录时绑定'),
  last_login_at: z.number().nullable(),
  created_at: z.number(),
});

export const operatorList = defineContract({
  path: '/admin-api/operator/operator_list',
  payload: noPayload,
  result: z.object({ list: z.array(operatorRow) }),
});

export const operatorCreate = defineContract({
  path: '/admin-api/operator/operator_create',
  payload: z.object({
    account: z.string().trim().regex(OPERATOR_ACCOUNT_PATTERN).describe('3–50 位字母、数字、下划线、点或连字符'),
    name: z.string().trim().min(1).max(OPERATOR_NAME_MAX_LENGTH),
    role,
    password: passwordDigest.describe('初始密码的 SHA-256 十六进制摘要'),
  }),
  result: z.object({
    operator_id: z.number(),
    secret: z.string().describe('动态验证码的 Base32 密钥，只显示这一次'),
    otpauth_uri: z.string(),
    qr_image: z.string().describe('otpauth_uri 的二维码（PNG data URL）'),
  }),
});

export const operatorStatusSet = defineContract({
  path: '/admin-api/operator/operator_status_set',
  payload: z.object({ operator_id: rowId, status: z.enum(OPERATOR_STATUSES) }),
  result: noResult,
});

export const operatorTotpReset = defineContract({
  path: '/admin-api/operator/operator_totp_reset',
  payload: z.object({ operator_id: rowId }),
  result: noResult,
});

export const OPERATOR_CONTRACTS = [operatorLogin, operatorLogout, operatorMe, operatorList, operatorCreate, operatorStatusSet, operatorTotpReset] as const;

export type OperatorInfo = ResultOf<typeof operatorMe>;
export type OperatorLoginResult = ResultOf<typeof operatorLogin>;
export type OperatorRow = ResultOf<typeof operatorList>['list'][number];
export type OperatorCreated = ResultOf<typeof operatorCreate>;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
