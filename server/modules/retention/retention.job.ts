// Retention of travellers' data (issue 11): the job that deletes the stored
// files of finished orders once their time has come (purgers.ts says which,
// per kind of file). For each order due it
//   1. claims the order: one conditional upsert of its order_retention row
//      (inserted, or taken over only when the last lease ran out and files
//      are due) — the database decides, so two jobs on several instances
//      never work on one order at once, on SQLite and PostgreSQL alike;
//   2. deletes the stored objects (local disk or S3; a missing one is fine);
//   3. in one transaction, the lifecycle's retention_purge change (an event in
//      the order's history, from completed/refunded to the same place)
//      deletes the files' rows and records the run in order_retention.
// A crash between 2 and 3 leaves rows whose objects are gone: the lease runs
// out and the next run deletes them again (deleting a missing object is not
// an error). Nothing but stored files and their rows is deleted: orders,
// applicants, results, events and payments stay.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { JobSpec } from '../../platform/jobs.ts';
import { SYSTEM } from '../../platform/principal.ts';
import { storageKeyInUse } from '../stored-file/shared-keys.ts';
import { type FileStorage, STORAGE_KEY_PATTERN } from '../stored-file/storage.ts';
import { createOrderLifecycle, stateAllows } from '../order/lifecycle.ts';
import { DEFAULT_PURGERS, type FinishedOrder, type Purger, type StoredFileRef } from './purgers.ts';

export const DAY_MS = 86_400_000;
/** How long one instance may take over one order before another may take it. */
export const RETENTION_LEASE_MS = 10 * 60_000;
/** Orders looked at per run (the next run takes the rest). */
export const RETENTION_BATCH = 50;
/** The retention job's name in the app's runner. */
export const RETENTION_JOB = 'retention';

export interface RetentionDeps {
  storage: Pick<FileStorage, 'delete'>;
  now: () => number;
  /** RETENTION_DAYS: scans are deleted this many days after the order became completed or refunded. */
  retentionDays: number;
  log: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
  purgers?: readonly Purger[];
}

export interface RetentionRunResult {
  /** Orders this run claimed. */
  orders: number;
  /** Orders whose files this run deleted (a retention_purge event each). */
  purged: number;
  files: number;
}

export function createRetentionJob(db: Kysely<Database>, deps: RetentionDeps) {
  const purgers = deps.purgers ?? DEFAULT_PURGERS;
  const retentionMs = deps.retentionDays * DAY_MS;
  const lifecycle = createOrderLifecycle(db, { now: deps.now });

  /** Finished orders whose files may be due: never looked at, or due again, and not leased. */
  function due(at: number) {
    return db
      .selectFrom('user_order as o')
      .leftJoin('order_retention as r', 'r.user_order_id', 'o.user_order_id')
      .where('o.status', 'in', ['completed', 'refunded'])
      .where('o.step_entered_at', 'is not', null)
      .where('o.step_entered_at', '<=', at - retentionMs)
      .where((eb) =>
        eb.or([
          eb('r.user_order_id', 'is', null),
          eb.and([
            eb('r.lease_until', '<', at),
            eb.or([eb('r.purged_at', 'is', null), eb.and([eb('r.next_due_at', 'is not', null), eb('r.next_due_at', '<=', at)])]),
          ]),
        ]),
      );
  }

  function candidates(at: number, limit: number) {
    return due(at).select(['o.user_order_id', 'o.step_entered_at']).orderBy('o.step_entered_at').orderBy('o.user_order_id').limit(limit).execute();
  }

  /** Takes the order for this run: true when this owner holds the lease now. */
  async function claim(userOrderId: number, owner: string, at: number): Promise<boolean> {
    await db
      .insertInto('order_retention')
      .values({ user_order_id: userOrderId, lease_until: at + RETENTION_LEASE_MS, lease_owner: owner, purged_at: null, next_due_at: null, updated_at: at })
      .onConflict((oc) =>
        oc
          .column('user_order_id')
          .doUpdateSet({ lease_until: at + RETENTION_LEASE_MS, lease_owner: owner, updated_at: at })
          .where((eb) =>
            eb.and([
              eb('order_retention.lease_until', '<', at),
              eb.or([
                eb('order_retention.purged_at', 'is', null),
                eb.and([eb('order_retention.next_due_at', 'is not', null), eb('order_retention.next_due_at', '<=', at)]),
              ]),
            ]),
          ),
      )
      .execute();
    const row = await db.selectFrom('order_retention').select(['lease_owner', 'lease_until']).where('user_order_id', '=', userOrderId).executeTakeFirst();
    return row?.lease_owner === owner && Number(row.lease_until) === at + RETENTION_LEASE_MS;
  }

  /** Purges one claimed order; returns how many files went (0: nothing was due). */
  async function purgeOrder(order: FinishedOrder, owner: string, at: number): Promise<number> {
    const due: Array<{ purger: Purger; files: StoredFileRef[] }> = [];
    for (const purger of purgers) due.push({ purger, files: await purger.due(db, order, at, retentionMs) });
    let nextDueAt: number | null = null;
    for (const purger of purgers) {
      const next = await purger.nextDueAt(db, order, at, retentionMs);
      if (next !== null && (nextDueAt === null || next < nextDueAt)) nextDueAt = next;
    }
    const total = due.reduce((sum, entry) => sum + entry.files.length, 0);
    const record = { purged_at: at, next_due_at: nextDueAt, lease_until: at, updated_at: at };

    if (total === 0) {
      await db.updateTable('order_retention').set(record).where('user_order_id', '=', order.user_order_id).where('lease_owner', '=', owner).execute();
      return 0;
    }
    // The stored objects first: a row never outlives the run that deleted its object by more than a lease.
    // A key the storage never makes (STORAGE_KEY_PATTERN) holds no object: only its row goes.
    // An object a traveller's saved document or another order still uses (shared by reference) stays.
    for (const entry of due)
      for (const file of entry.files)
        if (STORAGE_KEY_PATTERN.test(file.storage_key) && !(await storageKeyInUse(db, file.storage_key, order.user_order_id)))
          await deps.storage.delete(file.storage_key);

    const counts: Record<string, number> = {};
    await lifecycle.change(SYSTEM, order.user_order_id, (current) => {
      if (!stateAllows('retention_purge', current, deps.now())) return null;
      return {
        event: 'retention_purge',
        detail: () => ({ retention_days: deps.retentionDays, files: counts, total: Object.values(counts).reduce((a, b) => a + b, 0) }),
        within: async (trx) => {
          for (const entry of due)
            counts[entry.purger.kind] = await entry.purger.removeRows(
              trx,
              order.user_order_id,
              entry.files.map((f) => f.id),
              at,
            );
          await trx
            .updateTable('order_retention')
            .set((eb) => ({ ...record, files_deleted: eb('files_deleted', '+', total) }))
            .where('user_order_id', '=', order.user_order_id)
            .where('lease_owner', '=', owner)
            .execute();
        },
      };
    });
    return total;
  }

  /** One pass over the orders due (at most `limit`); safe to run on several instances at once. */
  async function runOnce(limit = RETENTION_BATCH): Promise<RetentionRunResult> {
    const at = deps.now();
    const owner = randomBytes(12).toString('hex');
    const result: RetentionRunResult = { orders: 0, purged: 0, files: 0 };
    for (const row of await candidates(at, limit)) {
      if (!(await claim(row.user_order_id, owner, at))) continue;
      result.orders += 1;
      try {
        const files = await purgeOrder({ user_order_id: row.user_order_id, finished_at: Number(row.step_entered_at) }, owner, at);
        if (files > 0) {
          result.purged += 1;
          result.files += files;
        }
      } catch (error) {
        // The lease runs out and a later run tries again.
        deps.log.warn({ err: error, userOrderId: row.user_order_id }, 'retention purge failed');
      }
    }
    if (result.orders > 0) deps.log.info({ ...result, retentionDays: deps.retentionDays }, 'retention run');
    return result;
  }

  return {
    retentionMs,
    runOnce,

    /**
     * The run as a job of the app's runner (server/platform/jobs.ts): every
     * intervalMs (0: never), the first time one interval after start; its
     * backlog is the finished orders whose files may be due.
     */
    job(intervalMs: number): JobSpec {
      return {
        name: RETENTION_JOB,
        intervalMs,
        run: () => runOnce(),
        leaseMs: RETENTION_LEASE_MS,
        async backlog() {
          const row = await due(deps.now())
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          return Number(row.n);
        },
      };
    },
  };
}

export type RetentionJob = ReturnType<typeof createRetentionJob>;
