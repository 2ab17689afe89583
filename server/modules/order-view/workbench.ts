// The operator's workbench (订单工作台) in one read (issue 24, decision 0035):
// the order with its product snapshot, every applicant with every file and
// its review, interview times, the return address, payments and the event
// log — and every panel's data (page check, mail, ship-back, interview
// notice, price differences, refunds, visa results), each as its own
// /admin-api call answers it — with the order's `version` and the events the
// calling operator may fire now (`allowed_events`, from the lifecycle's
// table). The workbench page's loader reads this and nothing else; its
// panels take their part as props. It sits above the modules that hold the
// order's parts: they are handed in as reads (app.ts), so none imports it.
import type { Kysely } from 'kysely';
import type { AdminWorkbench, AdminWorkbenchPanels } from '../../../common/contracts/admin-order.ts';
import type { AdminInterviewPanel } from '../../../common/contracts/interview-notice.ts';
import type { MailList } from '../../../common/contracts/mail.ts';
import type { AdminPageCheckView } from '../../../common/contracts/page-check.ts';
import type { PriceDifferencePanel } from '../../../common/contracts/price-difference.ts';
import type { RefundPanel } from '../../../common/contracts/refund.ts';
import type { TravellerMessagesPanel } from '../../../common/contracts/traveller-message.ts';
import type { AdminShipBack } from '../../../common/contracts/ship-back.ts';
import type { AdminResultView } from '../../../common/contracts/visa-result.ts';
import { IDENTITIES } from '../../../common/constants.ts';
import { formatPrice } from '../../../common/format.ts';
import { MATERIAL_REVIEW_STATUSES } from '../../../common/material.ts';
import { photoCheckSummary } from '../../../common/photo-check.ts';
import { passportValidityWarning } from '../../../common/passport.ts';
import { ORDER_EVENT_VALUES, ORDER_EVENTS, type OrderEventName, statusLabel, stepLabel } from '../../../common/order.ts';
import { REVIEW_REASON_VALUES, type ReviewReason } from '../../../common/review.ts';
import { fromJson } from '../../db/json.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import { applicantInterviews } from '../interview/order-interview.ts';
import { materialFiles } from '../material/material-files.ts';
import { nameOf, type OperatorDirectory } from '../operator/directory.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { allowedEvents, createOrderLifecycle, type OrderRow, placeOf, refusalOf, ruleOf, stateAllows } from '../order/lifecycle.ts';
import { createOrderReads } from '../order/order-reads.ts';
import { departureAtRisk } from '../order/sla.ts';
import { createWorkbenchRepository, type WorkbenchFileRow } from './workbench.repository.ts';

/** The workbench without its panels: what the review module's own read answered before the panels joined it. */
export type WorkbenchCore = Omit<AdminWorkbench, 'panels'>;

/**
 * The panels' reads, each the service its /admin-api call runs (app.ts hands
 * them in): the same answers, the same refusals.
 */
export interface WorkbenchPanelReads {
  pageCheck(caller: Operator, userOrderId: number): Promise<AdminPageCheckView>;
  mail(caller: Operator, userOrderId: number): Promise<MailList>;
  shipBack(caller: Operator, userOrderId: number): Promise<AdminShipBack>;
  interview(caller: Operator, userOrderId: number): Promise<AdminInterviewPanel>;
  priceDifferences(caller: Operator, userOrderId: number): Promise<PriceDifferencePanel>;
  refunds(caller: Operator, userOrderId: number): Promise<RefundPanel>;
  results(caller: Operator, userOrderId: number): Promise<AdminResultView>;
  /** The applicants' own SMS and e-mails (issue 29; modules/notification). */
  travellerMessages(caller: Operator, userOrderId: number): Promise<TravellerMessagesPanel>;
}

/** The order's operator or a supervisor: who may review its files (and act in its panels). */
export function mayReview(operator: Operator, order: Pick<OrderRow, 'assignee_operator_id'>): boolean {
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

/**
 * The events the order's place leads to that the caller may fire but the rule
 * refuses now (a failing guard), each with the rule's own refusal: the page
 * shows the reason beside the action instead of an active button that refuses
 * after its confirm dialog (issue 27).
 */
export function blockedEvents(order: OrderRow, operator: Operator, at: number, allowed: readonly OrderEventName[]) {
  const place = placeOf(order);
  return ORDER_EVENT_VALUES.flatMap((event) => {
    const rule = ruleOf(event);
    if (allowed.includes(event) || rule.from === 'new' || rule.from === 'any' || !rule.from.includes(place)) return [];
    const refusal = refusalOf(event, order, operator, at);
    return refusal && refusal.ret !== ErrorCode.ORDER_ACTION_FORBIDDEN ? [{ event, reason: refusal.message }] : [];
  });
}

/** A panel's read, or null when its call refuses (the page shows the rest of the order, as it did when the panel read its own call). */
async function panel<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

export function createWorkbenchView(db: Kysely<Database>, deps: { now: () => number; operators: OperatorDirectory }) {
  const repo = createWorkbenchRepository(db);
  const orders = createOrderReads(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const { operators } = deps;

  /** The order, its applicants and files, payments and events (the review call's answer). */
  async function core(operator: Operator, userOrderId: number): Promise<WorkbenchCore> {
    const order = await lifecycle.current(operator, userOrderId);
    const now = deps.now();
    const [owner, product, applicants, checklist, files, payments, events, interviews] = await Promise.all([
      repo.owner(order.enterprise_id, order.account_id),
      repo.product(order.visa_product_id),
      repo.applicants(userOrderId),
      repo.checklist(userOrderId),
      repo.files(userOrderId),
      orders.payments(userOrderId),
      orders.events(userOrderId),
      applicantInterviews(db, [userOrderId]),
    ]);
    const operatorIds = [
      ...(order.assignee_operator_id === null ? [] : [order.assignee_operator_id]),
      ...files.flatMap((f) => (f.reviewed_by === null ? [] : [f.reviewed_by])),
      ...events.flatMap((e) => (e.actor === 'operator' && e.actor_id !== null ? [e.actor_id] : [])),
    ];
    const names = await operators.names([...new Set(operatorIds)]);
    // The visa photo check's verdict, shown beside the photo (issue 28).
    const photoChecks = new Map(
      (
        await db
          .selectFrom('photo_check')
          .select(['file_id', 'sha256', 'verdict', 'problems', 'fixes', 'choice'])
          .where('user_order_id', '=', userOrderId)
          .execute()
      ).map((c) => [c.file_id, c]),
    );
    const photoCheckOf = (f: WorkbenchFileRow): string | null => {
      const check = f.kind === 'photo' ? photoChecks.get(f.file_id) : undefined;
      if (!check) return null;
      return photoCheckSummary({ verdict: check.verdict, problems: fromJson(check.problems), fixes: fromJson(check.fixes), choice: check.choice });
    };
    const identities = applicants.map((a) => a.identity_id);
    const mailed = checklist.some((m) => m.attr === 1 && identities.includes(m.identity_id));
    const fileView = (f: WorkbenchFileRow) => ({
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
      reused_from_traveller: f.reused_document_id !== null,
      photo_check: photoCheckOf(f),
    });
    // Each applicant's files in one pass (not a filter over every file per checklist item).
    const filesOf = new Map<string, WorkbenchFileRow[]>();
    for (const f of files) {
      const key = `${f.applicant_id}:${f.kind === 'photo' ? 'photo' : f.material_id}`;
      const list = filesOf.get(key);
      if (list) list.push(f);
      else filesOf.set(key, [f]);
    }
    const address = order.return_address;
    const allowed = allowedEvents(order, operator, now);
    return {
      order: {
        user_order_id: order.user_order_id,
        order_no: order.order_no,
        status: order.status,
        status_label: statusLabel(order.status),
        step: order.step,
        step_label: stepLabel(order.step),
        version: order.version,
        allowed_events: allowed,
        blocked_events: blockedEvents(order, operator, now, allowed),
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
        const items: WorkbenchCore['applicants'][number]['items'] = checklist
          .filter((m) => m.identity_id === applicant.identity_id && m.attr === 0)
          .map((m) => ({
            material_id: m.material_id,
            name: m.name,
            attention: m.attention,
            sample: m.sample,
            required: m.required === 1,
            files: (filesOf.get(`${applicant.applicant_id}:${m.material_id}`) ?? []).filter((f) => f.kind === 'material').map(fileView),
          }));
        if (order.visa_photo_id !== 0) {
          items.push({
            material_id: null,
            name: '签证照片',
            attention: '',
            sample: null,
            required: true,
            files: (filesOf.get(`${applicant.applicant_id}:photo`) ?? []).map(fileView),
          });
        }
        const interview = interviews.get(applicant.applicant_id);
        return {
          applicant_id: applicant.applicant_id,
          name: applicant.name,
          identity_label: IDENTITIES[applicant.identity_id as keyof typeof IDENTITIES] ?? '',
          mobile_phone: applicant.mobile_phone,
          email: applicant.email,
          passport_no: applicant.passport_no,
          passport_expiry: applicant.passport_expiry,
          // The customer's warning, the same rule (issue 28): the order's own trip and stay.
          passport_warning: passportValidityWarning(applicant.passport_expiry, { departure: order.departure_date, stayDays: order.stay_days }),
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
        event_label: ORDER_EVENTS[e.event as keyof typeof ORDER_EVENTS] ?? e.event,
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
  }

  return { core };
}

export type WorkbenchView = ReturnType<typeof createWorkbenchView>;

/** The operator's workbench with every panel: what /admin-api/order/workbench and the workbench page's loader answer. */
export function createOperatorWorkbench(db: Kysely<Database>, deps: { now: () => number; operators: OperatorDirectory; panels: WorkbenchPanelReads }) {
  const { core } = createWorkbenchView(db, deps);
  const reads = deps.panels;

  return {
    /** The order and every panel, read together (the panels' reads run alongside the order's). */
    async workbench(operator: Operator, userOrderId: number): Promise<AdminWorkbench> {
      const order = core(operator, userOrderId);
      const [bench, pageCheck, mail, shipBack, interview, priceDifference, refund, result, travellerMessages] = await Promise.all([
        order,
        panel(() => reads.pageCheck(operator, userOrderId)),
        panel(() => reads.mail(operator, userOrderId)),
        panel(() => reads.shipBack(operator, userOrderId)),
        // The interview panel only for a product with an interview (as the page showed it); the order's own refusal is core's.
        order.then(
          (read) => (read.product.need_interview ? panel(() => reads.interview(operator, userOrderId)) : null),
          () => null,
        ),
        panel(() => reads.priceDifferences(operator, userOrderId)),
        panel(() => reads.refunds(operator, userOrderId)),
        panel(() => reads.results(operator, userOrderId)),
        panel(() => reads.travellerMessages(operator, userOrderId)),
      ]);
      const panels: AdminWorkbenchPanels = {
        page_check: pageCheck,
        mail,
        ship_back: shipBack,
        interview,
        price_difference: priceDifference,
        refund,
        result,
        traveller_messages: travellerMessages,
      };
      // 递交使馆's rule also reads the order's records (page checks, price differences,
      // notices): the page-check read decides it, and the order's next actions say so.
      const submitBlocked = pageCheck?.submit_blocked_reason ?? null;
      if (submitBlocked === null || !bench.order.allowed_events.includes('submit')) return { ...bench, panels };
      const blocked = {
        ...bench.order,
        allowed_events: bench.order.allowed_events.filter((event) => event !== 'submit'),
        blocked_events: [...bench.order.blocked_events, { event: 'submit' as const, reason: submitBlocked }],
      };
      return { ...bench, order: blocked, panels };
    },
  };
}

export type OperatorWorkbench = ReturnType<typeof createOperatorWorkbench>;
