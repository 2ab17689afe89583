// The sandbox provider's own records (table payment_sandbox_trade, migration
// 006): what a payment company knows about each trade. Kept in the database,
// not in memory, so it survives restarts and every app instance sees the same
// ledger. Paying and closing are conditional updates on state = 'NOTPAY', so
// a trade is paid or closed exactly once, never both.
import type { Generated, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { TradeStatus } from './provider.ts';

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

/** The sandbox's table; our own schema.ts does not know it (it belongs to the "payment company"). */
// (Type aliases, not interfaces: withTables wants plain records.)
export type SandboxTables = {
  payment_sandbox_trade: SandboxTradeTable;
};

export type SandboxTrade = Selectable<SandboxTradeTable>;

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
  };
}

export type SandboxLedger = ReturnType<typeof createSandboxLedger>;
