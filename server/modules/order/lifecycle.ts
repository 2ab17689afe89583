// The order lifecycle: the one owner of every order and applicant state
// change. LIFECYCLE is the table of the design (shared/design/order-lifecycle.md
// plus the rules in docs/order-rules.md): for each event, who may fire it,
// from which state (and processing step), to which, and the guard that the
// order row itself must satisfy. apply() (private) checks a change against
// the table, bumps the order's version, writes the order and applicant rows
// and the order_event audit row, all in a transaction the lifecycle opened.
// Services reach it two ways only: change() loads the caller's order (expired
// first when its 24 h are up), lets the service decide on it, applies, and
// decides again when another change won the race; transaction() opens one
// transaction in which a module writes its own rows (locked first: a payment,
// a refund) and applies its changes through tx.change (issue 24). No other
// module writes user_order, order_applicant status or order_event;
// docs/order-rules.md's diagram is generated from LIFECYCLE (npm run
// docs:lifecycle, kept in sync by lifecycle.test.ts).
import type { Kysely, Transaction, Updateable } from 'kysely';
import { ErrorCode } from '../../../common/error-codes.ts';
import {
  type ApplicantStatus,
  ORDER_EVENTS,
  ORDER_STEP_VALUES,
  type OrderEventName,
  type OrderStatus,
  type OrderStep,
  PRE_SUBMISSION_STEPS,
  statusLabel,
  stepLabel,
} from '../../../common/order.ts';
import { fromJson, type Json, toJson } from '../../db/json.ts';
import { type PriceDifferenceStatus } from '../../../common/price-difference.ts';
import { type RefundStatus } from '../../../common/refund.ts';
import type { Database, InterviewChangeStatus, OrderApplicantTable, PageCheckStatus, UserOrderTable } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { actorOf, type Principal, SYSTEM } from '../../platform/principal.ts';
import { giveBackInterviewSlots, heldInterviewSlots } from './interview-places.ts';
import { STEP_SLA, stepDueAt } from './sla.ts';
import { orderNumber } from '../../../common/order-number.ts';
import { notifies, noticesOf, type NoticeOrder } from '../order-notices/notice-kinds.ts';
import { storeNotices } from '../order-notices/notice-store.ts';
import { storeTravellerMessages } from '../order-notices/traveller-messages.ts';
import { announceAfterCommit } from './after-commit.ts';
import { createOrderRepository, type NewApplicant, type NewOrder, type OrderRow, type OrderScope } from './order.repository.ts';
import type { ChecklistVersion } from './checklist-version.ts';

export type { OrderRow } from './order.repository.ts';

// ── The table ─────────────────────────────────────────────────────────────

/** Where an order is: its status, and for `processing` its step. */
export type Place = Exclude<OrderStatus, 'processing'> | `processing:${OrderStep}`;

/** Who may fire an event. `operator` is any back-office staff member; `supervisor` only supervisors. */
export type LifecycleActor = 'customer' | 'operator' | 'supervisor' | 'system';

/** What an order row must look like for a rule's guard. */
export type GuardedOrder = Pick<OrderRow, 'user_order_id' | 'status' | 'step' | 'version' | 'expires_at' | 'departure_date' | 'need_interview'>;

export interface LifecycleRule {
  event: OrderEventName;
  by: readonly LifecycleActor[];
  /**
   * The places it may happen in: 'new' for the event that creates the order; 'any' for a record
   * that changes nothing of the order (only its audit row is written, the version stays).
   */
  from: 'new' | 'any' | readonly Place[];
  /** 'same' for events that change no state; otherwise every place it may lead to. */
  to: 'same' | readonly Place[];
  /** The guard in words (the generated docs show it). */
  rule: string;
  /** Edits of the order's content (its files, its effect date): the audit row names no status. */
  contentOnly?: true;
  /** The part of the guard the order row decides; the services check what needs other data. */
  guard?: (order: GuardedOrder, at: number) => AppError | null;
  /** The specific error when the order is not in a `from` place (default: 1819 with the state). */
  refuse?: (order: GuardedOrder) => AppError | null;
}

const processing = (...steps: OrderStep[]): Place[] => steps.map((step) => `processing:${step}` as const);
const ANY_PROCESSING = processing(...ORDER_STEP_VALUES);
const BEFORE_SUBMISSION = processing(...PRE_SUBMISSION_STEPS);
const UNPAID: Place[] = ['draft', 'pending_payment'];

const cancelledError = (order: GuardedOrder) => (order.status === 'cancelled' ? new AppError(ErrorCode.ORDER_ALREADY_CANCELLED) : null);
/** Why an order cannot be paid (an expired one is told apart by the payment service, from its last event). */
const notPayable = (order: GuardedOrder) => {
  if (order.status === 'draft') return new AppError(ErrorCode.PAYMENT_ORDER_NOT_PAYABLE, '订单尚未确认，请先确认订单再支付');
  if (order.status === 'processing' || order.status === 'completed') return new AppError(ErrorCode.PAYMENT_ORDER_PAID);
  return cancelledError(order) ?? new AppError(ErrorCode.PAYMENT_ORDER_NOT_PAYABLE);
};
const notExpired = (order: GuardedOrder, at: number) =>
  order.status === 'draft' && order.expires_at !== null && order.expires_at <= at ? new AppError(ErrorCode.ORDER_ALREADY_CANCELLED) : null;

/** Why the customer's files and visa effect date cannot change now (they can in a draft, and a no-pass file while a re-upload is asked). */
const MATERIALS_LOCKED: Partial<Record<OrderStatus, string>> = {
  pending_payment: '订单已确认，资料不能再修改',
  processing: '订单正在办理，资料不能再修改',
  completed: '订单已完成，资料不能再修改',
  refunded: '订单已退款，资料不能再修改',
};
const materialsLocked = (order: GuardedOrder) => cancelledError(order) ?? new AppError(ErrorCode.MATERIAL_ORDER_LOCKED, MATERIALS_LOCKED[order.status]);

const notProcessing = () => new AppError(ErrorCode.PRICE_DIFFERENCE_ORDER_NOT_PROCESSING);

export const LIFECYCLE: readonly LifecycleRule[] = [
  // The customer orders (issue 4).
  { event: 'create', by: ['customer'], from: 'new', to: ['draft'], rule: 'product listed and offline; departure date today or later; 1–20 applicants' },
  {
    event: 'material_upload',
    by: ['customer'],
    from: ['draft', 'processing:reupload_needed'],
    to: 'same',
    contentOnly: true,
    rule: 'draft not past its 24 h; in reupload_needed only items holding a no-pass file; ≤ 10 files per item',
    guard: notExpired,
    refuse: materialsLocked,
  },
  {
    event: 'material_replace',
    by: ['customer'],
    from: ['draft', 'processing:reupload_needed'],
    to: 'same',
    contentOnly: true,
    rule: 'as material_upload; in reupload_needed only a no-pass file',
    guard: notExpired,
    refuse: materialsLocked,
  },
  {
    event: 'material_delete',
    by: ['customer'],
    from: ['draft', 'processing:reupload_needed'],
    to: 'same',
    contentOnly: true,
    rule: 'as material_upload; in reupload_needed only a no-pass file',
    guard: notExpired,
    refuse: materialsLocked,
  },
  {
    event: 'effect_date',
    by: ['customer'],
    from: ['draft'],
    to: 'same',
    contentOnly: true,
    rule: 'from the order date to the departure date, or none',
    refuse: materialsLocked,
  },
  {
    event: 'interview_choose',
    by: ['customer'],
    from: ['draft'],
    to: 'same',
    rule: 'every applicant exactly once; a slot of the consulate with a place left (the database decides the last place), in the bookable window',
    refuse: (order) => cancelledError(order) ?? new AppError(ErrorCode.INTERVIEW_ORDER_LOCKED),
  },
  {
    event: 'confirm',
    by: ['customer'],
    from: ['draft'],
    to: ['pending_payment'],
    rule: 'departure date not past; materials complete; interview times chosen; address of the enterprise; insurance valid or none',
    refuse: (order) => cancelledError(order) ?? new AppError(ErrorCode.ORDER_ALREADY_CONFIRMED),
  },
  {
    event: 'payment_create',
    by: ['customer'],
    from: ['pending_payment'],
    to: 'same',
    rule: 'order not past its 24 h; amount = the order total',
    refuse: notPayable,
  },
  {
    event: 'pay',
    by: ['system'],
    from: ['pending_payment', 'cancelled'],
    to: ['processing:material_review'],
    rule: 'verified notification, amount = total; from cancelled only when expired while paid in time and no interview places were given away',
  },
  { event: 'payment_refund_due', by: ['system'], from: 'any', to: 'same', rule: 'money arrived that the order cannot take (recorded for the operators)' },
  {
    event: 'cancel',
    by: ['customer'],
    from: UNPAID,
    to: ['cancelled'],
    rule: 'only before payment; interview places are given back',
    refuse: (order) =>
      cancelledError(order) ??
      (order.status === 'refunded' ? new AppError(ErrorCode.ORDER_NOT_CANCELLABLE, '订单已退款，无法取消') : new AppError(ErrorCode.ORDER_NOT_CANCELLABLE)),
  },
  {
    event: 'expire',
    by: ['system'],
    from: UNPAID,
    to: ['cancelled'],
    rule: '24 h after creation, no payment still pending; interview places are given back',
    guard: (order, at) => (order.expires_at !== null && order.expires_at <= at ? null : new AppError(ErrorCode.ORDER_STATE_INVALID, '订单尚未到期')),
  },
  {
    event: 'departure_date_update',
    by: ['customer'],
    from: [...UNPAID, ...BEFORE_SUBMISSION],
    to: 'same',
    rule: 'new date today or later, ≤ 366 days, not before the order date; insurance moves with it',
    refuse: (order) => cancelledError(order) ?? new AppError(ErrorCode.ORDER_DEPARTURE_NOT_CHANGEABLE),
  },

  // The back office takes over once paid (issues 9–11).
  { event: 'assign', by: ['operator'], from: ANY_PROCESSING, to: 'same', rule: 'an operator takes an unassigned order; a supervisor assigns any' },
  {
    event: 'material_review',
    by: ['operator'],
    from: processing('material_review'),
    to: 'same',
    rule: 'a pending file of this order: pass, or no-pass with a memo',
  },
  {
    event: 'material_review_passed',
    by: ['operator'],
    from: processing('material_review'),
    to: processing('awaiting_mail', 'page_check'),
    rule: 'no file pending and every required file passed; awaiting_mail when the product has mailed paper materials',
  },
  {
    event: 'material_review_failed',
    by: ['operator'],
    from: processing('material_review'),
    to: processing('reupload_needed'),
    rule: 'no file pending and at least one no-pass',
  },
  {
    event: 'reupload_submit',
    by: ['customer'],
    from: processing('reupload_needed'),
    to: processing('material_review'),
    rule: 'every no-pass file replaced (or deleted with its item complete)',
  },
  {
    event: 'mail_send',
    by: ['customer'],
    from: processing('awaiting_mail'),
    to: 'same',
    rule: 'a courier pickup booked or a courier company and waybill number given',
  },
  {
    event: 'mail_missing',
    by: ['operator'],
    from: processing('awaiting_mail'),
    to: 'same',
    rule: 'parcel received with items missing: the customer is asked to send them',
  },
  {
    event: 'mail_receive',
    by: ['operator'],
    from: processing('awaiting_mail'),
    to: processing('page_check'),
    rule: 'parcel received and checked against the list',
  },
  { event: 'page_check_publish', by: ['operator'], from: processing('page_check'), to: 'same', rule: "an applicant's filled-in application pages" },
  { event: 'page_check_confirm', by: ['customer'], from: processing('page_check'), to: 'same', rule: "the applicant's published pages" },
  {
    event: 'page_check_correction',
    by: ['customer'],
    from: processing('page_check'),
    to: 'same',
    rule: "the applicant's published pages, with a comment on a page",
  },
  {
    event: 'page_check_done',
    by: ['customer'],
    from: processing('page_check'),
    // Issue 10 (page check): without an interview the order stays in page_check, all confirmed, until `submit`.
    to: processing('interview', 'page_check'),
    rule: 'every applicant confirmed; to interview when the product needs one, else it waits in page_check for submit',
  },
  {
    event: 'interview_notice_publish',
    by: ['operator'],
    from: processing('interview'),
    to: 'same',
    rule: "an applicant's date, time, place, process, notes and what to bring",
  },
  { event: 'interview_change_request', by: ['customer'], from: processing('interview'), to: 'same', rule: 'a free slot before the departure date' },
  { event: 'interview_change_accept', by: ['operator'], from: processing('interview'), to: 'same', rule: 'an open change request' },
  { event: 'interview_change_decline', by: ['operator'], from: processing('interview'), to: 'same', rule: 'an open change request' },
  // Price difference (issue 10, server/modules/price-difference): the order row keeps the open amount and the sum paid.
  {
    event: 'price_difference_request',
    by: ['operator'],
    from: ANY_PROCESSING,
    to: 'same',
    rule: 'an amount > 0 and a reason; none other open; the version the operator saw',
    refuse: notProcessing,
  },
  {
    event: 'price_difference_pay',
    by: ['system'],
    from: ANY_PROCESSING,
    to: 'same',
    rule: 'verified notification for the open price difference, amount equal (else the money is refunded)',
    refuse: notProcessing,
  },
  {
    event: 'price_difference_cancel',
    by: ['operator'],
    from: ANY_PROCESSING,
    to: 'same',
    rule: 'an open, unpaid price difference; the version the operator saw',
    refuse: notProcessing,
  },
  {
    event: 'submit',
    by: ['operator'],
    from: processing('page_check', 'interview'),
    to: processing('submitted'),
    rule: 'every applicant confirmed their pages; with an interview, every notice published; no open price difference; the embassy submission date (paid day … today)',
  },
  {
    event: 'result_issue',
    by: ['operator'],
    from: processing('submitted'),
    to: 'same',
    rule: 'an applicant without a result: visa number, validity (from ≤ to), entries, stay; the e-visa file for e-visa products',
    refuse: () => new AppError(ErrorCode.RESULT_NOT_SUBMITTED),
  },
  {
    event: 'result_reject',
    by: ['operator'],
    from: processing('submitted'),
    to: 'same',
    rule: 'an applicant without a result: common reasons and/or text; the refund on rejection in the same transaction',
    refuse: () => new AppError(ErrorCode.RESULT_NOT_SUBMITTED),
  },
  {
    // A record (decision 0026): the refund rows are the state, the order row does not change, so a
    // rejection refund can be recorded inside the result_reject change's own transaction.
    event: 'refund_create',
    by: ['system', 'supervisor'],
    from: 'any',
    to: 'same',
    rule: 'processing or completed; refund on rejection (product has 拒签退全款), or a supervisor with a reason; never more than was paid',
    guard: (order) => (order.status === 'processing' || order.status === 'completed' ? null : new AppError(ErrorCode.REFUND_ORDER_STATE)),
  },
  { event: 'refund_settle', by: ['system'], from: 'any', to: 'same', rule: 'verified refund notification' },
  {
    event: 'close_refund',
    by: ['supervisor'],
    from: BEFORE_SUBMISSION,
    to: ['refunded'],
    rule: 'before submission, with a reason: everything paid is refunded',
    refuse: () => new AppError(ErrorCode.REFUND_CLOSE_NOT_ALLOWED),
  },
  {
    event: 'ship_back',
    by: ['operator'],
    from: processing('submitted'),
    to: processing('returning'),
    rule: 'every applicant has a result; passports held (a parcel of paper materials came in); a pickup to the return (or peer) address snapshot',
  },
  {
    event: 'return_delivered',
    by: ['system'],
    from: processing('returning'),
    to: ['completed', 'refunded'],
    rule: 'the courier delivered the passports; refunded when every applicant was refused and refunded',
  },
  // Issue 25: the return parcel's tracking stopped or reported a failed delivery or a return (物流异常,
  // decision 0039): the operator records what became of it, with a note, instead of the courier.
  {
    event: 'return_confirm',
    by: ['operator'],
    from: processing('returning'),
    to: ['completed', 'refunded'],
    rule: 'a return parcel not delivered yet: the operator records it delivered by hand, with a note (tracking stopped or failed); refunded as return_delivered',
  },
  {
    event: 'return_back',
    by: ['operator'],
    from: processing('returning'),
    to: processing('submitted'),
    rule: 'a return parcel not delivered yet came back to the service: recorded by hand with a note; the passports can be shipped again (ship_back)',
  },
  {
    event: 'complete',
    by: ['operator'],
    from: processing('submitted'),
    to: ['completed', 'refunded'],
    rule: 'every applicant has a result and no passports are held (e-visa products, no mailed materials); refunded as return_delivered',
  },
  {
    event: 'retention_purge',
    by: ['system'],
    from: ['completed', 'refunded'],
    to: 'same',
    rule: 'uploaded scans deleted RETENTION_DAYS (30) after completed/refunded; only files and their rows',
  },
];

// ── The sub-machines ──────────────────────────────────────────────────────
// Records an order holds besides its own state, each with a state machine of
// its own: an applicant's page check, an applicant's interview date change
// request, the order's price difference, each refund. Their states are not
// the order's, so they are not places; each transition says from which states
// of its record it may happen (the guard over the sub-record), to which, the
// order event it is recorded as (null: no audit row, e.g. the worker's send),
// and the refusal. Services decide with checkSubAllowed/subAllows and write
// with subFrom() in their conditional updates: the table is the one place
// that says it (issue 24). The order event's own rule (LIFECYCLE) still says
// who may fire it and from which places of the order.

/** The states of each sub-record; 'none' where there is no record yet (or none open). */
export interface SubStates {
  page_check: PageCheckStatus;
  interview_change: 'none' | InterviewChangeStatus;
  price_difference: 'none' | PriceDifferenceStatus;
  refund: 'none' | RefundStatus;
}
export type SubMachine = keyof SubStates;

export interface SubRule<M extends SubMachine> {
  /** The order event this transition is recorded as; null when it writes no audit row. */
  event: OrderEventName | null;
  by: readonly LifecycleActor[];
  from: readonly SubStates[M][];
  to: readonly SubStates[M][];
  /** The guard in words (the generated docs show it). */
  rule: string;
  /** What a caller gets when the record is in no `from` state. */
  refuse: () => AppError;
}

const subRules =
  <M extends SubMachine>() =>
  <R extends Record<string, SubRule<M>>>(rules: R) =>
    rules;

export const SUB_LIFECYCLE = {
  page_check: {
    title: "an applicant's page check (申请页核对, per applicant; no row yet = draft)",
    rules: subRules<'page_check'>()({
      edit_pages: {
        event: null,
        by: ['operator'],
        from: ['draft', 'correction'],
        to: ['draft', 'correction'],
        rule: 'pages uploaded or deleted only while not published (or sent back for correction)',
        refuse: () => new AppError(ErrorCode.PAGE_CHECK_LOCKED),
      },
      publish: {
        event: 'page_check_publish',
        by: ['operator'],
        from: ['draft', 'correction'],
        to: ['published'],
        rule: 'at least one page; a republication after a correction counts a new round',
        refuse: () => new AppError(ErrorCode.PAGE_CHECK_LOCKED),
      },
      confirm: {
        event: 'page_check_confirm',
        by: ['customer'],
        from: ['published'],
        to: ['confirmed'],
        rule: 'the published pages; the last applicant confirmed ends the check (page_check_done)',
        refuse: () => new AppError(ErrorCode.PAGE_CHECK_NOT_PUBLISHED),
      },
      correction: {
        event: 'page_check_correction',
        by: ['customer'],
        from: ['published'],
        to: ['correction'],
        rule: 'the published pages, with a comment on at least one page',
        refuse: () => new AppError(ErrorCode.PAGE_CHECK_NOT_PUBLISHED),
      },
    }),
  },
  interview_change: {
    title: "an applicant's interview date change request (面试改期; none = no open request)",
    rules: subRules<'interview_change'>()({
      request: {
        event: 'interview_change_request',
        by: ['customer'],
        from: ['none', 'accepted', 'declined'],
        to: ['open'],
        rule: 'a published notice; one open request per applicant; another free slot of the consulate in the window',
        refuse: () => new AppError(ErrorCode.INTERVIEW_CHANGE_ALREADY_OPEN),
      },
      accept: {
        event: 'interview_change_accept',
        by: ['operator'],
        from: ['open'],
        to: ['accepted'],
        rule: "the open request; the applicant's place moves to the requested slot (if it still has one)",
        refuse: () => new AppError(ErrorCode.INTERVIEW_CHANGE_NOT_FOUND),
      },
      decline: {
        event: 'interview_change_decline',
        by: ['operator'],
        from: ['open'],
        to: ['declined'],
        rule: 'the open request; the applicant keeps the time they had',
        refuse: () => new AppError(ErrorCode.INTERVIEW_CHANGE_NOT_FOUND),
      },
    }),
  },
  price_difference: {
    title: "the order's price difference (补差价; none = no open one)",
    rules: subRules<'price_difference'>()({
      create: {
        event: 'price_difference_request',
        by: ['operator'],
        from: ['none', 'paid', 'cancelled'],
        to: ['open'],
        rule: 'no other open price difference; an amount > 0 and a reason',
        refuse: () => new AppError(ErrorCode.PRICE_DIFFERENCE_ALREADY_OPEN),
      },
      pay: {
        event: 'price_difference_pay',
        by: ['system'],
        from: ['open'],
        to: ['paid'],
        rule: 'a verified payment of exactly the open amount (else the money goes back: payment_refund_due)',
        refuse: () => new AppError(ErrorCode.PRICE_DIFFERENCE_NOT_OPEN),
      },
      close: {
        event: 'price_difference_cancel',
        by: ['operator'],
        from: ['open'],
        to: ['cancelled'],
        rule: 'open and unpaid; close_refund closes an open one too',
        refuse: () => new AppError(ErrorCode.PRICE_DIFFERENCE_NOT_OPEN),
      },
    }),
  },
  refund: {
    title: 'a refund (退款; each gives back part of one payment)',
    rules: subRules<'refund'>()({
      create: {
        event: 'refund_create',
        by: ['system', 'supervisor'],
        from: ['none'],
        to: ['pending'],
        rule: 'as refund_create: a rejection refund once per applicant, or a supervisor by hand; never more than the payment has left',
        refuse: () => new AppError(ErrorCode.REFUND_ORDER_STATE),
      },
      close: {
        event: 'close_refund',
        by: ['supervisor'],
        from: ['none'],
        to: ['pending'],
        rule: 'as close_refund: one refund per payment for what it has left',
        refuse: () => new AppError(ErrorCode.REFUND_CLOSE_NOT_ALLOWED),
      },
      send: {
        event: null,
        by: ['system'],
        from: ['pending'],
        to: ['processing'],
        rule: 'the worker gave it to the provider, which is still processing it',
        refuse: () => new AppError(ErrorCode.REFUND_NOT_FOUND),
      },
      succeed: {
        event: 'refund_settle',
        by: ['system'],
        from: ['pending', 'processing'],
        to: ['succeeded'],
        rule: "the provider's verified word (notification or query), once; the customer is told",
        refuse: () => new AppError(ErrorCode.REFUND_NOT_FOUND),
      },
      fail: {
        event: null,
        by: ['system'],
        from: ['pending', 'processing'],
        to: ['failed'],
        rule: 'the provider refused it for good: the money is refundable again, the operators see it',
        refuse: () => new AppError(ErrorCode.REFUND_NOT_FOUND),
      },
    }),
  },
} as const;

export type SubTransition<M extends SubMachine> = keyof (typeof SUB_LIFECYCLE)[M]['rules'] & string;

export function subRuleOf<M extends SubMachine>(machine: M, transition: SubTransition<M>): SubRule<M> {
  return (SUB_LIFECYCLE[machine].rules as unknown as Record<string, SubRule<M>>)[transition]!;
}

/** The stored states a sub-record may be in for a transition ('none' is no row): a conditional update's WHERE status IN …. */
export function subFrom<M extends SubMachine>(machine: M, transition: SubTransition<M>): Array<Exclude<SubStates[M], 'none'>> {
  return subRuleOf(machine, transition).from.filter((state): state is Exclude<SubStates[M], 'none'> => state !== 'none');
}

/** Whether the record's state is where the transition leads (an applicant's pages confirmed). */
export function subReached<M extends SubMachine>(machine: M, transition: SubTransition<M>, state: SubStates[M] | undefined): boolean {
  return state !== undefined && subRuleOf(machine, transition).to.includes(state);
}

/** Whether the record's state lets the transition happen. */
export function subAllows<M extends SubMachine>(machine: M, transition: SubTransition<M>, state: SubStates[M]): boolean {
  return subRuleOf(machine, transition).from.includes(state);
}

/** The refusal the table gives for the transition from this state, or null. */
export function subRefusalOf<M extends SubMachine>(machine: M, transition: SubTransition<M>, state: SubStates[M]): AppError | null {
  const rule = subRuleOf(machine, transition);
  return rule.from.includes(state) ? null : rule.refuse();
}

/** Throws the table's refusal when the record's state does not allow the transition. */
export function checkSubAllowed<M extends SubMachine>(machine: M, transition: SubTransition<M>, state: SubStates[M]): void {
  const refusal = subRefusalOf(machine, transition, state);
  if (refusal) throw refusal;
}

/** Every sub-machine transition with its machine and name (docs, tests). */
export function subTransitions(): Array<{ machine: SubMachine; transition: string; rule: SubRule<SubMachine> }> {
  return (Object.keys(SUB_LIFECYCLE) as SubMachine[]).flatMap((machine) =>
    Object.entries(SUB_LIFECYCLE[machine].rules as unknown as Record<string, SubRule<SubMachine>>).map(([transition, rule]) => ({ machine, transition, rule })),
  );
}

const RULES = new Map(LIFECYCLE.map((rule) => [rule.event, rule]));

export function ruleOf(event: OrderEventName): LifecycleRule {
  const rule = RULES.get(event);
  if (!rule) throw new Error(`no lifecycle rule for ${event}`);
  return rule;
}

export function placeOf(order: { status: OrderStatus; step: OrderStep | null }): Place {
  return order.status === 'processing' ? `processing:${order.step ?? 'material_review'}` : (order.status as Exclude<OrderStatus, 'processing'>);
}

export function placeParts(place: Place): { status: OrderStatus; step: OrderStep | null } {
  const [status, step] = place.split(':') as [OrderStatus, OrderStep | undefined];
  return { status, step: step ?? null };
}

function placeLabel(order: { status: OrderStatus; step: OrderStep | null }): string {
  return order.status === 'processing' && order.step ? `${statusLabel(order.status)}（${stepLabel(order.step)}）` : statusLabel(order.status);
}

function mayFire(rule: LifecycleRule, caller: Principal): boolean {
  switch (caller.kind) {
    case 'customer':
      return rule.by.includes('customer');
    case 'operator':
      // A 产品编辑 (issue 26) does no order work: its calls are refused before they get here, and nothing fires for it.
      if (caller.role === 'catalogue_editor') return false;
      return rule.by.includes('operator') || (caller.role === 'supervisor' && rule.by.includes('supervisor'));
    case 'system':
      return rule.by.includes('system');
  }
}

// ── Applying a change ─────────────────────────────────────────────────────

/** The state a change is decided on and applied to. */
export type OrderState = Pick<OrderRow, 'user_order_id' | 'status' | 'step' | 'version' | 'expires_at' | 'departure_date' | 'need_interview'>;

type OrderColumns = Omit<
  Updateable<UserOrderTable>,
  'user_order_id' | 'enterprise_id' | 'status' | 'step' | 'version' | 'updated_at' | 'step_entered_at' | 'step_due_at'
>;
type ApplicantColumns = Omit<Updateable<OrderApplicantTable>, 'applicant_id' | 'user_order_id'>;

export interface Change {
  event: OrderEventName;
  /** Where it leads, when the rule allows several places (else the rule's only one, or the same place). */
  to?: Place;
  /** Other columns of the order this event writes. */
  set?: OrderColumns;
  /** Applicant rows this event writes (status, interview time, insured…), all of this order. */
  applicants?: Array<{ applicant_id: number; set: ApplicantColumns & { status?: ApplicantStatus } }>;
  /** What the audit row records (a function when it depends on what `within` wrote). */
  detail?: Record<string, unknown> | null | (() => Record<string, unknown>);
  /**
   * How the order row guards the change: 'version' (default) — nothing about the order may have
   * changed since it was read; 'place' — only its state may not have (independent changes such as
   * uploads serialise instead of failing; `within` re-checks what it depends on).
   */
  concurrency?: 'version' | 'place';
  /**
   * For a record (a rule `from: 'any'`): also move the order's version, under the version it was
   * decided on, so that one submission makes one record — a second one decided on the same version
   * is a LifecycleConflict (a supervisor's refund_create: twenty clicks, one refund).
   */
  claimVersion?: true;
  /** Writes of other modules' tables that belong to the change, run right after the order row is won. */
  within?: (trx: Transaction<Database>, order: OrderState) => Promise<void>;
}

/**
 * A transaction the lifecycle opened (createOrderLifecycle().transaction): a
 * module writes its own rows through `trx` and every change of an order
 * through `change`, so its rows and the order's change (with its audit row,
 * notices and after-commit announcement) commit or roll back together, and
 * several changes can share one transaction. Changes are applied at `at`.
 */
export interface LifecycleTransaction {
  readonly trx: Transaction<Database>;
  readonly at: number;
  /**
   * Applies one change, checked against the table (who, from where, to where, the guard): updates
   * the order row under its version (or place), runs `within`, writes the applicant rows and the
   * audit row. Returns the order's new state (for a second change in the same transaction). Throws
   * AppError when the table refuses, LifecycleConflict when the row moved on.
   */
  change(order: OrderState, change: Change, caller: Principal): Promise<OrderState>;
}

/** The order moved on since it was read: decide again. */
export class LifecycleConflict extends Error {}

/**
 * Throws what the table says against firing `event` on this order now (who,
 * from where, the rule's guard). Services call it before checking their own
 * inputs, so a wrong state is refused before a wrong date; apply() calls it again.
 */
export function checkAllowed(event: OrderEventName, order: GuardedOrder, caller: Principal, at: number): LifecycleRule {
  const rule = ruleOf(event);
  if (!mayFire(rule, caller)) throw new AppError(ErrorCode.ORDER_ACTION_FORBIDDEN);
  if (rule.from === 'new') throw new Error(`lifecycle: ${event} creates an order; use create()`);
  if (rule.from !== 'any' && !rule.from.includes(placeOf(order))) {
    throw rule.refuse?.(order) ?? new AppError(ErrorCode.ORDER_STATE_INVALID, `订单${placeLabel(order)}，不能${ORDER_EVENTS[event].replace(/，.*$/, '')}`);
  }
  const guardError = rule.guard?.(order, at);
  if (guardError) throw guardError;
  return rule;
}

/**
 * What the table says of firing `event` on this order now, for `caller`: null
 * when it may, else the refusal it would get (its Chinese message is the
 * reason a page shows beside a disabled button). The service may still refuse
 * on data the order row does not hold (a file still pending, an address).
 */
export function refusalOf(event: OrderEventName, order: GuardedOrder, caller: Principal, at: number): AppError | null {
  const rule = ruleOf(event);
  if (rule.from === 'new') return new AppError(ErrorCode.ORDER_STATE_INVALID);
  try {
    checkAllowed(event, order, caller, at);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/**
 * Whether the order's state lets `event` happen now, whoever fires it (its
 * places and its guard, not its actors): a panel's "the order allows it"
 * flag, where who may press the button is the panel's own rule (assignee,
 * supervisor) and shown as such.
 */
export function stateAllows(event: OrderEventName, order: GuardedOrder, at: number): boolean {
  const rule = ruleOf(event);
  if (rule.from === 'new') return false;
  if (rule.from !== 'any' && !rule.from.includes(placeOf(order))) return false;
  return (rule.guard?.(order, at) ?? null) === null;
}

/** The states of the sub-records a caller asks about (an applicant's page check, the open price difference…). */
export type SubRecordStates = { [M in SubMachine]?: SubStates[M] };

/**
 * The events `caller` may fire on this order now, by the table: each side's
 * order view carries them (allowed_events), and pages show an action only
 * when its event is among them. System events are never a person's to fire.
 * Given the state of a sub-record (`sub`), an event recorded by one of that
 * sub-machine's transitions is listed only when the record's state allows it
 * too (an applicant's published pages: page_check_confirm, not page_check_publish).
 */
export function allowedEvents(order: GuardedOrder, caller: Principal, at: number, sub: SubRecordStates = {}): OrderEventName[] {
  return LIFECYCLE.filter(
    (rule) => rule.from !== 'new' && mayFire(rule, caller) && refusalOf(rule.event, order, caller, at) === null && subRecordsAllow(rule.event, sub),
  ).map((rule) => rule.event);
}

/** Whether every given sub-record whose machine records `event` is in a state its transition starts from. */
function subRecordsAllow(event: OrderEventName, sub: SubRecordStates): boolean {
  return subTransitions().every(({ machine, rule }) => {
    const state = sub[machine];
    return rule.event !== event || state === undefined || rule.from.includes(state);
  });
}

/**
 * The events of one sub-machine `caller` may fire now on one of its records
 * (an applicant's page check, say): allowed by the order's rule and by the
 * record's state. A per-record view carries these as its own allowed_events.
 */
export function allowedSubEvents<M extends SubMachine>(machine: M, state: SubStates[M], order: GuardedOrder, caller: Principal, at: number): OrderEventName[] {
  const mine = new Set(subTransitions().flatMap(({ machine: m, rule }) => (m === machine && rule.event ? [rule.event] : [])));
  return allowedEvents(order, caller, at, { [machine]: state }).filter((event) => mine.has(event));
}

/** Who may fire an event from a place, by the table alone (the docs' per-side table; guards aside). */
export function eventsFrom(place: Place, actor: 'customer' | 'operator' | 'supervisor'): OrderEventName[] {
  return LIFECYCLE.filter((rule) => {
    if (rule.from === 'new') return false;
    const by = actor === 'supervisor' ? rule.by.includes('supervisor') || rule.by.includes('operator') : rule.by.includes(actor);
    if (!by) return false;
    if (rule.from !== 'any') return rule.from.includes(place);
    // A record's places are its guard's (refund_create: processing or completed), read on the state alone.
    const { status, step } = placeParts(place);
    return !rule.guard || rule.guard({ user_order_id: 0, status, step, version: 0, expires_at: null, departure_date: '', need_interview: false }, 0) === null;
  }).map((rule) => rule.event);
}

/** The lifecycle's side of a transaction: what `change` of a LifecycleTransaction is. */
function lifecycleTransaction(trx: Transaction<Database>, at: number): LifecycleTransaction {
  const tx: LifecycleTransaction = { trx, at, change: (order, change, caller) => apply(tx, order, change, caller) };
  return tx;
}

/**
 * Applies one change inside a lifecycle transaction (see LifecycleTransaction.change). Private:
 * services reach it through createOrderLifecycle()'s change() or transaction(), never with a
 * transaction of their own making.
 */
async function apply(tx: LifecycleTransaction, order: OrderState, change: Change, caller: Principal): Promise<OrderState> {
  const { trx, at } = tx;
  const rule = checkAllowed(change.event, order, caller, at);
  const from = placeOf(order);
  const to = change.to ?? (rule.to === 'same' ? from : rule.to.length === 1 ? rule.to[0]! : undefined);
  if (to === undefined || (rule.to === 'same' ? to !== from : !rule.to.includes(to))) {
    throw new Error(`lifecycle: ${change.event} cannot lead from ${from} to ${String(to)}`);
  }
  const next = placeParts(to);
  const moved = next.status !== order.status || next.step !== order.step;
  if (rule.from === 'any') {
    // A record only: the order's state does not change (its version does when the change claims it).
    let after = order;
    if (change.claimVersion) {
      const claimed = await trx
        .updateTable('user_order')
        .set((eb) => ({ version: eb('version', '+', 1), updated_at: at }))
        .where('user_order_id', '=', order.user_order_id)
        .where('version', '=', order.version)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new LifecycleConflict(`order ${order.user_order_id} moved on`);
      after = { ...order, version: order.version + 1 };
    }
    await insertEvent(trx, order, after, change, caller, at, rule);
    return after;
  }

  // A new step starts its clock here, and only here: when it was entered and when it is due.
  const stepClock = moved ? { step_entered_at: at, step_due_at: await dueOfStep(trx, order.user_order_id, next, at) } : {};
  let update = trx
    .updateTable('user_order')
    .set((eb) => ({
      ...change.set,
      status: next.status,
      step: next.step,
      updated_at: at,
      ...stepClock,
      version: eb('version', '+', 1),
    }))
    .where('user_order_id', '=', order.user_order_id);
  update =
    change.concurrency === 'place'
      ? update.where('status', '=', order.status).where('step', order.step === null ? 'is' : '=', order.step)
      : update.where('version', '=', order.version);
  const result = await update.executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new LifecycleConflict(`order ${order.user_order_id} moved on`);
  const after: OrderState = { ...order, ...next, version: order.version + 1, ...pickState(change.set) };

  if (change.within) await change.within(trx, after);
  for (const applicant of change.applicants ?? []) {
    const written = await trx
      .updateTable('order_applicant')
      .set(applicant.set)
      .where('applicant_id', '=', applicant.applicant_id)
      .where('user_order_id', '=', order.user_order_id)
      .executeTakeFirst();
    if (Number(written.numUpdatedRows) !== 1) throw new LifecycleConflict(`applicant ${applicant.applicant_id} is not of order ${order.user_order_id}`);
  }
  await insertEvent(trx, order, after, change, caller, at, rule);
  return after;
}

/** The SLA due time of the step an order enters (sla.ts); the product's processing time only when a step counts by it. */
async function dueOfStep(trx: Transaction<Database>, userOrderId: number, next: { status: OrderStatus; step: OrderStep | null }, at: number) {
  if (next.status !== 'processing' || next.step === null || STEP_SLA[next.step] === null) return null;
  let needDays = 0;
  if (STEP_SLA[next.step] === 'product') {
    const product = await trx
      .selectFrom('user_order')
      .innerJoin('visa_product', 'visa_product.visa_product_id', 'user_order.visa_product_id')
      .select('visa_product.need_days')
      .where('user_order.user_order_id', '=', userOrderId)
      .executeTakeFirst();
    needDays = product?.need_days ?? 0;
  }
  return stepDueAt(next.step, at, needDays);
}

/**
 * The audit row, then the notices of the event (order-notices/notice-kinds.ts: who is told
 * what) with their outbox e-mails, in the same transaction: a committed event always has its
 * notices, and a rolled-back one none. The notification module's after-commit hook sends the
 * e-mails once the transaction commits, whoever commits it (after-commit.ts).
 */
async function insertEvent(
  trx: Transaction<Database>,
  before: OrderState,
  after: OrderState,
  change: Change,
  caller: Principal,
  at: number,
  rule: LifecycleRule,
): Promise<void> {
  const states = rule.contentOnly
    ? { from_status: null, to_status: null, from_step: null, to_step: null }
    : { from_status: before.status, to_status: after.status, from_step: before.step, to_step: after.step };
  const detail = detailOf(change);
  const { event_id } = await trx
    .insertInto('order_event')
    .values({ user_order_id: before.user_order_id, ...actorOf(caller), event: change.event, ...states, detail, created_at: at })
    .returning('event_id')
    .executeTakeFirstOrThrow();
  // The modules' after-commit hooks (after-commit.ts: e-mails, refunds) run once this transaction commits.
  await announceAfterCommit(trx, { event: change.event, user_order_id: before.user_order_id, event_id, at });
  if (!notifies(change.event)) return;
  const order = await trx.selectFrom('user_order').selectAll().where('user_order_id', '=', before.user_order_id).executeTakeFirstOrThrow();
  // Issue 11: templates may read the event's status and detail (the waybill of ship_back, completed or refunded).
  const noticeEvent = {
    event_id,
    event: change.event,
    to_step: states.to_step,
    to_status: states.to_status,
    detail: detail ? fromJson(detail) : null,
    created_at: at,
  };
  await storeNotices(trx, noticesOf(noticeEvent, noticeOrder(order)));
  // Issue 29: the applicants concerned are told themselves, by SMS and e-mail (order-notices/traveller-messages.ts).
  await storeTravellerMessages(trx, noticeEvent, noticeOrder(order));
}

/** What the notices' templates use of the order row (the assignee is told of a re-upload). */
function noticeOrder(
  row: Pick<NoticeOrder, 'user_order_id' | 'account_id' | 'product_title' | 'assignee_operator_id'> & { order_no: string | null; created_at: number },
): NoticeOrder {
  return {
    user_order_id: row.user_order_id,
    order_no: row.order_no ?? orderNumber(row.user_order_id, row.created_at),
    account_id: row.account_id,
    product_title: row.product_title,
    assignee_operator_id: row.assignee_operator_id,
  };
}

function detailOf(change: Change): Json<Record<string, unknown>> | null {
  const detail = typeof change.detail === 'function' ? change.detail() : change.detail;
  return detail ? toJson(detail) : null;
}

/** The state columns a change may also set (expiry, departure date) so a second change sees them. */
function pickState(set: OrderColumns | undefined): Partial<OrderState> {
  if (!set) return {};
  const picked: Partial<OrderState> = {};
  if (set.expires_at !== undefined) picked.expires_at = set.expires_at as number | null;
  if (typeof set.departure_date === 'string') picked.departure_date = set.departure_date;
  return picked;
}

// ── What services call ────────────────────────────────────────────────────

/** How often a change is decided again after losing a race, before 1817. */
const MAX_ATTEMPTS = 3;
const EXPIRY_BATCH = 100;
const EXPIRY_MAX_ROUNDS = 50;

export const EXPIRE_REASON = '超时未支付，订单已自动取消';

export interface CurrentOptions {
  /** Runs right before an overdue unpaid order is expired (the payment module settles its payments). */
  beforeExpire?: () => Promise<void>;
}

/** What a service decides on an order: one change, several in one transaction, or nothing (null). */
export type Decision = Change | Change[] | null;

function scopeOf(caller: Principal): OrderScope {
  return caller.kind === 'customer' ? { enterpriseId: caller.enterpriseId } : {};
}

export function createOrderLifecycle(db: Kysely<Database>, deps: { now: () => number }) {
  const repo = createOrderRepository(db);
  const { now } = deps;

  /**
   * An unpaid order that ends gives its applicants' interview places back to
   * other customers, in the same transaction (the slots' counters and the
   * applicants' choices). Read before deciding: a new choice would move the
   * order's version and the change would be decided again.
   */
  async function interviewPlacesBack(userOrderId: number): Promise<Pick<Change, 'applicants' | 'within'> & { released: number }> {
    const held = await heldInterviewSlots(db, userOrderId);
    return {
      released: held.length,
      applicants: held.map((row) => ({ applicant_id: row.applicant_id, set: { interview_slot_id: null } })),
      within: held.length > 0 ? (trx) => giveBackInterviewSlots(trx, held) : undefined,
    };
  }

  /**
   * Runs `work` in one transaction the lifecycle opens: the module's own rows
   * through tx.trx, the order's changes through tx.change (applied at `at`,
   * default now). For a module that must lock its own rows before deciding
   * (a payment's settlement, a refund's) or write several changes at once.
   * Returns what `work` returns once committed; the after-commit hooks of its
   * events have run by then.
   */
  function transaction<T>(work: (tx: LifecycleTransaction) => Promise<T>, at: number = now()): Promise<T> {
    // A lifecycle made on a transaction (a module called inside another's change: a rejection's refund) joins it.
    if (db.isTransaction) return work(lifecycleTransaction(db as Transaction<Database>, at));
    return db.transaction().execute((trx) => work(lifecycleTransaction(trx, at)));
  }

  /** The 'expire' change, with the interview places given back. */
  async function expiryChange(order: OrderState, at: number): Promise<Change> {
    const { released, ...places } = await interviewPlacesBack(order.user_order_id);
    return {
      event: 'expire',
      set: { cancelled_at: at, cancel_reason: EXPIRE_REASON, expires_at: null },
      detail: { expires_at: order.expires_at, ...(released > 0 ? { interview_places_released: released } : {}) },
      ...places,
    };
  }

  /** Cancels every due unpaid order (of one enterprise or one order when scoped); returns how many this call changed. */
  async function expireDue(at: number, scope: OrderScope & { userOrderId?: number } = {}): Promise<number> {
    let changed = 0;
    for (let round = 0; round < EXPIRY_MAX_ROUNDS; round += 1) {
      const due = await repo.dueUnpaidOrders(at, EXPIRY_BATCH, scope);
      // One short transaction per order: no two sweeps ever wait on each other's locks in a cycle.
      for (const order of due) {
        try {
          const change = await expiryChange(order, at);
          await transaction((tx) => tx.change(order, change, SYSTEM), at);
          changed += 1;
        } catch (error) {
          // Another sweep, a payment or the customer changed it first: it is no longer due.
          if (!(error instanceof LifecycleConflict)) throw error;
        }
      }
      if (due.length < EXPIRY_BATCH) break;
    }
    return changed;
  }

  /**
   * The order as the caller may see it now: a customer only their
   * enterprise's (anything else is 1801, exactly like a missing order). An
   * unpaid order whose time is up is expired first and read again, so no step
   * ever acts on an order past its 24 h.
   */
  async function current(caller: Principal, userOrderId: number, options: CurrentOptions = {}): Promise<OrderRow> {
    const scope = scopeOf(caller);
    let order = await repo.findOrder(scope, userOrderId);
    if (!order) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
    const at = now();
    if ((order.status === 'draft' || order.status === 'pending_payment') && order.expires_at !== null && order.expires_at <= at) {
      await options.beforeExpire?.();
      await expireDue(at, { userOrderId });
      order = await repo.findOrder(scope, userOrderId);
      if (!order) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
    }
    return order;
  }

  return {
    current,
    expireDue,
    interviewPlacesBack,
    transaction,

    /**
     * Loads the caller's order, lets `decide` take the decision on it (it
     * throws the service's own refusals), applies what it returns in one
     * transaction, and decides again on the fresh order when another change
     * won the race (1817 after three rounds). Returns the order's new state.
     */
    async change(caller: Principal, userOrderId: number, decide: (order: OrderRow, at: number) => Promise<Decision> | Decision, options: CurrentOptions = {}) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const order = await current(caller, userOrderId, options);
        const at = now();
        const decided = await decide(order, at);
        const changes = decided === null ? [] : Array.isArray(decided) ? decided : [decided];
        if (changes.length === 0) return order as OrderState;
        try {
          const state = await transaction(async (tx) => {
            let state: OrderState = order;
            for (const change of changes) state = await tx.change(state, change, caller);
            return state;
          }, at);
          // Committed: the after-commit hooks of its events have run (after-commit.ts).
          return state;
        } catch (error) {
          if (!(error instanceof LifecycleConflict)) throw error;
        }
      }
      throw new AppError(ErrorCode.ORDER_CONFLICT);
    },

    /** The order, its applicants and its 'create' event, all or nothing. */
    async create(
      caller: Principal,
      order: Omit<NewOrder, 'status'>,
      applicants: NewApplicant[],
      checklist: ChecklistVersion[],
      detail: Record<string, unknown>,
    ): Promise<number> {
      const rule = ruleOf('create');
      if (!mayFire(rule, caller)) throw new AppError(ErrorCode.ORDER_ACTION_FORBIDDEN);
      const [place] = rule.to as Place[];
      const { status, step } = placeParts(place!);
      const { user_order_id, event_id } = await repo.insertCreated({ ...order, status, step, step_entered_at: order.created_at }, applicants, checklist, {
        ...actorOf(caller),
        to_status: status,
        to_step: step,
        detail: toJson(detail),
        created_at: order.created_at,
      });
      // Committed (one statement on PostgreSQL, a transaction on SQLite): the hooks run now.
      await announceAfterCommit(db, { event: 'create', user_order_id, event_id, at: order.created_at });
      return user_order_id;
    },
  };
}

export type OrderLifecycle = ReturnType<typeof createOrderLifecycle>;
