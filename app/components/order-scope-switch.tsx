// The order list's 全部 / 我的订单 (issue 29): the enterprise's orders, or the
// ones this colleague placed. Shown beside the list's title.
import { Segmented } from 'antd';
import type { OrderListScope } from '../../common/contracts/order';

export function OrderScopeSwitch({ scope, onChange }: { scope: OrderListScope; onChange: (scope: OrderListScope) => void }) {
  return (
    <Segmented<OrderListScope>
      size="small"
      value={scope}
      onChange={onChange}
      options={[
        { value: 'all', label: <span data-testid="order-scope-all">全部</span> },
        { value: 'mine', label: <span data-testid="order-scope-mine">我的订单</span> },
      ]}
      style={{ fontWeight: 'normal' }}
    />
  );
}
