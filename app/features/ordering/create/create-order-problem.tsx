// Why a product cannot be ordered here: no or a bad visa_product_id, an
// unknown product, a delisted or an online-only one (the server's messages).
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import type { CreateOrderView } from './create-order-model';

type Problem = Extract<CreateOrderView, { kind: 'problem' }>;

export function CreateOrderProblem({ problem }: { problem: Problem }) {
  const navigate = useNavigate();
  const primary =
    problem.action === 'download'
      ? { text: '下载易签通App', to: '/download' }
      : problem.action === 'product' && problem.productId !== null
        ? { text: '查看产品', to: `/visa/product/${problem.productId}` }
        : { text: '去选择签证', to: '/visa/continent' };
  return (
    <div className="co-card co-problem" data-testid="create-order-problem">
      <Result
        status="warning"
        title={problem.title}
        subTitle={problem.text}
        extra={[
          <Button key="primary" type="primary" onClick={() => navigate(primary.to)}>
            {primary.text}
          </Button>,
          problem.action !== 'browse' ? (
            <Button key="browse" onClick={() => navigate('/visa/continent')}>
              选择其他签证
            </Button>
          ) : null,
        ]}
      />
    </div>
  );
}
