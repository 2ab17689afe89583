// Group commit for the embedded database's busiest write (order_create on
// SQLite, bench:order). Each SQLite COMMIT writes every page the transaction
// dirtied to the WAL: for one order that is a dozen pages (the order, its
// applicants, its event and their indexes), and it was a third of the server's
// CPU per order. Orders placed at the same moment dirty the same pages (the
// right-hand leaves of the same indexes), so writes that arrive in the same
// event-loop turn, or while the previous group is being written, share one
// transaction and one COMMIT. Each write runs in its own savepoint: a write
// that fails is undone alone and fails alone; the others commit. No caller
// hears "done" before the COMMIT that holds its write.
import { type Kysely, sql, type Transaction } from 'kysely';
import { turnBatcher, type Waiting } from '../platform/turn-batch.ts';
import type { Database } from './schema.ts';

/** Most writes in one transaction: bounds how long one COMMIT keeps the others waiting. */
const MAX_GROUP = 64;

export function groupCommit<I, O>(db: Kysely<Database>, write: (trx: Transaction<Database>, input: I) => Promise<O>): (input: I) => Promise<O> {
  async function writeGroup(group: Waiting<I, O>[]): Promise<void> {
    const outcomes: ({ ok: true; output: O } | { ok: false; error: unknown })[] = [];
    // BEGIN or COMMIT failing rejects this promise: nothing of the group is stored, and
    // turnBatcher fails every call of it (none is answered before the COMMIT below).
    await db.transaction().execute(async (trx) => {
      for (const waiting of group) {
        await sql`savepoint group_write`.execute(trx);
        try {
          outcomes.push({ ok: true, output: await write(trx, waiting.input) });
          await sql`release savepoint group_write`.execute(trx);
        } catch (error) {
          await sql`rollback to savepoint group_write`.execute(trx);
          await sql`release savepoint group_write`.execute(trx);
          outcomes.push({ ok: false, error });
        }
      }
    });
    group.forEach((waiting, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) waiting.resolve(outcome.output);
      else waiting.reject(outcome.error);
    });
  }

  // One group out at a time: the writes that come while it is written form the next.
  return turnBatcher(writeGroup, { maxInFlight: 1, maxBatch: MAX_GROUP });
}
