import type { Kysely } from 'kysely';
import { prepared } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

export function createAccountRepository(db: Kysely<Database>) {
  return {
    findByAccount(account: string) {
      return db.selectFrom('account').selectAll().where('account', '=', account).executeTakeFirst();
    },

    findProfile(accountId: number) {
      return db
        .selectFrom('account')
        .innerJoin('enterprise', 'enterprise.id', 'account.enterprise_id')
        .select([
          'account.id as account_id',
          'account.account',
          'account.name',
          'account.mobile_phone',
          'account.email',
          'account.role',
          'account.last_login_at',
          'enterprise.id as enterprise_id',
          'enterprise.name as enterprise_name',
          'enterprise.kind as enterprise_kind',
          'enterprise.consultant_name',
          'enterprise.consultant_phone',
        ])
        .where('account.id', '=', accountId)
        .executeTakeFirst();
    },

    async createEnterpriseWithAdmin(input: {
      enterprise: {
        name: string;
        kind: string;
        contact_name: string | null;
        contact_phone: string | null;
        consultant_name: string | null;
        consultant_phone: string | null;
      };
      admin: { account: string; password_hash: string; name: string; mobile_phone: string | null; email: string | null };
      now: number;
    }) {
      return db.transaction().execute(async (trx) => {
        const enterprise = await trx
          .insertInto('enterprise')
          .values({ ...input.enterprise, status: 0, created_at: input.now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const account = await trx
          .insertInto('account')
          .values({ ...input.admin, enterprise_id: enterprise.id, role: 'admin', status: 0, created_at: input.now })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { enterpriseId: enterprise.id, accountId: account.id };
      });
    },

    /** When the account logged in before its latest login: the second newest session's start. */
    async previousLoginAt(accountId: number): Promise<number | null> {
      const row = await db
        .selectFrom('account_session')
        .select('created_at')
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .offset(1)
        .executeTakeFirst();
      return row ? Number(row.created_at) : null;
    },

    setLastLogin(accountId: number, at: number) {
      return db.updateTable('account').set({ last_login_at: at }).where('id', '=', accountId).execute();
    },

    insertSession(values: {
      token_hash: string;
      account_id: number;
      created_at: number;
      last_seen_at: number;
      absolute_expires_at: number;
      ip: string | null;
      user_agent: string | null;
    }) {
      return db.insertInto('account_session').values(values).returning('id').executeTakeFirstOrThrow();
    },

    findSessionByHash(tokenHash: string) {
      return db
        .selectFrom('account_session')
        .innerJoin('account', 'account.id', 'account_session.account_id')
        .innerJoin('enterprise', 'enterprise.id', 'account.enterprise_id')
        .select([
          'account_session.id',
          'account_session.account_id',
          'account_session.last_seen_at',
          'account_session.absolute_expires_at',
          'account_session.revoked_at',
          'account.account',
          'account.enterprise_id',
          'account.role',
          'account.status as account_status',
          'enterprise.status as enterprise_status',
        ])
        .where('account_session.token_hash', '=', tokenHash)
        .modifyEnd(prepared)
        .executeTakeFirst();
    },

    touchSession(sessionId: number, at: number) {
      return db.updateTable('account_session').set({ last_seen_at: at }).where('id', '=', sessionId).execute();
    },

    revokeSession(sessionId: number, at: number) {
      return db.updateTable('account_session').set({ revoked_at: at }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
