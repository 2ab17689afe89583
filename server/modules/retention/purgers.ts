// What the retention job deletes: one purger per kind of stored file of an
// order (server/modules/stored-file/retention.ts makes each from its kind's
// declaration). Each purger says which of its files of a finished order are
// due now, when more will be due later (null: none left), and deletes their
// rows inside the retention_purge change (the job deletes the stored objects
// first). The travellers' uploaded scans (customers' material files and
// photos, the page-check pages the operators upload) are due RETENTION_DAYS
// after the order became completed or refunded; so are the embassy's refusal
// letters and files uploaded for a result but never used. An e-visa is the
// traveller's visa itself: it is kept until its validity ends (and at least as
// long as the scans), and its row stays (the result points at it) with
// purged_at set. Rules: docs/order-rules.md ("Ship back, completion and retention").
import { materialFiles } from '../material/material-files.ts';
import { pageCheckPages } from '../page-check/page-check-files.ts';
import { photoCheckPurger } from '../photo-check/photo-check-retention.ts';
import { visaResultFiles } from '../result/result-files.ts';
import { type Purger, purgerOf } from '../stored-file/retention.ts';

export type { FinishedOrder, Purger, StoredFileRef } from '../stored-file/retention.ts';

/** The purgers the job runs, in order: one per kind of stored file (the photo checks before the photos they refer to). */
export const DEFAULT_PURGERS: readonly Purger[] = [photoCheckPurger, purgerOf(materialFiles), purgerOf(pageCheckPages), purgerOf(visaResultFiles)];
