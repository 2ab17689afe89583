// The back office's shell: the side menu (by role), a header with the
// operator's name and 退出, and the page. The menu folds to its icons (a
// button in the header; by itself below 992 px) and, below 768 px, leaves
// the screen to the page: a 菜单 button opens it in a drawer.
import {
  AccountBookOutlined,
  AppstoreOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Drawer, Layout, Menu, Tag } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { OperatorInfo } from '../../../common/contracts/operator';
import { operatorLogout } from './admin-api';
import { type AdminMenuEntry, menuFor, selectedEntry } from './admin-menu';
import './admin.css';

const ROLE_COLORS: Record<OperatorInfo['role'], string> = { operator: 'blue', supervisor: 'gold', catalogue_editor: 'green' };

const ICONS: Record<string, ReactNode> = {
  '/admin': <DashboardOutlined />,
  '/admin/orders': <UnorderedListOutlined />,
  '/admin/operators': <TeamOutlined />,
  '/admin/access-log': <FileSearchOutlined />,
  '/admin/reconciliation': <AccountBookOutlined />,
};

function SideMenu({ entries, selected, onPick }: { entries: AdminMenuEntry[]; selected: string | undefined; onPick?: () => void }) {
  return (
    <nav aria-label="后台菜单">
      <Menu
        mode="inline"
        selectedKeys={selected ? [selected] : []}
        onClick={onPick}
        items={entries.map((entry) => ({
          key: entry.path,
          icon: ICONS[entry.path] ?? <AppstoreOutlined />,
          label: <Link to={entry.path}>{entry.label}</Link>,
        }))}
      />
    </nav>
  );
}

export function AdminShell({ operator, children }: { operator: OperatorInfo; children: ReactNode }) {
  const { pathname } = useLocation();
  const entries = menuFor(operator.role);
  const selected = selectedEntry(pathname, entries);
  const [leaving, setLeaving] = useState(false);
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // A page opened from the drawer closes it.
  useEffect(() => setDrawerOpen(false), [pathname]);

  return (
    <Layout className="admin-shell">
      <Layout.Sider
        width={208}
        collapsedWidth={64}
        collapsed={collapsed}
        breakpoint="lg"
        onBreakpoint={(narrow) => setCollapsed(narrow)}
        trigger={null}
        className="admin-sider"
        theme="light"
      >
        <div className="admin-brand">
          {collapsed ? (
            '易'
          ) : (
            <>
              易签通<span className="admin-brand-sub">后台</span>
            </>
          )}
        </div>
        <SideMenu entries={entries} selected={selected} />
      </Layout.Sider>
      <Drawer
        className="admin-drawer"
        placement="left"
        size={240}
        open={drawerOpen}
        onClose={() => setDrawerOpen(false)}
        title={
          <span>
            易签通<span className="admin-brand-sub">后台</span>
          </span>
        }
        styles={{ body: { padding: 0 } }}
      >
        <SideMenu entries={entries} selected={selected} onPick={() => setDrawerOpen(false)} />
      </Drawer>
      <Layout className="admin-main">
        <Layout.Header className="admin-header">
          <Button
            type="text"
            className="admin-fold"
            icon={collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />}
            aria-label={collapsed ? '展开菜单' : '收起菜单'}
            aria-expanded={!collapsed}
            onClick={() => setCollapsed(!collapsed)}
          />
          <Button
            className="admin-menu-button"
            icon={<MenuOutlined aria-hidden />}
            aria-label="打开菜单"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
            data-testid="admin-menu-button"
          >
            菜单
          </Button>
          <div className="admin-header-user" data-testid="admin-operator">
            <UserOutlined aria-hidden />
            <span className="admin-header-name">{operator.name}</span>
            <Tag color={ROLE_COLORS[operator.role]}>{operator.role_label}</Tag>
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
