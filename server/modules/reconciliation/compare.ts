// The comparison itself, no database: one provider's bill of one China day
// against our money movements of that day with that provider. A payment is
// matched by our out_trade_no, a refund by our out_refund_no; several lines
// of one key add up (a bill may split one movement). A bill line we do not
// have that day is looked up on any other day first: money booked just
// across midnight on one side is the same movement, not a difference.
import type { BillLine } from '../payment/bill.ts';

/** One payment taken or refund given back, as our books have it. */
export interface OurMovement {
  kind: 'payment' | 'refund';
  out_trade_no: string;
  out_refund_no: string | null;
  provider_trade_no: string | null;
  user_order_id: number | null;
  /** cents */
  amount: number;
  at: number;
}

export interface Difference {
  kind: 'missing_ours' | 'missing_theirs' | 'amount';
  line_kind: 'payment' | 'refund';
  out_trade_no: string;
  out_refund_no: string | null;
  provider_trade_no: string | null;
  user_order_id: number | null;
  our_amount: number | null;
  their_amount: number | null;
  happened_at: number | null;
}

function keyOf(movement: { kind: 'payment' | 'refund'; out_trade_no: string; out_refund_no: string | null }): string {
  return movement.kind === 'payment' ? `payment:${movement.out_trade_no}` : `refund:${movement.out_refund_no ?? `?${movement.out_trade_no}`}`;
}

function addUp<T extends { amount: number }>(items: readonly T[], key: (item: T) => string): Map<string, { first: T; amount: number }> {
  const sums = new Map<string, { first: T; amount: number }>();
  for (const item of items) {
    const known = sums.get(key(item));
    if (known) known.amount += item.amount;
    else sums.set(key(item), { first: item, amount: item.amount });
  }
  return sums;
}

/**
 * The differences between a day's bill and our books of that day.
 * `elsewhere` finds a movement of ours by its key on another day (null: none).
 */
export async function compareBill(
  theirs: readonly BillLine[],
  ours: readonly OurMovement[],
  elsewhere: (line: BillLine) => Promise<OurMovement | null>,
): Promise<Difference[]> {
  const bill = addUp(theirs, keyOf);
  const books = addUp(ours, keyOf);
  const differences: Difference[] = [];
  for (const [key, { first: line, amount }] of bill) {
    const mine = books.get(key);
    const other = mine ? null : await elsewhere(line);
    const ourAmount = mine?.amount ?? other?.amount ?? null;
    if (ourAmount === amount) continue;
    differences.push({
      kind: ourAmount === null ? 'missing_ours' : 'amount',
      line_kind: line.kind,
      out_trade_no: line.out_trade_no,
      out_refund_no: line.out_refund_no,
      provider_trade_no: line.provider_trade_no ?? mine?.first.provider_trade_no ?? other?.provider_trade_no ?? null,
      user_order_id: mine?.first.user_order_id ?? other?.user_order_id ?? null,
      our_amount: ourAmount,
      their_amount: amount,
      happened_at: line.at,
    });
  }
  for (const [key, { first: mine, amount }] of books) {
    if (bill.has(key)) continue;
    differences.push({
      kind: 'missing_theirs',
      line_kind: mine.kind,
      out_trade_no: mine.out_trade_no,
      out_refund_no: mine.out_refund_no,
      provider_trade_no: mine.provider_trade_no,
      user_order_id: mine.user_order_id,
      our_amount: amount,
      their_amount: null,
      happened_at: mine.at,
    });
  }
  return differences;
}
