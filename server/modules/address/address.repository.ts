// Address book queries, always scoped to one enterprise. Writes run in one
// transaction that first takes the enterprise's row lock on PostgreSQL, so
// the per-kind limit and the single default hold when two saves race
// (SQLite already runs one writer at a time).
import { type Kysely, PostgresAdapter, type Transaction } from 'kysely';
import type { AddressKind } from '../../../common/address.ts';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface AddressFields {
  kind: AddressKind;
  company_name: string | null;
  name: string;
  mobile_phone: string;
  province_code: string;
  city_code: string;
  county_code: string;
  detail: string;
  is_default: boolean;
}

export function createAddressRepository(db: Kysely<Database>) {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  async function lockEnterprise(trx: Transaction<Database>, enterpriseId: number): Promise<void> {
    if (isPostgres) await trx.selectFrom('enterprise').select('id').where('id', '=', enterpriseId).forUpdate().execute();
  }

  function clearDefault(trx: Transaction<Database>, enterpriseId: number, kind: AddressKind, at: number) {
    return trx
      .updateTable('address')
      .set({ is_default: 0, updated_at: at })
      .where('enterprise_id', '=', enterpriseId)
      .where('kind', '=', kind)
      .where('is_default', '=', 1)
      .execute();
  }

  function countOf(trx: Db, enterpriseId: number, kind: AddressKind) {
    return trx
      .selectFrom('address')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('enterprise_id', '=', enterpriseId)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }

  return {
    list(enterpriseId: number, kind: AddressKind) {
      return db
        .selectFrom('address')
        .selectAll()
        .where('enterprise_id', '=', enterpriseId)
        .where('kind', '=', kind)
        .orderBy('is_default', 'desc')
        .orderBy('updated_at', 'desc')
        .orderBy('address_id', 'desc')
        .execute();
    },

    find(enterpriseId: number, addressId: number) {
      return db.selectFrom('address').selectAll().where('address_id', '=', addressId).where('enterprise_id', '=', enterpriseId).executeTakeFirst();
    },

    /**
     * A new address, unless the kind already holds `limit` (then null). The
     * first address of a kind becomes its default.
     */
    insert(enterpriseId: number, accountId: number, fields: AddressFields, limit: number, at: number): Promise<number | null> {
      return db.transaction().execute(async (trx) => {
        await lockEnterprise(trx, enterpriseId);
        const count = await countOf(trx, enterpriseId, fields.kind);
        if (count >= limit) return null;
        const isDefault = fields.is_default || count === 0;
        if (isDefault) await clearDefault(trx, enterpriseId, fields.kind, at);
        const { address_id } = await trx
          .insertInto('address')
          .values({ ...fields, is_default: isDefault ? 1 : 0, enterprise_id: enterpriseId, account_id: accountId, created_at: at, updated_at: at })
          .returning('address_id')
          .executeTakeFirstOrThrow();
        return address_id;
      });
    },

    /** False when the address is not this enterprise's (or not of this kind). */
    update(enterpriseId: number, addressId: number, fields: AddressFields, at: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await lockEnterprise(trx, enterpriseId);
        const current = await trx
          .selectFrom('address')
          .select(['address_id', 'is_default'])
          .where('address_id', '=', addressId)
          .where('enterprise_id', '=', enterpriseId)
          .where('kind', '=', fields.kind)
          .executeTakeFirst();
        if (!current) return false;
        if (fields.is_default) await clearDefault(trx, enterpriseId, fields.kind, at);
        await trx
          .updateTable('address')
          .set({ ...fields, is_default: fields.is_default ? 1 : 0, updated_at: at })
          .where('address_id', '=', addressId)
          .execute();
        return true;
      });
    },

    async remove(enterpriseId: number, addressId: number): Promise<boolean> {
      const result = await db.deleteFrom('address').where('address_id', '=', addressId).where('enterprise_id', '=', enterpriseId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

export type AddressRepository = ReturnType<typeof createAddressRepository>;
export type AddressRow = NonNullable<Awaited<ReturnType<AddressRepository['find']>>>;
