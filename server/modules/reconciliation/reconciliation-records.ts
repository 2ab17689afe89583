// The reconciliation's tables (migration 038) and the reads of our books it
// compares with a bill: the payments a provider took and the refunds it gave
// back in one China day. Its tables are known here only (withTables), like
// the sandbox's ledger.
import { type Generated, type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { BillLine } from '../payment/bill.ts';
import type { Difference, OurMovement } from './compare.ts';

export type ReconciliationRunTable = {
  run_id: Generated<number>;
  provider: string;
  bill_date: string;
  status: 'running' | 'done' | 'failed';
  bill_lines: Generated<number>;
  differences: Generated<number>;
  attempts: Generated<number>;
  last_error: string | null;
  started_at: number;
  finished_at: number | null;
};

export type ReconciliationDifferenceTable = {
  difference_id: Generated<number>;
  run_id: number;
  provider: string;
  bill_date: string;
  kind: Difference['kind'];
  line_kind: Difference['line_kind'];
  out_trade_no: string;
  out_refund_no: string | null;
  provider_trade_no: string | null;
  user_order_id: number | null;
  our_amount: number | null;
  their_amount: number | null;
  happened_at: number | null;
  created_at: number;
  explained_by: number | null;
  explained_at: number | null;
  explanation: string | null;
};

export type ReconciliationTables = {
  reconciliation_run: ReconciliationRunTable;
  reconciliation_difference: ReconciliationDifferenceTable;
};

export type RunRow = Selectable<ReconciliationRunTable>;
export type DifferenceRow = Selectable<ReconciliationDifferenceTable>;

/** Payment rows whose money was taken (paid, or paid and to be refunded). */
const MONEY_TAKEN = ['paid', 'refund_pending'] as const;

export function reconciliationDb(database: Kysely<Database>) {
  return database.withTables<ReconciliationTables>();
}

export function createReconciliationRecords(database: Kysely<Database>) {
  const db = reconciliationDb(database);

  const payments = () =>
    db
      .selectFrom('payment')
      .select(['out_trade_no', 'provider_trade_no', 'user_order_id', 'amount', 'paid_at'])
      .where('status', 'in', MONEY_TAKEN)
      .where('paid_at', 'is not', null);
  const refunds = () =>
    db
      .selectFrom('refund')
      .innerJoin('payment', 'payment.payment_id', 'refund.payment_id')
      .select([
        'refund.out_trade_no',
        'refund.out_refund_no',
        'payment.provider_trade_no',
        'refund.user_order_id',
        'refund.amount',
        'refund.refunded_at',
        'payment.provider',
      ])
      .where('refund.status', '=', 'succeeded')
      .where('refund.refunded_at', 'is not', null);

  type PaymentPick = { out_trade_no: string; provider_trade_no: string | null; user_order_id: number; amount: number; paid_at: number | null };
  type RefundPick = {
    out_trade_no: string;
    out_refund_no: string;
    provider_trade_no: string | null;
    user_order_id: number;
    amount: number;
    refunded_at: number | null;
  };
  const payment = (row: PaymentPick): OurMovement => ({ kind: 'payment', out_refund_no: null, ...row, at: row.paid_at! });
  const refund = (row: RefundPick): OurMovement => ({ kind: 'refund', ...row, at: row.refunded_at! });

  return {
    /** Our payments and refunds with `provider` whose money moved in [start, end). */
    async movements(provider: string, range: { start: number; end: number }): Promise<OurMovement[]> {
      const [paid, refunded] = await Promise.all([
        payments().where('provider', '=', provider).where('paid_at', '>=', range.start).where('paid_at', '<', range.end).execute(),
        refunds().where('payment.provider', '=', provider).where('refund.refunded_at', '>=', range.start).where('refund.refunded_at', '<', range.end).execute(),
      ]);
      return [...paid.map(payment), ...refunded.map(refund)];
    },

    /** The movement of ours a bill line names, on whatever day we booked it (null: none). */
    async find(provider: string, line: BillLine): Promise<OurMovement | null> {
      if (line.kind === 'payment') {
        const row = await payments().where('provider', '=', provider).where('out_trade_no', '=', line.out_trade_no).executeTakeFirst();
        return row ? payment(row) : null;
      }
      if (!line.out_refund_no) return null;
      const row = await refunds().where('payment.provider', '=', provider).where('refund.out_refund_no', '=', line.out_refund_no).executeTakeFirst();
      return row ? refund(row) : null;
    },

    /** The order a trade of ours belongs to (any status), for a difference missing on our side. */
    async orderOf(outTradeNo: string): Promise<number | null> {
      const row = await db.selectFrom('payment').select('user_order_id').where('out_trade_no', '=', outTradeNo).executeTakeFirst();
      return row?.user_order_id ?? null;
    },

    /**
     * Takes the run of one provider and day: a new one, or one that failed or
     * was left running longer than `staleBefore` (a crashed instance). Null
     * when it is done or another instance is running it.
     */
    async claimRun(provider: string, billDate: string, at: number, staleBefore: number): Promise<RunRow | null> {
      const inserted = await db
        .insertInto('reconciliation_run')
        .values({ provider, bill_date: billDate, status: 'running', started_at: at, last_error: null, finished_at: null, attempts: 1 })
        .onConflict((oc) => oc.columns(['provider', 'bill_date']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1)
        return db.selectFrom('reconciliation_run').selectAll().where('provider', '=', provider).where('bill_date', '=', billDate).executeTakeFirstOrThrow();
      const retaken = await db
        .updateTable('reconciliation_run')
        .set((eb) => ({ status: 'running', started_at: at, attempts: eb('attempts', '+', 1) }))
        .where('provider', '=', provider)
        .where('bill_date', '=', billDate)
        .where((eb) => eb.or([eb('status', '=', 'failed'), eb.and([eb('status', '=', 'running'), eb('started_at', '<', staleBefore)])]))
        .executeTakeFirst();
      if (Number(retaken.numUpdatedRows) !== 1) return null;
      return db.selectFrom('reconciliation_run').selectAll().where('provider', '=', provider).where('bill_date', '=', billDate).executeTakeFirstOrThrow();
    },

    /** The run's differences and its end, in one transaction (a run is recorded whole or not at all). */
    async finishRun(run: RunRow, result: { billLines: number; differences: Difference[] }, at: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        // A failed earlier attempt may have left nothing; a retaken run starts clean anyway.
        await trx.deleteFrom('reconciliation_difference').where('run_id', '=', run.run_id).where('explained_at', 'is', null).execute();
        for (const difference of result.differences) {
          await trx
            .insertInto('reconciliation_difference')
            .values({
              ...difference,
              run_id: run.run_id,
              provider: run.provider,
              bill_date: run.bill_date,
              created_at: at,
              explained_by: null,
              explained_at: null,
              explanation: null,
            })
            .execute();
        }
        await trx
          .updateTable('reconciliation_run')
          .set({ status: 'done', bill_lines: result.billLines, differences: result.differences.length, finished_at: at, last_error: null })
          .where('run_id', '=', run.run_id)
          .execute();
      });
    },

    async failRun(run: RunRow, error: string): Promise<void> {
      await db
        .updateTable('reconciliation_run')
        .set({ status: 'failed', last_error: error.slice(0, 500) })
        .where('run_id', '=', run.run_id)
        .execute();
    },

    async list(filter: { open: boolean; limit: number; offset: number }): Promise<{ rows: DifferenceRow[]; total: number; open: number }> {
      let query = db.selectFrom('reconciliation_difference');
      if (filter.open) query = query.where('explained_at', 'is', null);
      const [rows, total, open] = await Promise.all([
        query
          .selectAll()
          // Unexplained first, then the newest day.
          .orderBy(sql`case when explained_at is null then 0 else 1 end`)
          .orderBy('bill_date', 'desc')
          .orderBy('difference_id', 'desc')
          .limit(filter.limit)
          .offset(filter.offset)
          .execute(),
        query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
        db
          .selectFrom('reconciliation_difference')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('explained_at', 'is', null)
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n), open: Number(open.n) };
    },

    recentRuns(since: string): Promise<RunRow[]> {
      return db.selectFrom('reconciliation_run').selectAll().where('bill_date', '>=', since).orderBy('bill_date', 'desc').orderBy('provider').execute();
    },

    byId(id: number): Promise<DifferenceRow | undefined> {
      return db.selectFrom('reconciliation_difference').selectAll().where('difference_id', '=', id).executeTakeFirst();
    },

    /** Marks it explained once: false when someone did already. */
    async explain(id: number, by: number, note: string, at: number): Promise<boolean> {
      const result = await db
        .updateTable('reconciliation_difference')
        .set({ explained_by: by, explained_at: at, explanation: note })
        .where('difference_id', '=', id)
        .where('explained_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async openCount(): Promise<number> {
      const row = await db
        .selectFrom('reconciliation_difference')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('explained_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Active supervisors: who hears of a difference. */
    async supervisors(): Promise<number[]> {
      const rows = await db.selectFrom('operator').select('id').where('role', '=', 'supervisor').where('status', '=', 'active').execute();
      return rows.map((row) => row.id);
    },

    async notifySupervisors(notice: { title: string; body: string; link: string }, at: number): Promise<number> {
      const ids = await this.supervisors();
      for (const id of ids)
        await db
          .insertInto('notice')
          .values({
            recipient_kind: 'operator',
            recipient_id: id,
            kind: 'reconciliation_difference',
            user_order_id: null,
            title: notice.title,
            body: notice.body,
            link: notice.link,
            order_event_id: null,
            read_at: null,
            created_at: at,
          })
          .execute();
      return ids.length;
    },
  };
}

export type ReconciliationRecords = ReturnType<typeof createReconciliationRecords>;
