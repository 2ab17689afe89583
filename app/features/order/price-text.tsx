// A money figure of the order pages: cents shown as ￥ (spec §9), in the
// theme colour when it is the amount to pay.
import { formatPrice } from '../../../common/format';

export function PriceText({ cents, strong = false, testId }: { cents: number; strong?: boolean; testId?: string }) {
  return (
    <span className={strong ? 'order-price order-price-strong' : 'order-price'} data-testid={testId}>
      {formatPrice(cents)}
    </span>
  );
}
