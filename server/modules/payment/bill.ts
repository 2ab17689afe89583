// A payment company's daily bill (对账单), normalised: what the daily
// reconciliation (server/modules/reconciliation) compares with our payments
// and refunds. Each provider reads its own format — WeChat Pay's tradebill,
// Alipay's bill.downloadurl.query and the CSV it points at, the sandbox's
// ledger — and answers these lines.

/** One money movement of the bill: a payment taken, or a refund given back. */
export interface BillLine {
  kind: 'payment' | 'refund';
  /** Our number of the trade (payment.out_trade_no). */
  out_trade_no: string;
  /** Our number of the refund (refund.out_refund_no); null for a payment. */
  out_refund_no: string | null;
  /** The company's number of the trade (WeChat transaction_id, Alipay trade_no). */
  provider_trade_no: string | null;
  /** The company's number of the refund, when it has one. */
  provider_refund_no: string | null;
  /** cents, positive for both kinds */
  amount: number;
  /** When the money moved (the company's clock, epoch ms). */
  at: number;
}

/** A China day, yyyy-MM-dd: the day a bill covers (00:00–24:00 in China). */
export type BillDate = string;

/** [start, end) of a China day, epoch ms. */
export function chinaDayRange(billDate: BillDate): { start: number; end: number } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(billDate)) throw new Error(`not a bill date: ${billDate}`);
  const start = Date.parse(`${billDate}T00:00:00+08:00`);
  return { start, end: start + 86_400_000 };
}

/** The China day before the one `at` falls in. */
export function previousChinaDay(at: number): BillDate {
  return new Date(at + 8 * 3_600_000 - 86_400_000).toISOString().slice(0, 10);
}
