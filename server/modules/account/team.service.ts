// Teams (issue 29): the enterprise administrator's colleagues. Each colleague
// is an account of the enterprise with a role (common/team.ts) and their own
// login, throttling and sessions (account.service.ts). An invited colleague
// is an account with status 2 and no usable password until they open the
// link and set one; an administrator's password reset works the same way
// (the old password stops working, the colleague's sessions end, a link lets
// them choose a new one). Links are e-mailed through the notices' outbox
// (written in the same transaction, sent after the commit); a colleague
// without an e-mail address (invited by mobile: there is no SMS yet) gets no
// message, and the administrator is shown the link to pass on.
//
// Every read and write is scoped to the caller's enterprise: another
// enterprise's account is 2502 like a missing one. The last active
// administrator can be neither disabled nor given another role (an
// administrator may step down or disable themselves while another remains);
// the enterprise's row is locked first (PostgreSQL) and the caller checked
// again under the lock, so two administrators disabling each other at once
// cannot both succeed. There is no deleting a colleague: their orders and
// records keep naming them, so 移除 is 停用.
import { createHash, randomBytes } from 'node:crypto';
import { type Kysely, PostgresAdapter, type Transaction } from 'kysely';
import type { LinkDelivery, TeamMember } from '../../../common/contracts/team.ts';
import { EMAIL_PATTERN, MOBILE_PHONE_PATTERN } from '../../../common/contracts/rules.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import {
  ACCOUNT_STATUS,
  INVITATION_TTL_MS,
  MEMBER_STATUS_LABELS,
  type MemberStatus,
  refusalMessage,
  roleMay,
  type TeamRole,
  teamRoleLabel,
} from '../../../common/team.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/html.ts';
import type { Customer } from '../../platform/principal.ts';
import { SITE_TOKEN } from '../order-notices/notice-kinds.ts';
import { queueNoticeEmail } from '../order-notices/notice-store.ts';
import { hashPasswordDigest, SHA256_HEX } from './password.ts';

/** A password_hash no digest verifies against (verifyPasswordDigest wants scrypt$…): invited, or reset and not yet chosen. */
const NO_PASSWORD = '!none';

/** The join page; the token travels in the fragment, so it reaches neither the server's logs nor a Referer. */
export const JOIN_PATH = '/team/join';

const NAME_MAX = 20;
const ACCOUNT_MAX = 50;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function statusOf(status: number): MemberStatus {
  if (status === ACCOUNT_STATUS.disabled) return 'disabled';
  if (status === ACCOUNT_STATUS.invited) return 'invited';
  return 'active';
}

/** A mobile number (11 digits) or an e-mail address (lower-cased), as the colleague's login. */
export function parseContact(raw: string): { kind: 'mobile' | 'email'; value: string } {
  const value = raw.trim().replace(/\s+/g, '');
  if (MOBILE_PHONE_PATTERN.test(value)) return { kind: 'mobile', value };
  const email = value.toLowerCase();
  if (EMAIL_PATTERN.test(email) && email.length <= ACCOUNT_MAX) return { kind: 'email', value: email };
  throw new AppError(ErrorCode.TEAM_CONTACT_INVALID);
}

export interface TeamDeps {
  now: () => number;
  /** The public origin a link shown to the administrator starts with (PUBLIC_SITE_URL). */
  siteUrl: string;
  /** Runs the e-mail outbox after a commit that queued an e-mail. */
  afterMailQueued?: () => void;
  hashPassword?: (digest: string) => Promise<string>;
}

export function createTeamService(db: Kysely<Database>, deps: TeamDeps) {
  const { now } = deps;
  const hashPassword = deps.hashPassword ?? hashPasswordDigest;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  async function lockEnterprise(trx: Transaction<Database>, enterpriseId: number) {
    if (postgres) await trx.selectFrom('enterprise').select('id').where('id', '=', enterpriseId).forUpdate().execute();
  }

  /** The caller is an active administrator (the session hook checked the role already; this holds for in-process reads too). */
  async function assertAdmin(caller: Customer, trx: Kysely<Database> = db) {
    const row = await trx.selectFrom('account').select(['role', 'status']).where('id', '=', caller.accountId).executeTakeFirst();
    if (!row || row.status !== ACCOUNT_STATUS.active || !roleMay(row.role, 'team')) {
      throw new AppError(ErrorCode.TEAM_ROLE_FORBIDDEN, refusalMessage(row?.role ?? '', 'team'));
    }
  }

  /** A colleague of the caller's enterprise, or 2502. */
  async function memberOf(trx: Kysely<Database>, caller: Customer, accountId: number) {
    const row = await trx.selectFrom('account').selectAll().where('id', '=', accountId).where('enterprise_id', '=', caller.enterpriseId).executeTakeFirst();
    if (!row) throw new AppError(ErrorCode.TEAM_MEMBER_NOT_FOUND);
    return row;
  }

  /** Other active administrators of the enterprise than this account. */
  async function otherActiveAdmins(trx: Kysely<Database>, enterpriseId: number, accountId: number): Promise<number> {
    const row = await trx
      .selectFrom('account')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('enterprise_id', '=', enterpriseId)
      .where('role', '=', 'admin')
      .where('status', '=', ACCOUNT_STATUS.active)
      .where('id', '!=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function endSessions(trx: Kysely<Database>, accountId: number, at: number) {
    await trx.updateTable('account_session').set({ revoked_at: at }).where('account_id', '=', accountId).where('revoked_at', 'is', null).execute();
  }

  /**
   * A new link for the account (the older unused ones stop working), and its
   * e-mail when the account has an address; otherwise the link is answered
   * for the administrator to pass on.
   */
  async function issueLink(
    trx: Transaction<Database>,
    input: { caller: Customer; account: { id: number; name: string; account: string; email: string | null }; purpose: 'invite' | 'reset'; role: string },
  ): Promise<LinkDelivery & { queued: boolean }> {
    const at = now();
    await trx
      .updateTable('account_invitation')
      .set({ revoked_at: at })
      .where('account_id', '=', input.account.id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = at + INVITATION_TTL_MS;
    await trx
      .insertInto('account_invitation')
      .values({
        account_id: input.account.id,
        enterprise_id: input.caller.enterpriseId,
        purpose: input.purpose,
        token_hash: hashToken(token),
        created_by: input.caller.accountId,
        created_at: at,
        expires_at: expiresAt,
        used_at: null,
        revoked_at: null,
      })
      .execute();
    const path = `${JOIN_PATH}#${token}`;
    if (!input.account.email) {
      return { account_id: input.account.id, channel: 'manual', link: `${deps.siteUrl.replace(/\/+$/, '')}${path}`, expires_at: expiresAt, queued: false };
    }
    const sender = await trx
      .selectFrom('account')
      .innerJoin('enterprise', 'enterprise.id', 'account.enterprise_id')
      .select(['account.name as sender', 'enterprise.name as enterprise'])
      .where('account.id', '=', input.caller.accountId)
      .executeTakeFirstOrThrow();
    const invite = input.purpose === 'invite';
    const title = invite ? `${sender.enterprise}邀请您加入易签通` : '您的易签通密码已被重置';
    const body = invite
      ? `${sender.sender}邀请您以${teamRoleLabel(input.role)}身份加入${sender.enterprise}。请打开邮件中的链接设置密码，链接 72 小时内有效。`
      : `${sender.sender}重置了您的密码。请打开邮件中的链接设置新密码，链接 72 小时内有效。`;
    const url = `${SITE_TOKEN}${path}`;
    const notice = await trx
      .insertInto('notice')
      .values({
        recipient_kind: 'customer',
        recipient_id: input.account.id,
        kind: invite ? 'team_invitation' : 'team_password_reset',
        user_order_id: null,
        title,
        body,
        // The in-app notice never holds the token.
        link: '/user/personal-center',
        order_event_id: null,
        read_at: null,
        created_at: at,
      })
      .returning('notice_id')
      .executeTakeFirstOrThrow();
    const lines = [`${input.account.name}，您好：`, body, `登录账号：${input.account.account}`, `设置密码：${url}`, '如果您不认识发件企业，请忽略本邮件。'];
    await queueNoticeEmail(
      trx,
      {
        notice_id: notice.notice_id,
        to_address: input.account.email,
        subject: title,
        text: lines.join('\n\n'),
        html: [
          `<p>${escapeHtml(lines[0]!)}</p>`,
          `<p>${escapeHtml(body)}</p>`,
          `<p>登录账号：<strong>${escapeHtml(input.account.account)}</strong></p>`,
          `<p><a href="${url}">设置密码</a></p>`,
          `<p>若按钮无法打开，请复制此链接到浏览器：<br>${url}</p>`,
          `<p style="color:#888">${escapeHtml(lines[4]!)}</p>`,
        ].join('\n'),
      },
      at,
    );
    return { account_id: input.account.id, channel: 'email', link: null, expires_at: expiresAt, queued: true };
  }

  function delivered(result: LinkDelivery & { queued: boolean }): LinkDelivery {
    if (result.queued) deps.afterMailQueued?.();
    const { queued: _queued, ...answer } = result;
    return answer;
  }

  /** The open link of a token, checked: 2509 unknown/used/replaced, 2510 expired, 1303 the colleague was disabled since. */
  async function openLink(trx: Kysely<Database>, token: string, at: number) {
    const row = await trx
      .selectFrom('account_invitation')
      .innerJoin('account', 'account.id', 'account_invitation.account_id')
      .innerJoin('enterprise', 'enterprise.id', 'account_invitation.enterprise_id')
      .select([
        'account_invitation.invitation_id',
        'account_invitation.purpose',
        'account_invitation.expires_at',
        'account_invitation.used_at',
        'account_invitation.revoked_at',
        'account.id as account_id',
        'account.account',
        'account.name',
        'account.role',
        'account.status',
        'enterprise.name as enterprise_name',
        'enterprise.status as enterprise_status',
      ])
      .where('account_invitation.token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row || row.used_at !== null || row.revoked_at !== null) throw new AppError(ErrorCode.TEAM_INVITATION_INVALID);
    if (at >= Number(row.expires_at)) throw new AppError(ErrorCode.TEAM_INVITATION_EXPIRED);
    if (row.status === ACCOUNT_STATUS.disabled || row.enterprise_status !== 0) throw new AppError(ErrorCode.ACCOUNT_DISABLED);
    return row;
  }

  return {
    async list(caller: Customer): Promise<{ members: TeamMember[] }> {
      await assertAdmin(caller);
      const at = now();
      const rows = await db
        .selectFrom('account')
        .select(['id', 'account', 'name', 'mobile_phone', 'email', 'role', 'status', 'last_login_at', 'created_at'])
        .where('enterprise_id', '=', caller.enterpriseId)
        .orderBy('id')
        .execute();
      const links = await db
        .selectFrom('account_invitation')
        .select(['account_id', 'expires_at'])
        .where('enterprise_id', '=', caller.enterpriseId)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', at)
        .execute();
      const linkOf = new Map(links.map((link) => [link.account_id, Number(link.expires_at)]));
      return {
        members: rows.map((row) => {
          const status = statusOf(row.status);
          return {
            account_id: row.id,
            account: row.account,
            name: row.name,
            mobile_phone: row.mobile_phone,
            email: row.email,
            role: row.role,
            role_label: teamRoleLabel(row.role),
            status,
            status_label: MEMBER_STATUS_LABELS[status],
            last_login_at: row.last_login_at === null ? null : Number(row.last_login_at),
            created_at: Number(row.created_at),
            is_self: row.id === caller.accountId,
            link_expires_at: linkOf.get(row.id) ?? null,
          };
        }),
      };
    },

    async invite(caller: Customer, input: { name: string; contact: string; role: TeamRole }): Promise<LinkDelivery> {
      await assertAdmin(caller);
      const name = input.name.trim().replace(/\s+/g, ' ');
      if (!name || [...name].length > NAME_MAX) throw new AppError(ErrorCode.TEAM_NAME_INVALID);
      const contact = parseContact(input.contact);
      const result = await db.transaction().execute(async (trx) => {
        const taken = await trx.selectFrom('account').select('id').where('account', '=', contact.value).executeTakeFirst();
        if (taken) throw new AppError(ErrorCode.TEAM_CONTACT_TAKEN);
        const created = await trx
          .insertInto('account')
          .values({
            enterprise_id: caller.enterpriseId,
            account: contact.value,
            password_hash: NO_PASSWORD,
            name,
            mobile_phone: contact.kind === 'mobile' ? contact.value : null,
            email: contact.kind === 'email' ? contact.value : null,
            role: input.role,
            status: ACCOUNT_STATUS.invited,
            created_at: now(),
            last_login_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return issueLink(trx, {
          caller,
          account: { id: created.id, name, account: contact.value, email: contact.kind === 'email' ? contact.value : null },
          purpose: 'invite',
          role: input.role,
        });
      });
      return delivered(result);
    },

    async resendInvitation(caller: Customer, accountId: number): Promise<LinkDelivery> {
      await assertAdmin(caller);
      const result = await db.transaction().execute(async (trx) => {
        const member = await memberOf(trx, caller, accountId);
        if (member.status !== ACCOUNT_STATUS.invited) throw new AppError(ErrorCode.TEAM_MEMBER_STATE);
        return issueLink(trx, { caller, account: member, purpose: 'invite', role: member.role });
      });
      return delivered(result);
    },

    async resetPassword(caller: Customer, accountId: number): Promise<LinkDelivery> {
      await assertAdmin(caller);
      if (accountId === caller.accountId) throw new AppError(ErrorCode.TEAM_SELF_CHANGE);
      const result = await db.transaction().execute(async (trx) => {
        const member = await memberOf(trx, caller, accountId);
        if (member.status !== ACCOUNT_STATUS.active) throw new AppError(ErrorCode.TEAM_MEMBER_STATE);
        const at = now();
        await trx.updateTable('account').set({ password_hash: NO_PASSWORD }).where('id', '=', member.id).execute();
        await endSessions(trx, member.id, at);
        return issueLink(trx, { caller, account: member, purpose: 'reset', role: member.role });
      });
      return delivered(result);
    },

    async updateRole(caller: Customer, accountId: number, role: TeamRole): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await lockEnterprise(trx, caller.enterpriseId);
        // Under the lock: of two administrators changing each other at once, the second finds itself changed.
        await assertAdmin(caller, trx);
        const member = await memberOf(trx, caller, accountId);
        if (member.role === role) return;
        if (member.role === 'admin' && member.status === ACCOUNT_STATUS.active && (await otherActiveAdmins(trx, caller.enterpriseId, member.id)) === 0) {
          throw new AppError(ErrorCode.TEAM_LAST_ADMIN);
        }
        await trx.updateTable('account').set({ role }).where('id', '=', member.id).execute();
      });
    },

    /** Disables a colleague: their sessions end now, their open link stops working; their orders stay the enterprise's. */
    async disable(caller: Customer, accountId: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await lockEnterprise(trx, caller.enterpriseId);
        await assertAdmin(caller, trx);
        const member = await memberOf(trx, caller, accountId);
        if (member.status === ACCOUNT_STATUS.disabled) throw new AppError(ErrorCode.TEAM_MEMBER_STATE);
        if (member.role === 'admin' && member.status === ACCOUNT_STATUS.active && (await otherActiveAdmins(trx, caller.enterpriseId, member.id)) === 0) {
          throw new AppError(ErrorCode.TEAM_LAST_ADMIN);
        }
        const at = now();
        await trx.updateTable('account').set({ status: ACCOUNT_STATUS.disabled }).where('id', '=', member.id).execute();
        await endSessions(trx, member.id, at);
        await trx
          .updateTable('account_invitation')
          .set({ revoked_at: at })
          .where('account_id', '=', member.id)
          .where('used_at', 'is', null)
          .where('revoked_at', 'is', null)
          .execute();
      });
    },

    /** Enables a disabled colleague again: active with the password they had, or invited when they never set one (resend the invitation). */
    async enable(caller: Customer, accountId: number): Promise<void> {
      await assertAdmin(caller);
      await db.transaction().execute(async (trx) => {
        const member = await memberOf(trx, caller, accountId);
        if (member.status !== ACCOUNT_STATUS.disabled) throw new AppError(ErrorCode.TEAM_MEMBER_STATE);
        const status = member.password_hash === NO_PASSWORD && member.last_login_at === null ? ACCOUNT_STATUS.invited : ACCOUNT_STATUS.active;
        await trx.updateTable('account').set({ status }).where('id', '=', member.id).execute();
      });
    },

    async invitation(token: string) {
      const row = await openLink(db, token, now());
      return {
        purpose: row.purpose,
        enterprise_name: row.enterprise_name,
        name: row.name,
        account: row.account,
        role_label: teamRoleLabel(row.role),
        expires_at: Number(row.expires_at),
      };
    },

    /** Sets the colleague's password from a link (once): an invited colleague becomes active. */
    async accept(token: string, passwordDigest: string): Promise<{ account: string }> {
      if (!SHA256_HEX.test(passwordDigest)) throw new AppError(ErrorCode.INVALID_PARAMS, '参数错误：password 须为 SHA-256 十六进制摘要');
      const at = now();
      // Checked before the slow hash, so a bad token costs nothing.
      await openLink(db, token, at);
      const hash = await hashPassword(passwordDigest);
      return db.transaction().execute(async (trx) => {
        const row = await openLink(trx, token, now());
        const used = await trx
          .updateTable('account_invitation')
          .set({ used_at: now() })
          .where('invitation_id', '=', row.invitation_id)
          .where('used_at', 'is', null)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) throw new AppError(ErrorCode.TEAM_INVITATION_INVALID);
        await trx
          .updateTable('account')
          .set({ password_hash: hash, status: ACCOUNT_STATUS.active })
          .where('id', '=', row.account_id)
          .where('status', '!=', ACCOUNT_STATUS.disabled)
          .execute();
        await endSessions(trx, row.account_id, now());
        // The notice that announced the link has done its work.
        await trx
          .updateTable('notice')
          .set({ read_at: now() })
          .where('recipient_kind', '=', 'customer')
          .where('recipient_id', '=', row.account_id)
          .where('kind', 'in', ['team_invitation', 'team_password_reset'])
          .where('read_at', 'is', null)
          .execute();
        return { account: row.account };
      });
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
