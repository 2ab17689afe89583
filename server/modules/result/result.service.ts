// Visa results per applicant (issue 11). While the order is at the embassy
// (processing · submitted) the order's operator (its assignee or a
// supervisor) records each applicant's result: issued (visa number,
// validity, entries, stay; for an e-visa product the e-visa file) or refused
// (common reasons and/or free text; optionally the embassy's letter). Files
// are uploaded first — a kind of stored file (result-files.ts), checked by
// content and size exactly like the customers' uploads and kept in the same
// storage — and attached by the result's change. Each result is a lifecycle change (result_issue /
// result_reject) guarded by the order's version, writing the applicant's
// status; the database keeps one result per applicant (a unique index), so two
// operators at once end with exactly one result. A refusal calls
// refundOnRejection() in the same transaction (modules/refund). The customer is
// told by the events' notices. Rules: docs/order-rules.md ("Results").
import type { Kysely } from 'kysely';
import type { AdminResultView } from '../../../common/contracts/visa-result.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { APPLICANT_IDENTITIES, isCalendarDate } from '../../../common/order.ts';
import { normalizeInputText } from '../../../common/text.ts';
import { REJECT_REASONS, VISA_ENTRIES, VISA_RESULT_LIMITS, type VisaResultFileKind } from '../../../common/visa-result.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import { createStoredFiles, type FileViewer, type StoredFileDeps, type UploadSource } from '../stored-file/stored-files.ts';
import { checkAllowed, createOrderLifecycle, type OrderRow, stateAllows } from '../order/lifecycle.ts';
import { refundOnRejection } from '../refund/on-rejection.ts';
import { visaResultFiles } from './result-files.ts';
import { fileView, resultView } from './result-records.ts';
import { createResultRepository } from './result.repository.ts';

export interface IssueInput {
  user_order_id: number;
  applicant_id: number;
  version: number;
  visa_no: string;
  valid_from: string;
  valid_to: string;
  entries: string;
  stay_days: number;
  evisa_file_id?: number | null;
}

export interface RejectInput {
  user_order_id: number;
  applicant_id: number;
  version: number;
  reasons: string[];
  note: string;
  letter_file_id?: number | null;
}

/** A unique-index violation (a second result for the applicant), on SQLite or PostgreSQL. */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}

function mayRecord(operator: Operator, order: Pick<OrderRow, 'assignee_operator_id'>): boolean {
  return operator.role === 'supervisor' || order.assignee_operator_id === operator.operatorId;
}

/** The issued visa's fields, checked and normalised (the operator's form, or a bad API call). */
export function checkIssue(input: Pick<IssueInput, 'visa_no' | 'valid_from' | 'valid_to' | 'entries' | 'stay_days'>) {
  const visaNo = normalizeInputText(input.visa_no).replace(/\s+/g, '').toUpperCase();
  if (!VISA_RESULT_LIMITS.visaNoPattern.test(visaNo)) throw new AppError(ErrorCode.RESULT_VISA_NO_INVALID);
  const from = input.valid_from.trim();
  const to = input.valid_to.trim();
  if (!isCalendarDate(from) || !isCalendarDate(to) || from > to) throw new AppError(ErrorCode.RESULT_VALIDITY_INVALID);
  const entries = normalizeInputText(input.entries);
  if (!(VISA_ENTRIES as readonly string[]).includes(entries)) throw new AppError(ErrorCode.RESULT_ENTRIES_INVALID);
  if (!Number.isInteger(input.stay_days) || input.stay_days < 1 || input.stay_days > VISA_RESULT_LIMITS.stayDaysMax) {
    throw new AppError(ErrorCode.RESULT_STAY_INVALID);
  }
  return { visa_no: visaNo, valid_from: from, valid_to: to, entries, stay_days: input.stay_days };
}

/** The refusal's reasons, checked: known codes (deduplicated), a note of 0–500 characters, at least one of the two. */
export function checkReject(input: Pick<RejectInput, 'reasons' | 'note'>) {
  const reasons = [...new Set(input.reasons.map((r) => r.trim()))];
  if (reasons.some((r) => !(r in REJECT_REASONS))) throw new AppError(ErrorCode.RESULT_REASON_INVALID);
  const note = normalizeInputText(input.note);
  if (note.length > VISA_RESULT_LIMITS.rejectNoteMaxLength) throw new AppError(ErrorCode.RESULT_REASON_INVALID);
  if (reasons.length === 0 && note === '') throw new AppError(ErrorCode.RESULT_REASON_REQUIRED);
  return { reasons, note: note === '' ? null : note };
}

export function createResultService(db: Kysely<Database>, deps: StoredFileDeps) {
  const repo = createResultRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const storedFiles = createStoredFiles(db, visaResultFiles, deps);

  /** The common guards of a result: the state (2181), the operator, the applicant, no result yet, the version. */
  async function recordable(
    event: 'result_issue' | 'result_reject',
    operator: Operator,
    order: OrderRow,
    input: { applicant_id: number; version: number },
    at: number,
  ) {
    checkAllowed(event, order, operator, at);
    if (!mayRecord(operator, order)) throw new AppError(ErrorCode.REVIEW_NOT_ASSIGNEE);
    const applicant = (await repo.applicants([order.user_order_id])).find((a) => a.applicant_id === input.applicant_id);
    if (!applicant) throw new AppError(ErrorCode.RESULT_APPLICANT_NOT_FOUND);
    // Checked before the version: the loser of a race hears that the result exists.
    if (applicant.status !== 'pending' || (await repo.resultOf(applicant.applicant_id))) throw new AppError(ErrorCode.RESULT_ALREADY_RECORDED);
    if (order.version !== input.version) throw new AppError(ErrorCode.RESULT_ORDER_STALE);
    return applicant;
  }

  /** An uploaded, unused file of this applicant and kind. */
  async function unusedFile(userOrderId: number, applicantId: number, kind: VisaResultFileKind, fileId: number) {
    const file = await repo.file(fileId);
    if (
      !file ||
      file.user_order_id !== userOrderId ||
      file.applicant_id !== applicantId ||
      file.kind !== kind ||
      file.result_id !== null ||
      file.purged_at !== null
    ) {
      throw new AppError(ErrorCode.RESULT_FILE_NOT_FOUND);
    }
    return file;
  }

  async function record(
    operator: Operator,
    input: { user_order_id: number; applicant_id: number; version: number },
    decide: (
      order: OrderRow,
      at: number,
    ) => Promise<{
      event: 'result_issue' | 'result_reject';
      status: 'issued' | 'rejected';
      row: Omit<Parameters<typeof repo.insertResult>[1], 'user_order_id' | 'applicant_id' | 'operator_id' | 'created_at'>;
      detail: Record<string, unknown>;
    }>,
  ) {
    const state = await lifecycle.change(operator, input.user_order_id, async (order, at) => {
      const decided = await decide(order, at);
      const detail: Record<string, unknown> = { applicant_id: input.applicant_id, ...decided.detail };
      return {
        event: decided.event,
        applicants: [{ applicant_id: input.applicant_id, set: { status: decided.status } }],
        within: async (trx) => {
          try {
            const attached = await repo.insertResult(trx, {
              ...decided.row,
              user_order_id: order.user_order_id,
              applicant_id: input.applicant_id,
              operator_id: operator.operatorId,
              created_at: at,
            });
            if (!attached) throw new AppError(ErrorCode.RESULT_FILE_NOT_FOUND);
          } catch (error) {
            if (isUniqueViolation(error)) throw new AppError(ErrorCode.RESULT_ALREADY_RECORDED);
            throw error;
          }
          if (decided.event === 'result_reject') {
            const refund = await refundOnRejection(trx, { userOrderId: order.user_order_id, applicantId: input.applicant_id, at });
            if (refund) detail.refund = { refund_id: refund.refundId, amount: refund.amount };
          }
        },
        detail: () => detail,
      };
    });
    return { applicant_id: input.applicant_id, version: state.version };
  }

  return {
    async operatorView(operator: Operator, userOrderId: number): Promise<AdminResultView> {
      const order = await lifecycle.current(operator, userOrderId);
      const [applicants, results, files, isEvisa] = await Promise.all([
        repo.applicants([userOrderId]),
        repo.results([userOrderId]),
        repo.files(userOrderId),
        repo.isEvisa(order.visa_product_id),
      ]);
      return {
        user_order_id: order.user_order_id,
        status: order.status,
        step: order.step,
        version: order.version,
        submitted_date: order.submitted_date,
        is_evisa: isEvisa,
        can_record: stateAllows('result_issue', order, deps.now()) && mayRecord(operator, order),
        applicants: applicants.map((a) => {
          const result = results.find((r) => r.applicant_id === a.applicant_id);
          return {
            ...resultView(a, result, files, 'operator'),
            identity_label: APPLICANT_IDENTITIES[a.identity_id as keyof typeof APPLICANT_IDENTITIES] ?? '',
            recorded_by: result?.operator_name ?? null,
          };
        }),
      };
    },

    /** An e-visa or an embassy letter for an applicant without a result yet: stored, attached later by the result. */
    async uploadFile(operator: Operator, input: { user_order_id: number; applicant_id: number; kind: VisaResultFileKind }, source: UploadSource) {
      const order = await lifecycle.current(operator, input.user_order_id);
      const at = deps.now();
      await recordable(
        input.kind === 'evisa' ? 'result_issue' : 'result_reject',
        operator,
        order,
        { applicant_id: input.applicant_id, version: order.version },
        at,
      );

      // The bytes, exactly as a customer's upload: type from the first ones, size metered while stored.
      const upload = await storedFiles.store(source);
      const row = { ...upload, user_order_id: order.user_order_id, applicant_id: input.applicant_id, kind: input.kind };
      const fileId = await storedFiles.keep(upload, () => repo.insertFile({ ...row, operator_id: operator.operatorId, created_at: at }));
      return { applicant_id: input.applicant_id, ...fileView('operator', { ...row, file_id: fileId, result_id: null, purged_at: null }) };
    },

    /** 录入出签: the visa's details; for an e-visa product the uploaded e-visa. */
    async issue(operator: Operator, input: IssueInput) {
      const answer = await record(operator, input, async (order, at) => {
        await recordable('result_issue', operator, order, input, at);
        const visa = checkIssue(input);
        const fileId = input.evisa_file_id ?? null;
        if (fileId === null && (await repo.isEvisa(order.visa_product_id))) throw new AppError(ErrorCode.RESULT_EVISA_REQUIRED);
        if (fileId !== null) await unusedFile(order.user_order_id, input.applicant_id, 'evisa', fileId);
        return {
          event: 'result_issue',
          status: 'issued',
          row: { result: 'issued', ...visa, reject_reasons: null, reject_note: null, file_id: fileId },
          detail: { ...visa, evisa_file_id: fileId },
        };
      });
      return { ...answer, status: 'issued' as const };
    },

    /** 录入拒签: the reasons (common ones and/or text); optionally the embassy's letter. A refund when the product has 拒签退全款. */
    async reject(operator: Operator, input: RejectInput) {
      const answer = await record(operator, input, async (order, at) => {
        await recordable('result_reject', operator, order, input, at);
        const { reasons, note } = checkReject(input);
        const fileId = input.letter_file_id ?? null;
        if (fileId !== null) await unusedFile(order.user_order_id, input.applicant_id, 'letter', fileId);
        return {
          event: 'result_reject',
          status: 'rejected',
          row: {
            result: 'rejected',
            visa_no: null,
            valid_from: null,
            valid_to: null,
            entries: null,
            stay_days: null,
            reject_reasons: reasons,
            reject_note: note,
            file_id: fileId,
          },
          detail: { reasons, note, letter_file_id: fileId },
        };
      });
      return { ...answer, status: 'rejected' as const };
    },

    /** The files as a kind of stored file (their routes, the e-mailed e-visas). */
    storedFiles,

    /**
     * A result file for a viewer: the customer of the order's enterprise (files attached to a
     * result only), or any operator (every open logged). Purged files are gone for everyone.
     */
    fileFor: (viewer: FileViewer, fileId: number) => storedFiles.fileFor(viewer, fileId),
  };
}

export type ResultService = ReturnType<typeof createResultService>;
