// The sandbox's daily bill, from its ledger (payment_sandbox_trade /
// payment_sandbox_refund): what a payment company's bill would list for a
// China day — each trade paid that day and each refund that arrived that day
// (a refund still PROCESSING whose time has come counts as arrived, as the
// ledger reads it) — so the daily reconciliation runs in development too.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type BillDate, type BillLine, chinaDayRange } from './bill.ts';
import type { SandboxTables } from './sandbox-ledger.ts';

export async function sandboxBill(database: Kysely<Database>, billDate: BillDate): Promise<BillLine[]> {
  const db = database.withTables<SandboxTables>();
  const { start, end } = chinaDayRange(billDate);
  const [paid, refunded] = await Promise.all([
    db
      .selectFrom('payment_sandbox_trade')
      .select(['out_trade_no', 'provider_trade_no', 'amount', 'paid_at'])
      .where('state', '=', 'SUCCESS')
      .where('paid_at', '>=', start)
      .where('paid_at', '<', end)
      .orderBy('paid_at')
      .execute(),
    db
      .selectFrom('payment_sandbox_refund')
      .innerJoin('payment_sandbox_trade', 'payment_sandbox_trade.out_trade_no', 'payment_sandbox_refund.out_trade_no')
      .select([
        'payment_sandbox_refund.out_refund_no',
        'payment_sandbox_refund.out_trade_no',
        'payment_sandbox_refund.provider_refund_no',
        'payment_sandbox_refund.amount',
        'payment_sandbox_refund.succeeds_at',
        'payment_sandbox_refund.success_at',
        'payment_sandbox_trade.provider_trade_no',
      ])
      .where('payment_sandbox_refund.state', 'in', ['PROCESSING', 'SUCCESS'])
      .where((eb) => eb.fn.coalesce('payment_sandbox_refund.success_at', 'payment_sandbox_refund.succeeds_at'), '>=', start)
      .where((eb) => eb.fn.coalesce('payment_sandbox_refund.success_at', 'payment_sandbox_refund.succeeds_at'), '<', end)
      .execute(),
  ]);
  return [
    ...paid.map((trade): BillLine => ({
      kind: 'payment',
      out_trade_no: trade.out_trade_no,
      out_refund_no: null,
      provider_trade_no: trade.provider_trade_no,
      provider_refund_no: null,
      amount: trade.amount,
      at: trade.paid_at!,
    })),
    ...refunded.map((refund): BillLine => ({
      kind: 'refund',
      out_trade_no: refund.out_trade_no,
      out_refund_no: refund.out_refund_no,
      provider_trade_no: refund.provider_trade_no,
      provider_refund_no: refund.provider_refund_no,
      amount: refund.amount,
      at: refund.success_at ?? refund.succeeds_at,
    })),
  ];
}
