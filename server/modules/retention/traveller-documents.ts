// Retention of the saved travellers' documents (issue 28 part 3): a saved
// scan is deleted RETENTION_DAYS after it stopped being usable — after its
// expiry date, or for a photo six months after it was taken (the same days
// the orders' scans are kept after the order finished). Its row goes first;
// its object goes too unless an order still uses it (shared by reference:
// stored-file/shared-keys.ts), in which case the order's own retention
// deletes it later. A document without an end (an ID card or 户口本 saved
// without an expiry) stays until it or its traveller is deleted. Safe on
// several instances: a row is deleted by one of them, and deleting a missing
// object is not an error. Rules: docs/order-rules.md ("Travellers saved for next time").
import type { Kysely } from 'kysely';
import { addDays, chinaDate } from '../../../common/order.ts';
import { monthsBefore, TRAVELLER_LIMITS } from '../../../common/traveller.ts';
import type { Database } from '../../db/schema.ts';
import type { JobSpec } from '../../platform/jobs.ts';
import { storageKeyInUse } from '../stored-file/shared-keys.ts';
import { type FileStorage, STORAGE_KEY_PATTERN } from '../stored-file/storage.ts';

export const TRAVELLER_RETENTION_JOB = 'traveller-document-retention';
const BATCH = 200;

export interface TravellerRetentionDeps {
  storage: Pick<FileStorage, 'delete'>;
  now: () => number;
  retentionDays: number;
  log: { info: (obj: object, msg: string) => void };
}

export function createTravellerDocumentRetention(db: Kysely<Database>, deps: TravellerRetentionDeps) {
  /** Documents whose usable time ended more than RETENTION_DAYS ago. */
  function due() {
    const cutoff = addDays(chinaDate(deps.now()), -deps.retentionDays);
    const photoCutoff = monthsBefore(cutoff, TRAVELLER_LIMITS.photoMaxAgeMonths);
    return db
      .selectFrom('traveller_document')
      .where((eb) =>
        eb.or([
          eb.and([eb('expiry_date', 'is not', null), eb('expiry_date', '<', cutoff)]),
          eb.and([eb('doc_type', '=', 'photo'), eb('taken_date', 'is not', null), eb('taken_date', '<', photoCutoff)]),
        ]),
      );
  }

  async function runOnce(): Promise<{ documents: number; objects: number }> {
    const rows = await due().select(['document_id', 'storage_key']).orderBy('document_id').limit(BATCH).execute();
    let objects = 0;
    let documents = 0;
    for (const row of rows) {
      const deleted = await db.deleteFrom('traveller_document').where('document_id', '=', row.document_id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) continue;
      documents += 1;
      if (STORAGE_KEY_PATTERN.test(row.storage_key) && !(await storageKeyInUse(db, row.storage_key))) {
        await deps.storage.delete(row.storage_key);
        objects += 1;
      }
    }
    if (documents > 0) deps.log.info({ documents, objects, retentionDays: deps.retentionDays }, 'traveller document retention run');
    return { documents, objects };
  }

  return {
    runOnce,
    job(intervalMs: number): JobSpec {
      return {
        name: TRAVELLER_RETENTION_JOB,
        intervalMs,
        run: () => runOnce(),
        async backlog() {
          const row = await due()
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          return Number(row.n);
        },
      };
    },
  };
}
