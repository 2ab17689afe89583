// 工作台: the operator's own orders first (the queue filtered to 我的订单),
// and the way to the whole queue.
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import type { OperatorInfo } from '../../../common/contracts/operator';

export function AdminHomePage({ operator }: { operator: OperatorInfo }) {
  const navigate = useNavigate();
  return (
    <div>
      <h1 className="admin-page-title">工作台</h1>
      <div className="admin-card">
        <Result
          status="info"
          title={`${operator.name}，您好`}
          subTitle="待办的订单在订单队列中，已逾期的排在最前。"
          extra={[
            <Button key="mine" type="primary" onClick={() => navigate('/admin/orders?assignee=me')}>
              我的订单
            </Button>,
            <Button key="all" onClick={() => navigate('/admin/orders')}>
              订单队列
            </Button>,
          ]}
        />
      </div>
    </div>
  );
}
