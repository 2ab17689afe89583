// Operators: the visa service's staff (never customer accounts). Login is the
// password (its SHA-256 digest, slow-hashed with scrypt as for customers) plus a
// TOTP code; an operator without a second factor (new from a supervisor's
// reset) enrols one at login: the first answer shows a new secret, the second
// must carry a code from it. Sessions: hashed tokens, idle and absolute
// expiry, revoked at logout, when disabled and when the second factor is
// reset. Failed logins are throttled like customers' (login-throttle.ts),
// under keys of their own. decision 0017.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import {
  OPERATOR_ROLE_LABELS,
  OPERATOR_STATUS_LABELS,
  type OperatorInfo,
  type OperatorLoginResult,
  type OperatorRow,
} from '../../../common/contracts/operator.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { Database, OperatorRoleValue, OperatorStatusValue } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import { createLoginThrottle } from '../account/login-throttle.ts';
import { SHA256_HEX, hashPasswordDigest, spendEqualTime, verifyPasswordDigest } from '../account/password.ts';
import { createOperatorRepository } from './operator.repository.ts';
import type { AuthenticatedOperator } from './operator.types.ts';
import { matchTotp, newTotpSecret, otpauthUri } from './totp.ts';

export interface OperatorSessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export interface OperatorLoginRequest {
  account: string;
  passwordDigest: string;
  code?: string;
  ip: string;
  userAgent: string | null;
}

export interface NewOperatorInput {
  account: string;
  name: string;
  role: OperatorRoleValue;
  passwordDigest: string;
  /** A fixed secret (demo seed, tests); a new random one otherwise. */
  totpSecret?: string;
}

/** What a login decides: the contract's answer, and on success the session's token (the routes put it in the cookie only). */
export type OperatorLoginOutcome = Exclude<OperatorLoginResult, { next: 'done' }> | (Extract<OperatorLoginResult, { next: 'done' }> & { token: string });

/** Sessions are touched at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What an authenticator app needs: the secret, its otpauth URI and that URI as a QR code image. */
async function enrolment(secret: string, account: string) {
  const uri = otpauthUri(secret, account);
  return { secret, otpauth_uri: uri, qr_image: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 220 }) };
}

function infoOf(row: { id: number; account: string; name: string; role: OperatorRoleValue }): OperatorInfo {
  return { operator_id: row.id, account: row.account, name: row.name, role: row.role, role_label: OPERATOR_ROLE_LABELS[row.role] };
}

export function createOperatorService(db: Kysely<Database>, policy: OperatorSessionPolicy, now: () => number = Date.now) {
  const repo = createOperatorRepository(db);
  // Operators' keys never meet a customer's, by account or by address.
  const throttle = createLoginThrottle(db, 'operator');

  async function openSession(operatorId: number, ip: string | null, userAgent: string | null): Promise<{ token: string; expires_at: number }> {
    const at = now();
    const token = randomBytes(32).toString('base64url');
    const absoluteExpiresAt = at + policy.absoluteMs;
    await repo.insertSession({
      token_hash: hashToken(token),
      operator_id: operatorId,
      created_at: at,
      last_seen_at: at,
      absolute_expires_at: absoluteExpiresAt,
      ip: ip?.slice(0, 64) ?? null,
      user_agent: userAgent?.slice(0, 255) ?? null,
    });
    return { token, expires_at: absoluteExpiresAt };
  }

  async function findOrThrow(operatorId: number) {
    const found = await repo.findById(operatorId);
    if (!found) throw new AppError(ErrorCode.OPERATOR_NOT_FOUND);
    return found;
  }

  return {
    async create(input: NewOperatorInput): Promise<{ operator_id: number; secret: string; otpauth_uri: string; qr_image: string }> {
      if (!SHA256_HEX.test(input.passwordDigest)) throw new AppError(ErrorCode.INVALID_PARAMS, '密码格式错误');
      if (await repo.findByAccount(input.account)) throw new AppError(ErrorCode.OPERATOR_ACCOUNT_TAKEN);
      const secret = input.totpSecret ?? newTotpSecret();
      const passwordHash = await hashPasswordDigest(input.passwordDigest);
      let id: number;
      try {
        id = await repo.insert({ account: input.account, name: input.name, role: input.role, password_hash: passwordHash, totp_secret: secret, now: now() });
      } catch (error) {
        // Two creations of one account at once: the unique index keeps one.
        if (await repo.findByAccount(input.account)) throw new AppError(ErrorCode.OPERATOR_ACCOUNT_TAKEN);
        throw error;
      }
      return { operator_id: id, ...(await enrolment(secret, input.account)) };
    },

    async login(request: OperatorLoginRequest): Promise<OperatorLoginOutcome> {
      const at = now();
      // Counted before the password or code is checked, so parallel guesses cannot outrun the limit.
      const attempt = await throttle.reserve(request.account, request.ip, at);
      const fail = async (): Promise<never> => {
        await throttle.failAndWait(attempt);
        throw new AppError(ErrorCode.OPERATOR_LOGIN_FAILED);
      };

      const found = await repo.findByAccount(request.account);
      let passwordOk = false;
      if (found && SHA256_HEX.test(request.passwordDigest)) passwordOk = await verifyPasswordDigest(request.passwordDigest, found.password_hash);
      else await spendEqualTime(request.passwordDigest);
      if (!found || !passwordOk) return fail();
      if (found.status !== 'active') {
        // The password was right: not a guess to count.
        await attempt.succeeded();
        throw new AppError(ErrorCode.OPERATOR_DISABLED);
      }

      if (found.totp_secret === null) {
        // Enrolment: the password alone shows the (same) pending secret until a code from it is confirmed.
        if (!request.code) {
          const secret = found.totp_pending_secret ?? newTotpSecret();
          if (!found.totp_pending_secret) await repo.setPendingSecret(found.id, secret, at);
          await attempt.succeeded();
          return { next: 'enroll', ...(await enrolment(secret, found.account)) };
        }
        const pending = found.totp_pending_secret;
        const step = pending ? matchTotp(pending, request.code, at, null) : null;
        if (pending === null || step === null || !(await repo.confirmPendingSecret(found.id, pending, step, at))) return fail();
      } else {
        const step = request.code ? matchTotp(found.totp_secret, request.code, at, found.totp_last_step) : null;
        // useStep: a code already used (even by a login running at the same moment) is refused.
        if (step === null || !(await repo.useStep(found.id, step))) return fail();
      }

      await attempt.succeeded();
      const session = await openSession(found.id, request.ip, request.userAgent);
      await repo.setLastLogin(found.id, at);
      return { next: 'done', ...session, operator: infoOf(found) };
    },

    /** The operator behind a token, or null when it is unknown (a customer's token too), expired, revoked or disabled. */
    async authenticate(token: string | undefined): Promise<AuthenticatedOperator | null> {
      if (!token || token.length > 200) return null;
      const session = await repo.findSessionByHash(hashToken(token));
      if (!session) return null;
      const at = now();
      const expired =
        session.revoked_at !== null || at >= session.absolute_expires_at || at >= session.last_seen_at + policy.idleMs || session.operator_status !== 'active';
      if (expired) return null;
      if (at - session.last_seen_at > TOUCH_INTERVAL_MS) await repo.touchSession(session.id, at);
      return { operatorId: session.operator_id, role: session.role, account: session.account, name: session.name, sessionId: session.id };
    },

    /** A session for an operator, as a successful login opens (the login itself and test support). */
    openSession,

    /** Ends the session of a token, when it is still live (logout needs no live session). */
    async logoutToken(token: string | undefined): Promise<void> {
      const session = await this.authenticate(token);
      if (session) await this.logout(session.sessionId);
    },

    async logout(sessionId: number): Promise<void> {
      await repo.revokeSession(sessionId, now());
    },

    async me(caller: Operator): Promise<OperatorInfo> {
      const found = await repo.findById(caller.operatorId);
      if (!found) throw new AppError(ErrorCode.NOT_LOGGED_IN);
      return infoOf(found);
    },

    async list(): Promise<OperatorRow[]> {
      const rows = await repo.list();
      return rows.map((row) => ({
        ...infoOf(row),
        status: row.status,
        status_label: OPERATOR_STATUS_LABELS[row.status],
        totp_enrolled: row.totp_secret !== null,
        last_login_at: row.last_login_at,
        created_at: row.created_at,
      }));
    },

    /** Disables (ending every session) or enables an operator; a supervisor never disables themself. */
    async setStatus(caller: Operator, operatorId: number, status: OperatorStatusValue): Promise<void> {
      const found = await findOrThrow(operatorId);
      if (found.id === caller.operatorId) throw new AppError(ErrorCode.OPERATOR_SELF_CHANGE);
      const at = now();
      await repo.setStatus(found.id, status, at);
      if (status === 'disabled') await repo.revokeSessionsOf(found.id, at);
    },

    /** The recovery path for a lost device: the second factor is forgotten and every session ends; the next login enrols a new one. */
    async resetTotp(caller: Operator, operatorId: number): Promise<void> {
      const found = await findOrThrow(operatorId);
      if (found.id === caller.operatorId) throw new AppError(ErrorCode.OPERATOR_SELF_CHANGE);
      const at = now();
      await repo.resetTotp(found.id, at);
      await repo.revokeSessionsOf(found.id, at);
    },

    async exists(account: string): Promise<boolean> {
      return Boolean(await repo.findByAccount(account));
    },

    /** The stored secret (CLI `operator:otp` prints the current code from it); null when not enrolled. */
    async secretOf(account: string): Promise<string | null> {
      const found = await repo.findByAccount(account);
      if (!found) throw new AppError(ErrorCode.OPERATOR_NOT_FOUND);
      return found.totp_secret;
    },
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
