// 工作台: a placeholder until the order queue (issue 9, REVIEW) replaces it.
import { Result } from 'antd';
import type { OperatorInfo } from '../../../common/contracts/operator';

export function AdminHomePage({ operator }: { operator: OperatorInfo }) {
  return (
    <div>
      <h1 className="admin-page-title">工作台</h1>
      <div className="admin-card">
        <Result status="info" title={`${operator.name}，您好`} subTitle="订单队列即将上线：待审核的订单会显示在这里。" />
      </div>
    </div>
  );
}
