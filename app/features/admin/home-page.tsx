// 工作台: the operator's own orders first (the queue filtered to 我的订单),
// and the way to the whole queue. Above them, only while there are any, the
// failed refunds whose money has not gone back: a customer's money must not
// wait until someone happens to open the order (decision 0026).
import { Alert, Button, Result } from 'antd';
import { Link, useNavigate } from 'react-router';
import type { OperatorInfo } from '../../../common/contracts/operator';
import type { RefundFailedCount } from '../../../common/contracts/refund';
import { queueHref } from './orders/queue-params';

export function AdminHomePage({ operator, refundFailed }: { operator: OperatorInfo; refundFailed: RefundFailedCount }) {
  const navigate = useNavigate();
  return (
    <div>
      <h1 className="admin-page-title">工作台</h1>
      {refundFailed.refund_count > 0 ? (
        <Alert
          className="admin-home-alert"
          type="warning"
          showIcon
          title={`有 ${refundFailed.refund_count} 笔退款失败，款项尚未退回，请重新发起退款`}
          action={
            <Link to={queueHref({ assignee: 'all', refund: 'failed', page: 1 })} data-testid="home-refund-failed-link">
              查看退款失败的订单
            </Link>
          }
          data-testid="home-refund-failed"
        />
      ) : null}
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
