// The back office's work on one order (issue 9): taking it, a supervisor
// assigning it, the workbench's reads, and each file's review. Every change
// is a lifecycle change (server/modules/order/lifecycle.ts) guarded by the
// order's version: the review of a file carries the version the operator
// saw, so of two operators reviewing at once exactly one wins (the other gets
// 2032 and nothing of theirs is written). The round ends by itself when its
// last pending file is reviewed, in the same transaction: any no-pass →
// material_review_failed (reupload_needed); all passed →
// material_review_passed (awaiting_mail when the checklist has paper
// materials to mail, else page_check). Rules: docs/order-rules.md.
import type { Kysely } from 'kysely';
import type { AdminFileReviewResult, AdminWorkbench } from '../../../common/contracts/admin-order.ts';
import { IDENTITIES } from '../../../common/constants.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { formatPrice } from '../../../common/format.ts';
import { MATERIAL_REVIEW_STATUSES } from '../../../common/material.ts';
import { ORDER_EVENTS, type OrderStep, statusLabel, stepLabel } from '../../../common/order.ts';
import { composeMemo, REVIEW_REASON_VALUES, type ReviewReason } from '../../../common/review.ts';
import { fromJson } from '../../db/json.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import { applicantInterviews } from '../interview/order-interview.ts';
import { materialFiles } from '../material/material-files.ts';
import { allowedEvents, type Change, checkAllowed, createOrderLifecycle, type OrderRow, type Place, stateAllows } from '../order/lifecycle.ts';
import { departureAtRisk } from '../order/sla.ts';
import { nameOf, type OperatorDirectory } from './operators.ts';
import { createReviewRepository, type ReviewFileRow } from './review.repository.ts';

export interface FileReviewInput {
  user_order_id: number;
  file_id: number;
  version: number;
  result: 'pass' | 'no_pass';
  reasons: ReviewReason[];
  memo?: string | null;
}

function mayReview(operator: Operator, order: Pick<OrderRow, 'assignee_operator_id'>): boolean {
  return operator.role === 'supervisor' || order.assignee_operator_id === operator.operatorId;
}

/** A short account of an audit row's detail for the event log. */
function detailText(detail: Record<string, unknown> | null): string | null {
  if (!detail) return null;
  const parts: string[] = [];
  if (typeof detail.file_name === 'string') parts.push(detail.file_name);
  if (typeof detail.material_name === 'string') parts.push(detail.material_name);
  if (typeof detail.result_label === 'string') parts.push(detail.result_label);
  if (typeof detail.memo === 'string' && detail.memo) parts.push(detail.memo);
  if (typeof detail.assignee_name === 'string') parts.push(`→ ${detail.assignee_name}`);
  if (typeof detail.round === 'number') parts.push(`第 ${detail.round} 轮`);
  // Price differences (补差价): the amount and the reason.
  if (typeof detail.price_difference_id === 'number' && typeof detail.amount === 'number') parts.push(formatPrice(detail.amount));
  if (typeof detail.reason === 'string' && typeof detail.price_difference_id === 'number' && detail.out_trade_no === undefined) parts.push(detail.reason);
  return parts.length > 0 ? parts.join('，') : null;
}

export function createReviewService(db: Kysely<Database>, deps: { now: () => number; operators: OperatorDirectory }) {
  const repo = createReviewRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);
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

    async workbench(operator: Operator, userOrderId: number): Promise<AdminWorkbench> {
      const order = await lifecycle.current(operator, userOrderId);
      const now = deps.now();
      const [owner, product, applicants, checklist, files, payments, events, interviews] = await Promise.all([
        repo.owner(order.enterprise_id, order.account_id),
        repo.product(order.visa_product_id),
        repo.applicants(userOrderId),
        repo.checklist(order.visa_product_id),
        repo.files(userOrderId),
        repo.payments(userOrderId),
        repo.events(userOrderId),
        applicantInterviews(db, [userOrderId]),
      ]);
      const operatorIds = [
        ...(order.assignee_operator_id === null ? [] : [order.assignee_operator_id]),
        ...files.flatMap((f) => (f.reviewed_by === null ? [] : [f.reviewed_by])),
        ...events.flatMap((e) => (e.actor === 'operator' && e.actor_id !== null ? [e.actor_id] : [])),
      ];
      const names = await operators.names([...new Set(operatorIds)]);
      const identities = applicants.map((a) => a.identity_id);
      const mailed = checklist.some((m) => m.attr === 1 && identities.includes(m.identity_id));
      const fileView = (f: ReviewFileRow) => ({
        file_id: f.file_id,
        kind: f.kind,
        file_name: f.file_name,
        content_type: f.content_type,
        size: f.size_bytes,
        url: materialFiles.urlOf('operator', { id: f.file_id, sha256: f.sha256 }),
        review_status: f.review_status,
        review_status_label: MATERIAL_REVIEW_STATUSES[f.review_status],
        review_reasons:
          f.review_reasons === null ? [] : fromJson(f.review_reasons).filter((r): r is ReviewReason => (REVIEW_REASON_VALUES as string[]).includes(r)),
        no_pass_memo: f.no_pass_memo,
        reviewed_by: nameOf(names, f.reviewed_by),
        reviewed_at: f.reviewed_at,
        review_round: f.review_round,
        created_at: f.created_at,
      });
      const address = order.return_address;
      return {
        order: {
          user_order_id: order.user_order_id,
          status: order.status,
          status_label: statusLabel(order.status),
          step: order.step,
          step_label: stepLabel(order.step),
          version: order.version,
          allowed_events: allowedEvents(order, operator, now),
          review_round: order.review_round,
          enterprise_name: owner?.enterprise_name ?? '',
          account_name: owner?.account_name ?? '',
          departure_date: order.departure_date,
          order_date: order.order_date,
          effect_date: order.effect_date,
          step_entered_at: order.step_entered_at,
          step_due_at: order.step_due_at,
          overdue: order.step_due_at !== null && order.step_due_at < now,
          departure_at_risk: departureAtRisk(order, product.need_days, now),
          assignee: nameOf(names, order.assignee_operator_id),
          total_amount: order.total_amount,
          paid_at: order.paid_at,
        },
        product: {
          visa_product_id: order.visa_product_id,
          title: order.product_title,
          country: order.country,
          visa_type: order.visa_type,
          consular_district: order.consular_district_name ?? null,
          need_interview: order.need_interview,
          need_days: product.need_days,
          unit_price: order.unit_price,
          mailed_materials: mailed,
        },
        applicants: applicants.map((applicant) => {
          const own = files.filter((f) => f.applicant_id === applicant.applicant_id);
          const items: AdminWorkbench['applicants'][number]['items'] = checklist
            .filter((m) => m.identity_id === applicant.identity_id && m.attr === 0)
            .map((m) => ({
              material_id: m.material_id,
              name: m.name,
              attention: m.attention,
              required: m.required === 1,
              files: own.filter((f) => f.kind === 'material' && f.material_id === m.material_id).map(fileView),
            }));
          if (product.visa_photo_id !== 0) {
            items.push({ material_id: null, name: '签证照片', attention: '', required: true, files: own.filter((f) => f.kind === 'photo').map(fileView) });
          }
          const interview = interviews.get(applicant.applicant_id);
          return {
            applicant_id: applicant.applicant_id,
            name: applicant.name,
            identity_label: IDENTITIES[applicant.identity_id as keyof typeof IDENTITIES] ?? '',
            mobile_phone: applicant.mobile_phone,
            email: applicant.email,
            passport_no: applicant.passport_no,
            interview: interview ? { date: interview.slot_date, start_time: interview.start_time, end_time: interview.end_time } : null,
            items,
          };
        }),
        return_address: address
          ? {
              name: address.name,
              mobile_phone: address.mobile_phone,
              region: `${address.province_name}${address.city_name}${address.county_name}`,
              detail: address.detail,
            }
          : null,
        payments,
        events: events.map((e) => ({
          event_id: e.event_id,
          event: e.event,
          event_label: ORDER_EVENTS[e.event] ?? e.event,
          actor: e.actor,
          actor_name: e.actor === 'operator' ? (nameOf(names, e.actor_id)?.name ?? null) : e.actor === 'customer' ? '客户' : '系统',
          from_step: e.from_step,
          to_step: e.to_step,
          detail: detailText(e.detail === null ? null : fromJson(e.detail)),
          created_at: e.created_at,
        })),
        pending_count: files.filter((f) => f.review_status === 'pending').length,
        can_review: stateAllows('material_review', order, now) && mayReview(operator, order),
      };
    },

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
              order.visa_product_id,
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
