// The refund rows and the rules every way of creating or settling a refund
// shares (decision 0026, docs/order-rules.md "Refunds"):
// - refunds are created inside a transaction that holds the order's row
//   (SELECT … FOR UPDATE on PostgreSQL, or the lifecycle's own UPDATE of it;
//   SQLite runs one transaction at a time), so what is still refundable of a
//   payment is read and spent by one transaction at a time: a payment never
//   gives back more than it paid;
// - a refused applicant's refund exists once (a partial unique index; the
//   insert is ON CONFLICT DO NOTHING, so a second one inside another
//   module's transaction does not abort it);
// - each refund gives back one payment (one trade at the provider), so an
//   amount larger than one payment's rest is split over the order's payments;
// - a refund is settled once: the notification, the query fallback and the
//   worker's own answer all go through settleRefund, a conditional update on
//   the refund's state, and only the first writes the refund_settle event.
import { randomBytes } from 'node:crypto';
import { type Insertable, type Kysely, PostgresAdapter, type Selectable, sql, type Transaction } from 'kysely';
import type { RefundView } from '../../../common/contracts/refund.ts';
import { type RefundKind, refundKindLabel, refundStatusLabel } from '../../../common/refund.ts';
import type { Database, RefundTable } from '../../db/schema.ts';
import { actorOf, type Principal, SYSTEM } from '../../platform/principal.ts';
import { type LifecycleTransaction, type OrderLifecycle, type OrderState, subAllows, subFrom } from '../order/lifecycle.ts';

export type RefundRow = Selectable<RefundTable>;
type Db = Kysely<Database> | Transaction<Database>;

const isPg = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** RF + China date-time + 12 hex: 28 characters, our number for the refund at the provider. */
export function newOutRefundNo(at: number): string {
  const stamp = new Date(at + 8 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `RF${stamp}${randomBytes(6).toString('hex').toUpperCase()}`;
}

// ── Reading ───────────────────────────────────────────────────────────────

export function refundsOfOrder(db: Db, userOrderId: number) {
  return db.selectFrom('refund').selectAll().where('user_order_id', '=', userOrderId).orderBy('refund_id', 'desc').execute();
}

export function refundView(row: RefundRow, applicantName: string | null): RefundView {
  return {
    refund_id: row.refund_id,
    applicant_id: row.applicant_id,
    applicant_name: applicantName,
    kind: row.kind,
    kind_label: refundKindLabel(row.kind),
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    status_label: refundStatusLabel(row.status),
    created_at: row.created_at,
    refunded_at: row.refunded_at,
  };
}

/** The order's refunds as the customer's order detail shows them, newest first. */
export async function refundsOf(db: Db, userOrderId: number): Promise<RefundView[]> {
  const rows = await refundsOfOrder(db, userOrderId);
  const names = await applicantNames(db, userOrderId);
  return rows.map((row) => refundView(row, row.applicant_id === null ? null : (names.get(row.applicant_id) ?? null)));
}

export async function applicantNames(db: Db, userOrderId: number): Promise<Map<number, string>> {
  const rows = await db.selectFrom('order_applicant').select(['applicant_id', 'name']).where('user_order_id', '=', userOrderId).execute();
  return new Map(rows.map((row) => [row.applicant_id, row.name]));
}

export interface RefundablePayment {
  payment_id: number;
  out_trade_no: string;
  /** null: the order's own payment */
  price_difference_id: number | null;
  paid: number;
  refunded: number;
  remaining: number;
}

/** What the orders were paid and given back, in fen: refunds arrived (refunded) and on their way (refunding); failed ones count as none. */
export interface OrderMoney {
  paid: number;
  refunded: number;
  refunding: number;
}

/**
 * The money of many orders in two grouped reads, for the lists and files that
 * state it (the enterprise's export, the invoices' 可开票 amounts): one place
 * decides which payments count as paid and which refunds as given back, the
 * same rules as the order detail's.
 */
export async function orderMoney(db: Db, ids: number[]): Promise<Map<number, OrderMoney>> {
  if (ids.length === 0) return new Map();
  const [payments, refunds] = await Promise.all([
    db
      .selectFrom('payment')
      .select((eb) => ['user_order_id', eb.fn.sum<number>('amount').as('total')])
      .where('user_order_id', 'in', ids)
      .where('status', '=', 'paid')
      .groupBy('user_order_id')
      .execute(),
    db
      .selectFrom('refund')
      .select((eb) => ['user_order_id', 'status', eb.fn.sum<number>('amount').as('total')])
      .where('user_order_id', 'in', ids)
      .where('status', '!=', 'failed')
      .groupBy(['user_order_id', 'status'])
      .execute(),
  ]);
  const money = new Map<number, OrderMoney>(ids.map((id) => [id, { paid: 0, refunded: 0, refunding: 0 }]));
  for (const row of payments) money.get(row.user_order_id)!.paid += Number(row.total);
  for (const row of refunds) {
    const entry = money.get(row.user_order_id)!;
    if (row.status === 'succeeded') entry.refunded += Number(row.total);
    else entry.refunding += Number(row.total);
  }
  return money;
}

/**
 * The order's paid payments with what each can still give back (paid minus
 * every refund of it that did not fail), the order's own payment first.
 * Exact only inside a transaction that holds the order's row.
 */
export async function refundablePayments(db: Db, userOrderId: number): Promise<RefundablePayment[]> {
  const payments = await db
    .selectFrom('payment')
    .select(['payment_id', 'out_trade_no', 'price_difference_id', 'amount'])
    .where('user_order_id', '=', userOrderId)
    .where('status', '=', 'paid')
    .orderBy('payment_id')
    .execute();
  if (payments.length === 0) return [];
  const spent = await db
    .selectFrom('refund')
    .select((eb) => ['payment_id', eb.fn.sum<number>('amount').as('total')])
    .where('user_order_id', '=', userOrderId)
    .where('status', '!=', 'failed')
    .groupBy('payment_id')
    .execute();
  const refunded = new Map(spent.map((row) => [row.payment_id, Number(row.total)]));
  return payments
    .map((payment) => {
      const done = refunded.get(payment.payment_id) ?? 0;
      return {
        payment_id: payment.payment_id,
        out_trade_no: payment.out_trade_no,
        price_difference_id: payment.price_difference_id,
        paid: payment.amount,
        refunded: done,
        remaining: Math.max(0, payment.amount - done),
      };
    })
    .sort((a, b) => Number(a.price_difference_id !== null) - Number(b.price_difference_id !== null) || a.payment_id - b.payment_id);
}

/** The order's row, locked for the rest of the transaction on PostgreSQL. */
export async function lockOrder(trx: Transaction<Database>, userOrderId: number) {
  let query = trx
    .selectFrom('user_order')
    .select([
      'user_order_id',
      'account_id',
      'status',
      'step',
      'version',
      'expires_at',
      'departure_date',
      'need_interview',
      'reject_refund',
      'unit_price',
      'applicant_count',
      'insurance_amount',
      'discount_amount',
    ])
    .where('user_order_id', '=', userOrderId);
  if (isPg(trx)) query = query.forUpdate();
  return query.executeTakeFirst();
}

export type NewRefund = Omit<
  Insertable<RefundTable>,
  | 'refund_id'
  | 'out_refund_no'
  | 'status'
  | 'created_at'
  | 'updated_at'
  | 'next_attempt_at'
  | 'attempts'
  | 'claimed_until'
  | 'claim_token'
  | 'last_error'
  | 'refunded_at'
  | 'provider_refund_no'
>;

function row(refund: NewRefund, at: number): Insertable<RefundTable> {
  return {
    ...refund,
    out_refund_no: newOutRefundNo(at),
    status: 'pending',
    provider_refund_no: null,
    created_at: at,
    updated_at: at,
    refunded_at: null,
    next_attempt_at: at,
    claimed_until: null,
    claim_token: null,
    last_error: null,
  };
}

export async function insertRefund(trx: Transaction<Database>, refund: NewRefund, at: number): Promise<number> {
  const { refund_id } = await trx.insertInto('refund').values(row(refund, at)).returning('refund_id').executeTakeFirstOrThrow();
  return refund_id;
}

/**
 * Spreads `amount` over the payments' rests (the order's own payment first)
 * and inserts one refund per payment touched. The caller holds the order's
 * row and has checked amount ≤ the sum of the rests.
 */
export async function insertSpread(
  trx: Transaction<Database>,
  payments: readonly RefundablePayment[],
  amount: number,
  refund: Omit<NewRefund, 'payment_id' | 'out_trade_no' | 'amount'>,
  at: number,
): Promise<Array<{ refund_id: number; amount: number; out_trade_no: string }>> {
  const made: Array<{ refund_id: number; amount: number; out_trade_no: string }> = [];
  let left = amount;
  for (const payment of payments) {
    if (left <= 0) break;
    const part = Math.min(left, payment.remaining);
    if (part <= 0) continue;
    const id = await insertRefund(trx, { ...refund, payment_id: payment.payment_id, out_trade_no: payment.out_trade_no, amount: part }, at);
    made.push({ refund_id: id, amount: part, out_trade_no: payment.out_trade_no });
    left -= part;
  }
  if (left > 0) throw new Error(`refund of ${amount} exceeds what the payments can give back`);
  return made;
}

// ── The rejection refund ─────────────────────────────────────────────────

/**
 * What a refused applicant gets back (docs/order-rules.md "Refunds"): their
 * share of the order's own payment — the unit price, plus their insurance
 * premium when the plan covered them (the order's premium divided equally
 * among the insured), minus their share of the order's discount (divided
 * equally among the applicants), rounded down to the cent — and never more
 * than what remains refundable of that payment. Price differences are not
 * part of it (a supervisor refunds them by hand when due).
 */
export function rejectionShare(
  order: { unit_price: number; applicant_count: number; insurance_amount: number; discount_amount: number },
  applicant: { insured: number },
  insuredCount: number,
): number {
  const premium = applicant.insured === 1 && insuredCount > 0 ? Math.floor(order.insurance_amount / insuredCount) : 0;
  const discount = order.applicant_count > 0 ? Math.floor(order.discount_amount / order.applicant_count) : 0;
  return Math.max(0, order.unit_price + premium - discount);
}

/**
 * The applicant's rejection refund, inside the caller's lifecycle transaction
 * (see on-rejection.ts): the refund row through tx.trx, its refund_create
 * record through the lifecycle. Returns the refund (the existing one when it was created
 * before), or null when the order has no 拒签退全款 or nothing is left to give back.
 */
export async function createRejectionRefund(
  tx: LifecycleTransaction,
  input: { userOrderId: number; applicantId: number; at: number },
): Promise<{ refundId: number; amount: number } | null> {
  const { trx } = tx;
  const order = await lockOrder(trx, input.userOrderId);
  if (!order || order.reject_refund !== 1) return null;
  const existing = async () => {
    const found = await trx
      .selectFrom('refund')
      .select(['refund_id', 'amount'])
      .where('applicant_id', '=', input.applicantId)
      .where('kind', '=', 'rejection')
      .executeTakeFirst();
    return found ? { refundId: found.refund_id, amount: found.amount } : null;
  };
  const before = await existing();
  if (before) return before;

  const applicants = await trx
    .selectFrom('order_applicant')
    .select(['applicant_id', 'insured', 'name'])
    .where('user_order_id', '=', order.user_order_id)
    .execute();
  const applicant = applicants.find((one) => one.applicant_id === input.applicantId);
  if (!applicant) return null;
  const share = rejectionShare(order, applicant, applicants.filter((one) => one.insured === 1).length);
  const own = (await refundablePayments(trx, order.user_order_id)).find((payment) => payment.price_difference_id === null);
  const amount = Math.min(share, own?.remaining ?? 0);
  if (!own || amount <= 0) return null;

  const inserted = await trx
    .insertInto('refund')
    .values(
      row(
        {
          user_order_id: order.user_order_id,
          applicant_id: applicant.applicant_id,
          kind: 'rejection',
          amount,
          reason: `${applicant.name} 拒签，按拒签退全款退回其费用`.slice(0, 200),
          payment_id: own.payment_id,
          out_trade_no: own.out_trade_no,
          created_by: null,
        },
        input.at,
      ),
    )
    // The unique index "one rejection refund per applicant": a second one is no error, it is simply not made.
    .onConflict((oc) =>
      oc
        .column('applicant_id')
        .where(sql<boolean>`kind = 'rejection'`)
        .doNothing(),
    )
    .returning('refund_id')
    .executeTakeFirst();
  if (!inserted) return existing();

  // The audit row and the customer's notice, in the same transaction (a record: the order itself does not change).
  // Once the caller's transaction commits, refund_create's after-commit hook has the worker send it (refund-worker.ts).
  const state: OrderState = { ...order, need_interview: order.need_interview === 1 };
  await tx.change(
    state,
    {
      event: 'refund_create',
      detail: {
        refund_id: inserted.refund_id,
        kind: 'rejection' satisfies RefundKind,
        applicant_id: applicant.applicant_id,
        amount,
        out_trade_no: own.out_trade_no,
      },
    },
    SYSTEM,
  );
  return { refundId: inserted.refund_id, amount };
}

// ── Settling ──────────────────────────────────────────────────────────────

export type RefundSettleSource = 'notify' | 'query' | 'send';
export type RefundSettleOutcome = 'succeeded' | 'failed' | 'duplicate' | 'amount_mismatch' | 'unknown_refund';

export interface RefundSettleInput {
  out_refund_no: string;
  /** The provider's word: SUCCESS, or ABNORMAL / CLOSED (failed). */
  state: 'SUCCESS' | 'ABNORMAL' | 'CLOSED';
  provider_refund_no: string | null;
  amount: number;
  success_at: number | null;
  source: RefundSettleSource;
}

/**
 * Books the provider's final word on a refund, once: succeeded (with the
 * refund_settle event and the customer's "arrived" notice) or failed (the
 * money is refundable again; the operators see the failed row). A refund
 * already final answers 'duplicate' and nothing changes.
 */
export async function settleRefund(
  lifecycle: OrderLifecycle,
  input: RefundSettleInput,
  at: number,
): Promise<{ outcome: RefundSettleOutcome; user_order_id: number | null }> {
  const result = await lifecycle.transaction(async (tx) => {
    const { trx } = tx;
    let query = trx.selectFrom('refund').selectAll().where('out_refund_no', '=', input.out_refund_no);
    if (isPg(trx)) query = query.forUpdate();
    const refund = await query.executeTakeFirst();
    if (!refund) return { outcome: 'unknown_refund' as const, user_order_id: null };
    if (refund.amount !== input.amount) return { outcome: 'amount_mismatch' as const, user_order_id: refund.user_order_id };
    const succeeded = input.state === 'SUCCESS';
    // Already final (the table: succeed and fail only from pending or processing): a duplicate, nothing changes.
    if (!subAllows('refund', succeeded ? 'succeed' : 'fail', refund.status)) return { outcome: 'duplicate' as const, user_order_id: refund.user_order_id };
    const written = await trx
      .updateTable('refund')
      .set({
        status: succeeded ? 'succeeded' : 'failed',
        refunded_at: succeeded ? (input.success_at ?? at) : null,
        provider_refund_no: input.provider_refund_no ?? refund.provider_refund_no,
        updated_at: at,
        claimed_until: null,
        claim_token: null,
        last_error: succeeded ? null : `provider: ${input.state}`,
      })
      .where('refund_id', '=', refund.refund_id)
      .where('status', 'in', subFrom('refund', succeeded ? 'succeed' : 'fail'))
      .executeTakeFirst();
    if (Number(written.numUpdatedRows) !== 1) return { outcome: 'duplicate' as const, user_order_id: refund.user_order_id };
    if (succeeded) {
      const order = await trx
        .selectFrom('user_order')
        .select(['user_order_id', 'status', 'step', 'version', 'expires_at', 'departure_date', 'need_interview'])
        .where('user_order_id', '=', refund.user_order_id)
        .executeTakeFirstOrThrow();
      await tx.change(
        { ...order, need_interview: order.need_interview === 1 },
        {
          event: 'refund_settle',
          detail: {
            refund_id: refund.refund_id,
            kind: refund.kind,
            amount: refund.amount,
            out_refund_no: refund.out_refund_no,
            provider_refund_no: input.provider_refund_no,
            source: input.source,
          },
        },
        SYSTEM,
      );
    }
    return { outcome: succeeded ? ('succeeded' as const) : ('failed' as const), user_order_id: refund.user_order_id };
  }, at);
  // Committed: the "arrived" notice's e-mail leaves through refund_settle's after-commit hook.
  return result;
}

/** Who created a refund, for the panel: the supervisor's id or the system. */
export function creatorOf(caller: Principal): number | null {
  return actorOf(caller).actor_id;
}
