// The order list (spec 2.1): status tabs, order cards, 10 a page. The route's
// loader reads the page of the tab in the URL on the server; a tab or page
// change is a navigation, a cancel or an expired countdown revalidates.
import { InboxOutlined } from '@ant-design/icons';
import { Button, Empty, Pagination, Tabs } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useNavigation, useRevalidator, useSearchParams } from 'react-router';
import type { OrderListResult, OrderListScope } from '../../../common/contracts/order';
import type { OrderGroupListResult } from '../../../common/contracts/report';
import { ORDER_LIMITS } from '../../../common/contracts/rules';
import { ORDER_LIST_TABS, type OrderListTabKey, UNPAID_STATUSES } from '../../../common/order';
import { LoadingOverlay } from '../../components/loading-overlay';
import { useNow } from '../../lib/use-now';
import { OrderScopeSwitch } from '../../components/order-scope-switch';
import { OrderCard } from './order-card';
import { orderListSearch, parseTab } from './order-list-params';
import { OrderReportBar } from './order-report-bar';
import './order.css';

const EMPTY_TEXT: Record<OrderListTabKey, string> = {
  all: '还没有订单',
  unpaid: '没有待支付的订单',
  action: '没有需要您处理的订单',
  processing: '没有办理中的订单',
  completed: '没有已完成的订单',
  closed: '没有已取消或已退款的订单',
};

export interface OrderListPageProps {
  tab: OrderListTabKey;
  page: number;
  /** 全部 (the enterprise's) or 我的订单 (issue 29). */
  scope?: OrderListScope;
  list: OrderListResult;
  groups: OrderGroupListResult['groups'];
}

export function OrderListPage({ tab, page, scope = 'all', list, groups }: OrderListPageProps) {
  const [selected, setSelected] = useState<number[]>([]);
  const [, setSearchParams] = useSearchParams();
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const now = useNow();
  const navigate = useNavigate();
  // Another tab or page, or the same one read again.
  const loading = revalidator.state === 'loading' || (navigation.state === 'loading' && navigation.location.pathname === pathname);

  const go = (next: { tab?: OrderListTabKey; page?: number; scope?: OrderListScope }) =>
    setSearchParams(orderListSearch(next.tab ?? tab, next.page ?? 1, next.scope ?? scope), {
      preventScrollReset: next.tab !== undefined || next.scope !== undefined,
    });

  // An unpaid order whose time is up is cancelled by the server on the next read: read again,
  // once per order (a browser clock ahead of the server's must not make it read in a loop).
  const reread = useRef(new Set<number>());
  const due =
    now === null
      ? ''
      : list.page_data
          .filter((order) => UNPAID_STATUSES.includes(order.status) && order.expires_at !== null && order.expires_at <= now)
          .map((order) => order.user_order_id)
          .filter((id) => !reread.current.has(id))
          .join(',');
  useEffect(() => {
    if (due === '' || revalidator.state !== 'idle') return;
    for (const id of due.split(',')) reread.current.add(Number(id));
    void revalidator.revalidate();
  }, [due, revalidator]);

  return (
    <div className="order-page" data-testid="order-list-page">
      <h1 className="order-page-title">
        我的订单
        <OrderScopeSwitch scope={scope} onChange={(next) => go({ scope: next })} />
      </h1>
      <Tabs
        className="order-tabs"
        activeKey={tab}
        onChange={(key) => go({ tab: parseTab(key) })}
        items={ORDER_LIST_TABS.map((item) => ({ key: item.key, label: <span data-testid={`order-tab-${item.key}`}>{item.label}</span> }))}
      />
      <OrderReportBar groups={groups} selected={selected} onClear={() => setSelected([])} onChanged={() => void revalidator.revalidate()} />
      <LoadingOverlay loading={loading} loadingText="正在加载订单">
        <div className="order-list" data-testid="order-list">
          {list.page_data.length > 0 ? (
            list.page_data.map((order) => (
              <OrderCard
                key={order.user_order_id}
                order={order}
                now={now}
                onChanged={() => void revalidator.revalidate()}
                selected={selected.includes(order.user_order_id)}
                onSelect={(checked) =>
                  setSelected((ids) =>
                    checked ? [...ids.filter((id) => id !== order.user_order_id), order.user_order_id] : ids.filter((id) => id !== order.user_order_id),
                  )
                }
              />
            ))
          ) : (
            <div className="order-empty" data-testid="order-empty">
              <Empty image={<InboxOutlined />} description={scope === 'mine' && tab === 'all' ? '您还没有下过订单' : EMPTY_TEXT[tab]}>
                {tab === 'all' ? (
                  <Button type="primary" onClick={() => navigate('/visa/continent')}>
                    去选择签证
                  </Button>
                ) : null}
              </Empty>
            </div>
          )}
        </div>
      </LoadingOverlay>
      {list.total_count > ORDER_LIMITS.pageSize ? (
        <Pagination
          className="order-pagination"
          current={page}
          pageSize={ORDER_LIMITS.pageSize}
          total={list.total_count}
          showLessItems
          showSizeChanger={false}
          onChange={(next) => {
            go({ page: next });
            window.scrollTo({ top: 0 });
          }}
        />
      ) : null}
    </div>
  );
}
