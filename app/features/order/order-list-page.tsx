// The order list (spec 2.1): status tabs, order cards, 10 a page. The tab
// and the page live in the URL (?tab=unpaid&page=2), so a reload or the back
// button keeps them. Loaded in the browser with the session's token.
import { InboxOutlined } from '@ant-design/icons';
import { Button, Empty, Pagination, Result, Tabs } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ORDER_LIMITS, ORDER_LIST_TABS, type OrderListResult, type OrderListTabKey, UNPAID_STATUSES } from '../../../common/order';
import { LoadingOverlay } from '../../components/loading-overlay';
import { apiRequest } from '../../lib/api-client';
import { OrderCard } from './order-card';
import { useNow } from './use-now';
import './order.css';

const EMPTY_TEXT: Record<OrderListTabKey, string> = {
  all: '还没有订单',
  unpaid: '没有待支付的订单',
  action: '没有需要您处理的订单',
  processing: '没有办理中的订单',
  completed: '没有已完成的订单',
  closed: '没有已取消或已退款的订单',
};

export function parseTab(value: string | null): OrderListTabKey {
  return ORDER_LIST_TABS.find((tab) => tab.key === value)?.key ?? 'all';
}

export function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

export function OrderListPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = parseTab(searchParams.get('tab'));
  const page = parsePage(searchParams.get('page'));
  const [data, setData] = useState<OrderListResult | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [reloads, setReloads] = useState(0);
  const now = useNow();
  const navigate = useNavigate();
  const reload = () => setReloads((count) => count + 1);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setFailed(false);
    apiRequest<OrderListResult>('/www/order/order_list', { tab, page }, { signal: controller.signal }).then(
      (result) => {
        setData(result);
        setLoading(false);
      },
      () => {
        if (controller.signal.aborted) return;
        setFailed(true);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [tab, page, reloads]);

  const go = (next: { tab?: OrderListTabKey; page?: number }) => {
    const params = new URLSearchParams();
    const nextTab = next.tab ?? tab;
    const nextPage = next.page ?? 1;
    if (nextTab !== 'all') params.set('tab', nextTab);
    if (nextPage > 1) params.set('page', String(nextPage));
    setSearchParams(params, { preventScrollReset: next.tab !== undefined });
  };

  // A page past the end (the last order of the last page was cancelled, an old link): show the last page.
  const lastPage = data ? Math.max(1, Math.ceil(data.total_count / ORDER_LIMITS.pageSize)) : 1;
  useEffect(() => {
    if (data && !loading && page > lastPage) go({ page: lastPage });
  }, [data, loading, page, lastPage]);

  // An unpaid order whose time is up is cancelled by the server on the next read: read again,
  // once per order (a browser clock ahead of the server's must not make it read in a loop).
  const reread = useRef(new Set<number>());
  const due =
    now === null
      ? []
      : (data?.page_data ?? [])
          .filter((order) => UNPAID_STATUSES.includes(order.status) && order.expires_at !== null && order.expires_at <= now)
          .map((order) => order.user_order_id)
          .filter((id) => !reread.current.has(id));
  useEffect(() => {
    if (due.length === 0 || loading) return;
    for (const id of due) reread.current.add(id);
    reload();
  }, [due.join(','), loading]);

  return (
    <div className="order-page" data-testid="order-list-page">
      <h1 className="order-page-title">我的订单</h1>
      <Tabs
        className="order-tabs"
        activeKey={tab}
        onChange={(key) => go({ tab: parseTab(key) })}
        items={ORDER_LIST_TABS.map((item) => ({ key: item.key, label: <span data-testid={`order-tab-${item.key}`}>{item.label}</span> }))}
      />
      <LoadingOverlay loading={loading} loadingText="正在加载订单">
        <div className="order-list" data-testid="order-list">
          {failed ? (
            <Result
              status="warning"
              title="订单加载失败"
              extra={
                <Button type="primary" onClick={reload}>
                  重新加载
                </Button>
              }
            />
          ) : data && data.page_data.length > 0 ? (
            data.page_data.map((order) => <OrderCard key={order.user_order_id} order={order} now={now} onChanged={reload} />)
          ) : data ? (
            <div className="order-empty" data-testid="order-empty">
              <Empty image={<InboxOutlined />} description={EMPTY_TEXT[tab]}>
                {tab === 'all' ? (
                  <Button type="primary" onClick={() => navigate('/visa/continent')}>
                    去选择签证
                  </Button>
                ) : null}
              </Empty>
            </div>
          ) : (
            <div className="order-list-placeholder" />
          )}
        </div>
      </LoadingOverlay>
      {data && data.total_count > ORDER_LIMITS.pageSize ? (
        <Pagination
          className="order-pagination"
          current={page}
          pageSize={ORDER_LIMITS.pageSize}
          total={data.total_count}
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
