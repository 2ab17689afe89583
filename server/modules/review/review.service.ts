// The back office's work on one order (issue 9): taking it, a supervisor
// assigning it, and each file's review (the workbench is order-view's). Every change
// is a lifecycle change (server/modules/order/lifecycle.ts) guarded by the
// order's version: the review of a file carries the version the operator
// saw, so of two operators reviewing at once exactly one wins (the other gets
// 2032 and nothing of theirs is written). The round ends by itself when its
// last pending file is reviewed, in the same transaction: any no-pass →
// material_review_failed (reupload_needed); all passed →
// material_review_passed (awaiting_mail when the checklist has paper
// materials to mail, else page_check). Rules: docs/order-rules.md.
import type { Kysely } from 'kysely';
import type { AdminBulkResult, AdminFileReviewResult } from '../../../common/contracts/admin-order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { MATERIAL_REVIEW_STATUSES } from '../../../common/material.ts';
import { type OrderStep, stepLabel } from '../../../common/order.ts';
import { composeMemo, type ReviewReason } from '../../../common/review.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import type { OperatorDirectory } from '../operator/directory.ts';
import { type Change, checkAllowed, createOrderLifecycle, type Place } from '../order/lifecycle.ts';
import { createWorkbenchView, mayReview } from '../order-view/workbench.ts';
import { createReviewRepository } from './review.repository.ts';

export interface FileReviewInput {
  user_order_id: number;
  file_id: number;
  version: number;
  result: 'pass' | 'no_pass';
  reasons: ReviewReason[];
  memo?: string | null;
}

/**
 * Runs one change per order, in order; an order's refusal (AppError) is its row's ret and Chinese msg, anything else fails the call.
 * Each row carries the order number (YD…) people know the order by; null for an id no order has.
 */
async function each(db: Kysely<Database>, userOrderIds: number[], run: (id: number) => Promise<{ version: number }>): Promise<AdminBulkResult> {
  const outcomes: Array<Omit<AdminBulkResult['results'][number], 'order_no'>> = [];
  for (const id of userOrderIds) {
    try {
      outcomes.push({ user_order_id: id, ret: 0, msg: '', version: (await run(id)).version });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcomes.push({ user_order_id: id, ret: error.ret, msg: error.message, version: null });
    }
  }
  const numbers = new Map(
    (await db.selectFrom('user_order').select(['user_order_id', 'order_no']).where('user_order_id', 'in', userOrderIds).execute()).map((row) => [
      row.user_order_id,
      row.order_no,
    ]),
  );
  const results = outcomes.map((row) => ({ ...row, order_no: numbers.get(row.user_order_id) ?? null }));
  const succeeded = results.filter((row) => row.ret === 0).length;
  return { results, succeeded, failed: results.length - succeeded };
}

export function createReviewService(db: Kysely<Database>, deps: { now: () => number; operators: OperatorDirectory }) {
  const repo = createReviewRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const workbenchView = createWorkbenchView(db, deps);
  const { operators } = deps;

  async function assignTo(operator: Operator, userOrderId: number, assignee: number, how: 'take' | 'assign') {
    const names = await operators.names([assignee]);
    const state = await lifecycle.change(operator, userOrderId, (order, at) => {
      checkAllowed('assign', order, operator, at);
      if (order.assignee_operator_id === assignee) return null;
      if (how === 'take' && order.assignee_operator_id !== null) throw new AppError(ErrorCode.REVIEW_ALREADY_TAKEN);
      return {
        event: 'assign',
        set: { assignee_operator_id: assignee },
        detail: { how, from_operator_id: order.assignee_operator_id, assignee_operator_id: assignee, assignee_name: names.get(assignee) ?? null },
      };
    });
    return { user_order_id: userOrderId, assignee_operator_id: assignee, version: state.version };
  }

  return {
    /** An operator takes an order nobody has (taking one's own again changes nothing). */
    take(operator: Operator, userOrderId: number) {
      return assignTo(operator, userOrderId, operator.operatorId, 'take');
    },

    /** A supervisor gives an order to an active operator (or takes it over). */
    async assign(operator: Operator, userOrderId: number, assignee: number) {
      if (operator.role !== 'supervisor') throw new AppError(ErrorCode.REVIEW_ASSIGN_FORBIDDEN);
      if (!(await operators.isActive(assignee))) throw new AppError(ErrorCode.REVIEW_OPERATOR_NOT_FOUND);
      return assignTo(operator, userOrderId, assignee, 'assign');
    },

    /** 领取 for several orders: each taken on its own (its own transaction); a refusal is reported for that order only. */
    takeMany(operator: Operator, userOrderIds: number[]): Promise<AdminBulkResult> {
      return each(db, userOrderIds, (id) => assignTo(operator, id, operator.operatorId, 'take'));
    },

    /** A supervisor's 分配 of several orders to one active operator; per-order refusals as takeMany. */
    async assignMany(operator: Operator, userOrderIds: number[], assignee: number): Promise<AdminBulkResult> {
      if (operator.role !== 'supervisor') throw new AppError(ErrorCode.REVIEW_ASSIGN_FORBIDDEN);
      if (!(await operators.isActive(assignee))) throw new AppError(ErrorCode.REVIEW_OPERATOR_NOT_FOUND);
      return each(db, userOrderIds, (id) => assignTo(operator, id, assignee, 'assign'));
    },

    /** The workbench without its panels (order-view builds it; the whole view with panels is order-view's createOperatorWorkbench). */
    workbench: workbenchView.core,

    /** One file's review; the last pending one ends the round (passed or failed) in the same transaction. */
    async reviewFile(operator: Operator, input: FileReviewInput): Promise<AdminFileReviewResult> {
      const memo = input.memo?.trim() || null;
      const reasons = [...new Set(input.reasons)];
      const status = input.result === 'pass' ? ('passed' as const) : ('no_pass' as const);
      if (status === 'no_pass' && reasons.length === 0 && memo === null) throw new AppError(ErrorCode.REVIEW_NO_PASS_REASON_REQUIRED);
      let pendingLeft = 0;
      let roundResult: 'passed' | 'failed' | null = null;
      const state = await lifecycle.change(operator, input.user_order_id, async (order, at) => {
        checkAllowed('material_review', order, operator, at);
        if (order.version !== input.version) throw new AppError(ErrorCode.REVIEW_ORDER_STALE);
        if (!mayReview(operator, order)) throw new AppError(ErrorCode.REVIEW_NOT_ASSIGNEE);
        const files = await repo.files(order.user_order_id);
        const file = files.find((f) => f.file_id === input.file_id);
        if (!file) throw new AppError(ErrorCode.REVIEW_FILE_NOT_FOUND);
        if (file.review_status !== 'pending') throw new AppError(ErrorCode.REVIEW_FILE_NOT_PENDING);
        const others = files.filter((f) => f.file_id !== file.file_id);
        pendingLeft = others.filter((f) => f.review_status === 'pending').length;
        const shownMemo = status === 'no_pass' ? composeMemo(reasons, memo) : null;
        const round = order.review_round;
        const changes: Change[] = [
          {
            event: 'material_review',
            within: async (trx) => {
              const written = await repo.reviewFile(trx, file.file_id, {
                status,
                reasons: status === 'no_pass' ? reasons : [],
                memo: shownMemo,
                by: operator.operatorId,
                at,
                round,
              });
              if (!written) throw new AppError(ErrorCode.REVIEW_FILE_NOT_PENDING);
            },
            detail: {
              file_id: file.file_id,
              file_name: file.file_name,
              applicant_id: file.applicant_id,
              material_id: file.material_id,
              result: status,
              result_label: MATERIAL_REVIEW_STATUSES[status],
              ...(status === 'no_pass' ? { reasons, memo: shownMemo } : {}),
              round,
            },
          },
        ];
        roundResult = null;
        if (pendingLeft === 0) {
          const noPass = others.filter((f) => f.review_status === 'no_pass').length + (status === 'no_pass' ? 1 : 0);
          if (noPass > 0) {
            roundResult = 'failed';
            changes.push({ event: 'material_review_failed', detail: { round, no_pass_files: noPass } });
          } else {
            roundResult = 'passed';
            const applicants = await repo.applicants(order.user_order_id);
            const mailed = await repo.hasMailedMaterials(
              order.user_order_id,
              applicants.map((a) => a.identity_id),
            );
            const to: Place = mailed ? 'processing:awaiting_mail' : 'processing:page_check';
            changes.push({ event: 'material_review_passed', to, detail: { round, files: files.length } });
          }
        }
        return changes;
      });
      return {
        file_id: input.file_id,
        review_status: status,
        version: state.version,
        pending_count: pendingLeft,
        round_result: roundResult,
        step: state.step as OrderStep | null,
        step_label: stepLabel(state.step),
      };
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
