// Accounts, login and sessions.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ErrorCode } from '../../../common/error-codes.ts';
import { maskMobilePhone } from '../../../common/text.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { createAccountRepository } from './account.repository.ts';
import type { AuthenticatedAccount } from './account.types.ts';
import { createLoginThrottle } from './login-throttle.ts';
import { SHA256_HEX, hashPasswordDigest, spendEqualTime, verifyPasswordDigest } from './password.ts';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export interface LoginRequest {
  account: string;
  passwordDigest: string;
  ip: string;
  userAgent: string | null;
}

export interface NewEnterpriseInput {
  enterpriseName: string;
  enterpriseKind: 'company' | 'agency';
  contactName?: string;
  contactPhone?: string;
  consultantName?: string;
  consultantPhone?: string;
  adminAccount: string;
  /** The password as typed; hashed here exactly like the web client does. */
  adminPasswordDigest: string;
  adminName: string;
  adminMobilePhone?: string;
  adminEmail?: string;
}

/** Sessions are touched at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

export const ENTERPRISE_KIND_LABELS = { company: '企业', agency: '旅行社/代理机构' } as const;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** hashPassword: the slow hash of a new administrator's password (test data passes a cheaper one, server/test-support/password.ts). */
export function createAccountService(
  db: Kysely<Database>,
  policy: SessionPolicy,
  now: () => number = Date.now,
  hashPassword: (digest: string) => Promise<string> = hashPasswordDigest,
) {
  const repo = createAccountRepository(db);
  const throttle = createLoginThrottle(db, 'customer');

  return {
    async createEnterpriseWithAdmin(input: NewEnterpriseInput) {
      if (!SHA256_HEX.test(input.adminPasswordDigest)) throw new Error('adminPasswordDigest must be SHA-256 hex');
      if (await repo.findByAccount(input.adminAccount)) throw new AppError(ErrorCode.INVALID_PARAMS, `账号 ${input.adminAccount} 已存在`);
      return repo.createEnterpriseWithAdmin({
        enterprise: {
          name: input.enterpriseName,
          kind: input.enterpriseKind,
          contact_name: input.contactName ?? null,
          contact_phone: input.contactPhone ?? null,
          consultant_name: input.consultantName ?? null,
          consultant_phone: input.consultantPhone ?? null,
        },
        admin: {
          account: input.adminAccount,
          password_hash: await hashPassword(input.adminPasswordDigest),
          name: input.adminName,
          mobile_phone: input.adminMobilePhone ?? null,
          email: input.adminEmail ?? null,
        },
        now: now(),
      });
    },

    async login(request: LoginRequest): Promise<{ token: string; expires_at: number }> {
      const at = now();
      // Counted before the password is checked, so parallel guesses cannot outrun the limit.
      const attempt = await throttle.reserve(request.account, request.ip, at);
      const found = await repo.findByAccount(request.account);
      const digestValid = SHA256_HEX.test(request.passwordDigest);
      let passwordOk = false;
      if (found && digestValid) passwordOk = await verifyPasswordDigest(request.passwordDigest, found.password_hash);
      else await spendEqualTime(request.passwordDigest);

      if (!found || !passwordOk) {
        await throttle.failAndWait(attempt);
        throw new AppError(ErrorCode.LOGIN_FAILED);
      }
      await attempt.succeeded();
      if (found.status !== 0) throw new AppError(ErrorCode.ACCOUNT_DISABLED);

      const token = randomBytes(32).toString('base64url');
      const absoluteExpiresAt = at + policy.absoluteMs;
      await repo.insertSession({
        token_hash: hashToken(token),
        account_id: found.id,
        created_at: at,
        last_seen_at: at,
        absolute_expires_at: absoluteExpiresAt,
        ip: request.ip.slice(0, 64),
        user_agent: request.userAgent?.slice(0, 255) ?? null,
      });
      await repo.setLastLogin(found.id, at);
      return { token, expires_at: absoluteExpiresAt };
    },

    /** The account behind a token, or null when it is unknown, expired, revoked or disabled. */
    async authenticate(token: string | undefined): Promise<AuthenticatedAccount | null> {
      if (!token || token.length > 200) return null;
      const session = await repo.findSessionByHash(hashToken(token));
      if (!session) return null;
      const at = now();
      const expired =
        session.revoked_at !== null ||
        at >= session.absolute_expires_at ||
        at >= session.last_seen_at + policy.idleMs ||
        session.account_status !== 0 ||
        session.enterprise_status !== 0;
      if (expired) return null;
      if (at - session.last_seen_at > TOUCH_INTERVAL_MS) await repo.touchSession(session.id, at);
      return { accountId: session.account_id, enterpriseId: session.enterprise_id, account: session.account, sessionId: session.id, role: session.role };
    },

    async logout(sessionId: number): Promise<void> {
      await repo.revokeSession(sessionId, now());
    },

    /** Ends the session of a token, when it is still live (logout needs no live session). */
    async logoutToken(token: string | undefined): Promise<void> {
      const session = await this.authenticate(token);
      if (session) await repo.revokeSession(session.sessionId, now());
    },

    async userInfo(accountId: number) {
      const profile = await repo.findProfile(accountId);
      if (!profile) throw new AppError(ErrorCode.NOT_LOGGED_IN);
      // 上次登录 is the login before this one: the latest login is the caller's own session.
      const previousLoginAt = await repo.previousLoginAt(accountId);
      return {
        account_id: profile.account_id,
        account: profile.account,
        name: profile.name,
        mobile_phone: profile.mobile_phone ? maskMobilePhone(profile.mobile_phone) : null,
        email: profile.email,
        role: profile.role,
        last_login_at: previousLoginAt,
        enterprise: {
          enterprise_id: profile.enterprise_id,
          name: profile.enterprise_name,
          kind: profile.enterprise_kind,
          kind_label: ENTERPRISE_KIND_LABELS[profile.enterprise_kind as keyof typeof ENTERPRISE_KIND_LABELS] ?? profile.enterprise_kind,
        },
      };
    },

    async consultantOf(accountId: number) {
      const profile = await repo.findProfile(accountId);
      if (!profile) throw new AppError(ErrorCode.NOT_LOGGED_IN);
      return profile.consultant_name ? { name: profile.consultant_name, phone: profile.consultant_phone } : null;
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
