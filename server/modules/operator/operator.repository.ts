// The operator and operator_session tables.
import type { Kysely } from 'kysely';
import type { Database, OperatorRoleValue, OperatorStatusValue } from '../../db/schema.ts';

export function createOperatorRepository(db: Kysely<Database>) {
  return {
    findByAccount(account: string) {
      return db.selectFrom('operator').selectAll().where('account', '=', account).executeTakeFirst();
    },

    findById(id: number) {
      return db.selectFrom('operator').selectAll().where('id', '=', id).executeTakeFirst();
    },

    list() {
      return db.selectFrom('operator').selectAll().orderBy('id').execute();
    },

    async insert(values: { account: string; name: string; role: OperatorRoleValue; password_hash: string; totp_secret: string | null; now: number }) {
      const row = await db
        .insertInto('operator')
        .values({
          account: values.account,
          name: values.name,
          role: values.role,
          password_hash: values.password_hash,
          totp_secret: values.totp_secret,
          totp_pending_secret: null,
          totp_last_step: null,
          status: 'active',
          last_login_at: null,
          created_at: values.now,
          updated_at: values.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async setPendingSecret(id: number, secret: string, at: number) {
      await db.updateTable('operator').set({ totp_pending_secret: secret, updated_at: at }).where('id', '=', id).where('totp_secret', 'is', null).execute();
    },

    /** Makes the pending secret the operator's, once, if it is still the one the code matched. */
    async confirmPendingSecret(id: number, secret: string, step: number, at: number): Promise<boolean> {
      const result = await db
        .updateTable('operator')
        .set({ totp_secret: secret, totp_pending_secret: null, totp_last_step: step, updated_at: at })
        .where('id', '=', id)
        .where('totp_secret', 'is', null)
        .where('totp_pending_secret', '=', secret)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Records the accepted step unless that step (or a later one) was already used: two logins with one code, one wins. */
    async useStep(id: number, step: number): Promise<boolean> {
      const result = await db
        .updateTable('operator')
        .set({ totp_last_step: step })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async setStatus(id: number, status: OperatorStatusValue, at: number) {
      await db.updateTable('operator').set({ status, updated_at: at }).where('id', '=', id).execute();
    },

    /** Forgets the second factor: the next login enrols a new one. */
    async resetTotp(id: number, at: number) {
      await db
        .updateTable('operator')
        .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null, updated_at: at })
        .where('id', '=', id)
        .execute();
    },

    async setLastLogin(id: number, at: number) {
      await db.updateTable('operator').set({ last_login_at: at }).where('id', '=', id).execute();
    },

    async insertSession(values: {
      token_hash: string;
      operator_id: number;
      created_at: number;
      last_seen_at: number;
      absolute_expires_at: number;
      ip: string | null;
      user_agent: string | null;
    }) {
      const row = await db
        .insertInto('operator_session')
        .values({ ...values, revoked_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    findSessionByHash(tokenHash: string) {
      return db
        .selectFrom('operator_session as s')
        .innerJoin('operator as o', 'o.id', 's.operator_id')
        .select([
          's.id',
          's.operator_id',
          's.last_seen_at',
          's.absolute_expires_at',
          's.revoked_at',
          'o.account',
          'o.name',
          'o.role',
          'o.status as operator_status',
        ])
        .where('s.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    async touchSession(sessionId: number, at: number) {
      await db.updateTable('operator_session').set({ last_seen_at: at }).where('id', '=', sessionId).execute();
    },

    async revokeSession(sessionId: number, at: number) {
      await db.updateTable('operator_session').set({ revoked_at: at }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
    },

    /** Ends every live session of an operator (disabled, or second factor reset). */
    async revokeSessionsOf(operatorId: number, at: number) {
      await db.updateTable('operator_session').set({ revoked_at: at }).where('operator_id', '=', operatorId).where('revoked_at', 'is', null).execute();
    },
  };
}

export type OperatorRepository = ReturnType<typeof createOperatorRepository>;
