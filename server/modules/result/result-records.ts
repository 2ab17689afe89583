// What other modules read of the visa results: the customer's order detail
// (every applicant's result, files as owner-only links) and the order list's
// visa dates (order module). Read-only.
import type { Kysely } from 'kysely';
import type { VisaResultFile, VisaResultView } from '../../../common/contracts/visa-result.ts';
import { APPLICANT_STATUSES, type ApplicantStatus } from '../../../common/order.ts';
import { rejectReasonText, type VisaResultFileKind } from '../../../common/visa-result.ts';
import { fromJson } from '../../db/json.ts';
import type { Database } from '../../db/schema.ts';
import { visaResultFiles } from './result-files.ts';
import { createResultRepository } from './result.repository.ts';

type ResultRow = Awaited<ReturnType<ReturnType<typeof createResultRepository>['results']>>[number];
type FileRow = Awaited<ReturnType<ReturnType<typeof createResultRepository>['files']>>[number];

/** A result file for an audience: its link is to that audience's file route. */
export function fileView(audience: 'customer' | 'operator', file: FileRow): VisaResultFile {
  return {
    file_id: file.file_id,
    kind: file.kind as VisaResultFileKind,
    file_name: file.file_name,
    content_type: file.content_type,
    size: file.size_bytes,
    url: visaResultFiles.urlOf(audience, { id: file.file_id, sha256: file.sha256 }),
  };
}

/** One applicant's result (or none yet) for an audience (its files' links). */
export function resultView(
  applicant: { applicant_id: number; name: string; status: ApplicantStatus },
  result: ResultRow | undefined,
  files: FileRow[],
  audience: 'customer' | 'operator',
): VisaResultView {
  const file = result?.file_id ? files.find((f) => f.file_id === result.file_id && f.purged_at === null) : undefined;
  const reasons = result?.reject_reasons ? fromJson(result.reject_reasons) : [];
  const status: ApplicantStatus = result?.result ?? applicant.status;
  return {
    applicant_id: applicant.applicant_id,
    applicant_name: applicant.name,
    status,
    status_label: APPLICANT_STATUSES[status],
    visa_no: result?.visa_no ?? null,
    valid_from: result?.valid_from ?? null,
    valid_to: result?.valid_to ?? null,
    entries: result?.entries ?? null,
    stay_days: result?.stay_days ?? null,
    has_evisa: result?.result === 'issued' && file?.kind === 'evisa',
    evisa: file && file.kind === 'evisa' ? fileView(audience, file) : null,
    letter: file && file.kind === 'letter' ? fileView(audience, file) : null,
    reject_reasons: reasons,
    reject_reason: result?.result === 'rejected' ? rejectReasonText(reasons, result.reject_note) : null,
    recorded_at: result?.created_at ?? null,
  };
}

/** Every applicant's result of an order, as its customer sees it (the order detail). */
export async function visaResultsOf(db: Kysely<Database>, userOrderId: number): Promise<VisaResultView[]> {
  const repo = createResultRepository(db);
  const [applicants, results, files] = await Promise.all([repo.applicants([userOrderId]), repo.results([userOrderId]), repo.files(userOrderId)]);
  return applicants.map((a) =>
    resultView(
      a,
      results.find((r) => r.applicant_id === a.applicant_id),
      files,
      'customer',
    ),
  );
}

/** The issued visas' dates of these orders' applicants (the order list's cards). */
export async function visaDatesOf(db: Kysely<Database>, userOrderIds: number[]): Promise<Map<number, { valid_from: string | null; valid_to: string | null }>> {
  if (userOrderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('visa_result')
    .select(['applicant_id', 'valid_from', 'valid_to'])
    .where('user_order_id', 'in', userOrderIds)
    .where('result', '=', 'issued')
    .execute();
  return new Map(rows.map((row) => [row.applicant_id, { valid_from: row.valid_from, valid_to: row.valid_to }]));
}
