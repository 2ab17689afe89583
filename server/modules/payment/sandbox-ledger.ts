// The sandbox provider's own records (table payment_sandbox_trade, migration
// 006): what a payment company knows about each trade. Kept in the database,
// not in memory, so it survives restarts and every app instance sees the same
// ledger. Paying and closing are conditional updates on state = 'NOTPAY', so
// a trade is paid or closed exactly once, never both. Its refunds (table
// payment_sandbox_refund, migration 017) never add up to more than the trade.
import { type Generated, type Kysely, PostgresAdapter, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { RefundAnswer, RefundInput, RefundState, TradeStatus } from './provider.ts';

export type SandboxTradeTable = {
  out_trade_no: string;
  channel: string;
  amount: number;
  description: string;
  state: TradeStatus;
  provider_trade_no: string | null;
  notify_id: string | null;
  created_at: number;
  expires_at: number;
  paid_at: number | null;
  closed_at: number | null;
  /** none, pending, delivered, failed */
  notify_status: Generated<string>;
  notify_attempts: Generated<number>;
  notified_at: number | null;
};

/** The sandbox's refunds (migration 017): PROCESSING until succeeds_at, then SUCCESS. */
export type SandboxRefundTable = {
  out_refund_no: string;
  out_trade_no: string;
  provider_refund_no: string;
  amount: number;
  reason: string;
  state: RefundState;
  notify_id: string;
  created_at: number;
  succeeds_at: number;
  success_at: number | null;
  notify_status: Generated<string>;
  notify_attempts: Generated<number>;
  notified_at: number | null;
};

/** The sandbox's tables; our own schema.ts does not know them (they belong to the "payment company"). */
// (Type aliases, not interfaces: withTables wants plain records.)
export type SandboxTables = {
  payment_sandbox_trade: SandboxTradeTable;
  payment_sandbox_refund: SandboxRefundTable;
};

export type SandboxTrade = Selectable<SandboxTradeTable>;
export type SandboxRefund = Selectable<SandboxRefundTable>;

/** A refund the ledger took: `created` false when out_refund_no named one it already had (the same refund answered again). */
export type LedgerRefundAnswer = RefundAnswer & { created?: boolean };

export function createSandboxLedger(database: Kysely<Database>) {
  const db = database.withTables<SandboxTables>();
  const trades = () => db.selectFrom('payment_sandbox_trade').selectAll();

  return {
    async open(trade: { out_trade_no: string; channel: string; amount: number; description: string; created_at: number; expires_at: number }): Promise<void> {
      await db
        .insertInto('payment_sandbox_trade')
        .values({ ...trade, state: 'NOTPAY', provider_trade_no: null, notify_id: null, paid_at: null, closed_at: null, notified_at: null })
        .execute();
    },

    find(outTradeNo: string): Promise<SandboxTrade | undefined> {
      return trades().where('out_trade_no', '=', outTradeNo).executeTakeFirst();
    },

    /** NOTPAY and not expired → SUCCESS. False when the trade was not payable (any more). */
    async pay(outTradeNo: string, paid: { at: number; provider_trade_no: string; notify_id: string }): Promise<boolean> {
      const result = await db
        .updateTable('payment_sandbox_trade')
        .set({ state: 'SUCCESS', paid_at: paid.at, provider_trade_no: paid.provider_trade_no, notify_id: paid.notify_id, notify_status: 'pending' })
        .where('out_trade_no', '=', outTradeNo)
        .where('state', '=', 'NOTPAY')
        .where('expires_at', '>', paid.at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** NOTPAY → CLOSED. False when it was paid or closed already. */
    async close(outTradeNo: string, at: number): Promise<boolean> {
      const result = await db
        .updateTable('payment_sandbox_trade')
        .set({ state: 'CLOSED', closed_at: at })
        .where('out_trade_no', '=', outTradeNo)
        .where('state', '=', 'NOTPAY')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * One sending of the notification. A failure leaves the status 'pending'
     * (a retry follows), 'failed' (the last try) or as it was (a manual resend).
     */
    async recordNotifyAttempt(outTradeNo: string, outcome: { delivered: boolean; at: number; onFailure: 'pending' | 'failed' | 'keep' }): Promise<void> {
      await db
        .updateTable('payment_sandbox_trade')
        .set((eb) => ({
          notify_attempts: eb('notify_attempts', '+', 1),
          // Once delivered it stays delivered, whatever a later sending meets.
          ...(outcome.delivered
            ? { notify_status: 'delivered', notified_at: outcome.at }
            : outcome.onFailure === 'keep'
              ? {}
              : { notify_status: eb.case().when('notify_status', '=', 'delivered').then('delivered').else(outcome.onFailure).end() }),
        }))
        .where('out_trade_no', '=', outTradeNo)
        .execute();
    },

    // ── Refunds ──

    /**
     * Takes a refund of a paid trade, WeChat Pay's rules: the same
     * out_refund_no again answers the refund it named (when it is the same
     * trade and amount); the trade's refunds (all but CLOSED ones) never add
     * up to more than it paid. One transaction with the trade's row locked
     * (PostgreSQL; SQLite runs one transaction at a time), so two requests
     * cannot both take the last yuan.
     */
    async refund(input: RefundInput, taken: { at: number; succeeds_at: number; provider_refund_no: string; notify_id: string }): Promise<LedgerRefundAnswer> {
      const pg = db.getExecutor().adapter instanceof PostgresAdapter;
      return db.transaction().execute(async (trx): Promise<LedgerRefundAnswer> => {
        let tradeQuery = trx.selectFrom('payment_sandbox_trade').selectAll().where('out_trade_no', '=', input.out_trade_no);
        if (pg) tradeQuery = tradeQuery.forUpdate();
        const trade = await tradeQuery.executeTakeFirst();
        const known = await trx.selectFrom('payment_sandbox_refund').selectAll().where('out_refund_no', '=', input.out_refund_no).executeTakeFirst();
        if (known) {
          if (known.out_trade_no !== input.out_trade_no || known.amount !== input.amount)
            return { ok: false, code: 'INVALID_REQUEST', message: '退款单号已用于另一笔退款' };
          return { ok: true, created: false, refund: refundInfo(known) };
        }
        if (!trade) return { ok: false, code: 'TRADE_NOT_FOUND', message: '交易不存在' };
        if (trade.state !== 'SUCCESS') return { ok: false, code: 'TRADE_NOT_PAID', message: '交易未支付' };
        if (!Number.isSafeInteger(input.amount) || input.amount <= 0) return { ok: false, code: 'INVALID_REQUEST', message: '退款金额错误' };
        const { total } = await trx
          .selectFrom('payment_sandbox_refund')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('total'))
          .where('out_trade_no', '=', input.out_trade_no)
          .where('state', '!=', 'CLOSED')
          .executeTakeFirstOrThrow();
        if (Number(total) + input.amount > trade.amount) return { ok: false, code: 'NOT_ENOUGH', message: '可退金额不足' };
        const row = {
          out_refund_no: input.out_refund_no,
          out_trade_no: input.out_trade_no,
          provider_refund_no: taken.provider_refund_no,
          amount: input.amount,
          reason: input.reason.slice(0, 200),
          state: 'PROCESSING' as const,
          notify_id: taken.notify_id,
          created_at: taken.at,
          succeeds_at: taken.succeeds_at,
          success_at: null,
          notified_at: null,
        };
        await trx.insertInto('payment_sandbox_refund').values(row).execute();
        return { ok: true, created: true, refund: refundInfo(row) };
      });
    },

    /** The refund as it stands at `at`: a PROCESSING one whose time has come is SUCCESS first (the bank is done). */
    async findRefund(outRefundNo: string, at: number): Promise<SandboxRefund | undefined> {
      await db
        .updateTable('payment_sandbox_refund')
        .set((eb) => ({ state: 'SUCCESS', success_at: eb.ref('succeeds_at') }))
        .where('out_refund_no', '=', outRefundNo)
        .where('state', '=', 'PROCESSING')
        .where('succeeds_at', '<=', at)
        .execute();
      return db.selectFrom('payment_sandbox_refund').selectAll().where('out_refund_no', '=', outRefundNo).executeTakeFirst();
    },

    /** As recordNotifyAttempt, for a refund's notification. */
    async recordRefundNotifyAttempt(outRefundNo: string, outcome: { delivered: boolean; at: number; onFailure: 'pending' | 'failed' | 'keep' }): Promise<void> {
      await db
        .updateTable('payment_sandbox_refund')
        .set((eb) => ({
          notify_attempts: eb('notify_attempts', '+', 1),
          ...(outcome.delivered
            ? { notify_status: 'delivered', notified_at: outcome.at }
            : outcome.onFailure === 'keep'
              ? {}
              : { notify_status: eb.case().when('notify_status', '=', 'delivered').then('delivered').else(outcome.onFailure).end() }),
        }))
        .where('out_refund_no', '=', outRefundNo)
        .execute();
    },
  };
}

export function refundInfo(row: Pick<SandboxRefund, 'out_refund_no' | 'out_trade_no' | 'provider_refund_no' | 'state' | 'amount' | 'success_at'>) {
  return {
    out_refund_no: row.out_refund_no,
    out_trade_no: row.out_trade_no,
    provider_refund_no: row.provider_refund_no,
    status: row.state,
    amount: row.amount,
    success_at: row.success_at,
  };
}

export type SandboxLedger = ReturnType<typeof createSandboxLedger>;
