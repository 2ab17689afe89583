// The back office's shell: a 1280 px desktop layout — the side menu (by role),
// a header with the operator's name and 退出, and the page.
import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { OperatorInfo } from '../../../common/contracts/operator';
import { operatorLogout } from './admin-api';
import { menuFor, selectedEntry } from './admin-menu';
import './admin.css';

export function AdminShell({ operator, children }: { operator: OperatorInfo; children: ReactNode }) {
  const { pathname } = useLocation();
  const entries = menuFor(operator.role);
  const selected = selectedEntry(pathname, entries);
  const [leaving, setLeaving] = useState(false);

  return (
    <Layout className="admin-shell">
      <Layout.Sider width={208} className="admin-sider" theme="light">
        <div className="admin-brand">
          易签通<span className="admin-brand-sub">后台</span>
        </div>
        <nav aria-label="后台菜单">
          <Menu
            mode="inline"
            selectedKeys={selected ? [selected] : []}
            items={entries.map((entry) => ({ key: entry.path, label: <Link to={entry.path}>{entry.label}</Link> }))}
          />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header className="admin-header">
          <div className="admin-header-user" data-testid="admin-operator">
            <UserOutlined aria-hidden />
            <span className="admin-header-name">{operator.name}</span>
            <Tag color={operator.role === 'supervisor' ? 'gold' : 'blue'}>{operator.role_label}</Tag>
          </div>
          <Button
            icon={<LogoutOutlined aria-hidden />}
            loading={leaving}
            onClick={() => {
              setLeaving(true);
              void operatorLogout();
            }}
          >
            退出
          </Button>
        </Layout.Header>
        <Layout.Content className="admin-content">
          <main>{children}</main>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
