// Personal centre: the colleague's own account and enterprise
// ("admin-info"), 成员管理 for an administrator (issue 29), and how to reach
// customer service.
import { Card, Descriptions, Skeleton, Space } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { CustomerService } from '../../common/contracts/account';
import { formatDateTime } from '../../common/format';
import { teamRoleLabel } from '../../common/team';
import { api } from '../lib/api-client';
import { requireUser } from '../lib/require-user';
import type { Route } from './+types/personal-center';

export const handle = { hideFooter: true };

export const meta: Route.MetaFunction = () => [{ title: '个人中心 - 易签通' }];

export async function loader({ context }: Route.LoaderArgs) {
  return { user: await requireUser(context) };
}

export default function PersonalCenter({ loaderData }: Route.ComponentProps) {
  const { user } = loaderData;
  const [service, setService] = useState<CustomerService | null>(null);
  useEffect(() => {
    api('/www/user/user_cs_query').then(setService, () => undefined);
  }, []);

  return (
    <div className="page" style={{ display: 'grid', gap: 16 }}>
      <Card
        title={user.role === 'admin' ? '管理员信息' : '账号信息'}
        className="admin-info"
        extra={
          <Space size="middle">
            {user.role === 'admin' ? (
              <Link to="/user/team" data-testid="personal-center-team">
                成员管理
              </Link>
            ) : null}
            <Link to="/order/order-list">我的订单</Link>
          </Space>
        }
      >
        <Descriptions column={{ xs: 1, sm: 2 }}>
          <Descriptions.Item label="账号">{user.account}</Descriptions.Item>
          <Descriptions.Item label="姓名">{user.name}</Descriptions.Item>
          <Descriptions.Item label="手机号">{user.mobile_phone ?? '未填写'}</Descriptions.Item>
          <Descriptions.Item label="邮箱">{user.email ?? '未填写'}</Descriptions.Item>
          <Descriptions.Item label="所属企业">{user.enterprise.name}</Descriptions.Item>
          <Descriptions.Item label="企业类型">{user.enterprise.kind_label}</Descriptions.Item>
          <Descriptions.Item label="角色">{teamRoleLabel(user.role)}</Descriptions.Item>
          <Descriptions.Item label="上次登录">{user.last_login_at ? formatDateTime(user.last_login_at) : '—'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title="常用出行人" extra={<Link to="/user/travellers">管理</Link>} data-testid="personal-travellers">
        <p style={{ margin: 0 }}>
          保存常出行的人及其护照、身份证、户口本和证件照片，下单时直接选择，上传资料时直接使用。<Link to="/user/travellers">管理常用出行人</Link>
        </p>
      </Card>
      <Card title="联系客服">
        {service ? (
          <Descriptions column={{ xs: 1, sm: 2 }}>
            <Descriptions.Item label="客服热线">{service.hotline}</Descriptions.Item>
            <Descriptions.Item label="服务时间">{service.working_hours}</Descriptions.Item>
            <Descriptions.Item label="微信客服">{service.wechat}</Descriptions.Item>
            <Descriptions.Item label="客服邮箱">{service.email}</Descriptions.Item>
            <Descriptions.Item label="专属签证顾问">
              {service.consultant ? `${service.consultant.name}${service.consultant.phone ? `  ${service.consultant.phone}` : ''}` : '暂未分配'}
            </Descriptions.Item>
          </Descriptions>
        ) : (
          <Skeleton active paragraph={{ rows: 2 }} />
        )}
      </Card>
    </div>
  );
}
