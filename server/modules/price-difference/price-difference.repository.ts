// The price_difference rows. Their state changes happen inside the
// lifecycle's price_difference_* changes (the `within` of each), so a row and
// its order's columns (price_difference_due / _paid) always move together.
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, PriceDifferenceTable } from '../../db/schema.ts';
import { subFrom } from '../order/lifecycle.ts';

export type PriceDifferenceRow = Selectable<PriceDifferenceTable>;
type Db = Kysely<Database> | Transaction<Database>;

export function createPriceDifferenceRepository(db: Kysely<Database>) {
  return {
    /** Newest first. */
    list(userOrderId: number) {
      return listOf(db, userOrderId);
    },

    find(userOrderId: number, priceDifferenceId: number) {
      return findOf(db, userOrderId, priceDifferenceId);
    },

    /** In the request's transaction; the partial unique index refuses a second open one. */
    async insert(trx: Transaction<Database>, row: Insertable<PriceDifferenceTable>): Promise<number> {
      const { price_difference_id } = await trx.insertInto('price_difference').values(row).returning('price_difference_id').executeTakeFirstOrThrow();
      return price_difference_id;
    },

    /** open → cancelled (the sub-machine's close); false when it is no longer open. */
    async cancel(trx: Transaction<Database>, priceDifferenceId: number, operatorId: number, at: number): Promise<boolean> {
      const result = await trx
        .updateTable('price_difference')
        .set({ status: 'cancelled', cancelled_at: at, cancelled_by: operatorId, updated_at: at })
        .where('price_difference_id', '=', priceDifferenceId)
        .where('status', 'in', subFrom('price_difference', 'close'))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export function listOf(db: Db, userOrderId: number) {
  return db.selectFrom('price_difference').selectAll().where('user_order_id', '=', userOrderId).orderBy('price_difference_id', 'desc').execute();
}

export function findOf(db: Db, userOrderId: number, priceDifferenceId: number) {
  return db
    .selectFrom('price_difference')
    .selectAll()
    .where('user_order_id', '=', userOrderId)
    .where('price_difference_id', '=', priceDifferenceId)
    .executeTakeFirst();
}
