// 订单队列 (/admin/orders): paid orders in processing, overdue first — saved
// views (我的待办, 即将超时, 全部; the last one chosen kept on the server),
// filters (step, country, consulate, assignee) and a search (order id,
// applicant name or phone) kept in the URL; each row's time in step, due time
// (sortable), overdue and departure-risk flags as the server computed them;
// 领取 for an unassigned order, 分配 for supervisors, and the same for the
// selected rows at once (each order's refusal listed). The action column stays
// on the right edge however narrow the table. The rows are the route's loader
// data. The 退款 filter (退款失败) lists the orders whose failed refund is still
// to redo, completed ones included: the 工作台's alert links here.
import { Alert, Button, Input, Segmented, Select, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import type { AdminBulkResult, AdminQueueFilters, AdminQueueResult, AdminQueueRow } from '../../../../common/contracts/admin-order';
import type { OperatorInfo } from '../../../../common/contracts/operator';
import { formatDateTime } from '../../../../common/format';
import type { OrderStep } from '../../../../common/order';
import {
  durationText,
  QUEUE_COURIER_FILTERS,
  QUEUE_COURIER_FILTER_VALUES,
  QUEUE_REFUND_FILTERS,
  QUEUE_REFUND_FILTER_VALUES,
  QUEUE_VIEW_VALUES,
  QUEUE_VIEWS,
  type QueueView,
} from '../../../../common/review';
import { toast } from '../../../lib/toast';
import { adminApi } from '../admin-api';
import { queueHref, type QueueQuery } from './queue-params';
import './orders.css';

const STEP_COLORS: Record<OrderStep, string> = {
  material_review: 'processing',
  reupload_needed: 'warning',
  awaiting_mail: 'warning',
  page_check: 'cyan',
  interview: 'purple',
  submitted: 'geekblue',
  returning: 'green',
};

function AssignSelect({ row, filters, onDone }: { row: AdminQueueRow; filters: AdminQueueFilters; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Select
      size="small"
      className="aq-assign"
      placeholder="分配给"
      aria-label={`分配订单 ${row.user_order_id}`}
      loading={busy}
      value={null}
      options={filters.operators.filter((op) => op.operator_id !== row.assignee?.operator_id).map((op) => ({ value: op.operator_id, label: op.name }))}
      onChange={async (operatorId: number) => {
        setBusy(true);
        try {
          await adminApi('/admin-api/order/assign', { user_order_id: row.user_order_id, operator_id: operatorId });
          toast.success('已分配');
          onDone();
        } catch {
          // The client has shown the server's message.
        }
        setBusy(false);
      }}
    />
  );
}

/** A bulk answer's refusals, one line per order, kept on the page until dismissed. */
function BulkOutcome({ outcome, onClose }: { outcome: { action: string; result: AdminBulkResult }; onClose: () => void }) {
  const { action, result } = outcome;
  const refused = result.results.filter((row) => row.ret !== 0);
  return (
    <Alert
      className="aq-bulk-outcome"
      type={refused.length === 0 ? 'success' : result.succeeded === 0 ? 'error' : 'warning'}
      showIcon
      closable={{ 'aria-label': '关闭结果' }}
      onClose={onClose}
      title={`${action}：成功 ${result.succeeded} 单${refused.length > 0 ? `，失败 ${refused.length} 单` : ''}`}
      description={
        refused.length > 0 ? (
          <ul className="aq-bulk-failures" data-testid="queue-bulk-failures">
            {refused.map((row) => (
              <li key={row.user_order_id}>
                订单 {row.order_no ?? `（id ${row.user_order_id}）`}：{row.msg}
              </li>
            ))}
          </ul>
        ) : undefined
      }
      data-testid="queue-bulk-outcome"
    />
  );
}

/** Makes the table's scrolling boxes reachable by Tab (axe scrollable-region-focusable: an empty table has nothing else to focus), and its measuring row unreachable. */
function useKeyboardScroll(box: React.RefObject<HTMLDivElement | null>, deps: unknown[]) {
  useEffect(() => {
    for (const region of box.current?.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body') ?? []) {
      region.tabIndex = 0;
      region.setAttribute('role', 'region');
      region.setAttribute('aria-label', '订单列表（可用方向键滚动）');
    }
    // antd's hidden row that measures the fixed columns' widths (aria-hidden) holds copies of focusable cells
    // (axe aria-hidden-focus): inert takes them out of the tab order.
    for (const row of box.current?.querySelectorAll<HTMLElement>('.ant-table-measure-row') ?? []) row.setAttribute('inert', '');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}

export function QueuePage({ me, query, result, filters }: { me: OperatorInfo; query: QueueQuery; result: AdminQueueResult; filters: AdminQueueFilters }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [search, setSearch] = useState(query.q ?? '');
  const [taking, setTaking] = useState<number | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [bulkBusy, setBulkBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ action: string; result: AdminBulkResult } | null>(null);
  const tableBox = useRef<HTMLDivElement>(null);
  useKeyboardScroll(tableBox, [result]);
  const go = (change: Partial<QueueQuery>) => navigate(queueHref({ ...query, page: 1, ...change }));
  const supervisor = me.role === 'supervisor';
  // Selected rows not on this page any more (filtered, paged away) are not acted on.
  const shown = new Set(result.list.map((row) => row.user_order_id));
  const picked = selected.filter((id) => shown.has(id));

  async function take(userOrderId: number) {
    setTaking(userOrderId);
    try {
      await adminApi('/admin-api/order/take', { user_order_id: userOrderId });
      toast.success('已领取');
      navigate(`/admin/orders/${userOrderId}`);
    } catch {
      void revalidator.revalidate();
    }
    setTaking(null);
  }

  async function chooseView(view: QueueView) {
    // Saved first, so the queue opened later without a filter shows this view; a failed save still shows it now.
    await adminApi('/admin-api/order/queue_view_save', { view }, { toast: false }).catch(() => undefined);
    setSelected([]);
    navigate(queueHref({ view, assignee: view === 'mine' ? 'me' : 'all', page: 1, ...(query.sort ? { sort: query.sort } : {}) }));
  }

  async function bulk(action: string, run: () => Promise<AdminBulkResult>) {
    setBulkBusy(true);
    try {
      const answer = await run();
      setOutcome({ action, result: answer });
      setSelected(answer.results.filter((row) => row.ret !== 0).map((row) => row.user_order_id));
      void revalidator.revalidate();
    } catch {
      // The client has shown the server's message.
    }
    setBulkBusy(false);
  }

  const columns: ColumnsType<AdminQueueRow> = [
    {
      title: '订单号',
      dataIndex: 'user_order_id',
      width: 136,
      render: (id: number, row) => (
        <Link to={`/admin/orders/${id}`} data-testid="queue-order-link">
          {row.order_no}
        </Link>
      ),
    },
    {
      title: '当前步骤',
      dataIndex: 'step_label',
      width: 112,
      render: (label: string, row) => (
        <Space size={4} orientation="vertical">
          <Tag color={row.step ? STEP_COLORS[row.step] : 'default'}>{label}</Tag>
          {row.courier_attention ? (
            <Tag color="red" data-testid="queue-courier-attention">
              {QUEUE_COURIER_FILTERS.attention}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    {
      title: '签证产品',
      dataIndex: 'product_title',
      width: 130,
      ellipsis: true,
      render: (title: string, row) => (
        <div className="aq-product">
          <div className="aq-product-title" title={title}>
            {title}
          </div>
          <div className="aq-muted">
            {row.country}
            {row.consular_district ? ` · ${row.consular_district}` : ''}
          </div>
        </div>
      ),
    },
    {
      title: '申请人',
      dataIndex: 'applicant_names',
      width: 100,
      render: (names: string[], row) => (
        <span>
          {names.join('、')}
          {row.applicant_count > names.length ? ` 等${row.applicant_count}人` : ''}
        </span>
      ),
    },
    {
      title: '客户出发日期',
      dataIndex: 'departure_date',
      width: 112,
      render: (date: string, row) => (
        <Space size={4} orientation="vertical">
          <span>{date}</span>
          {row.departure_at_risk ? (
            <Tooltip title="距出发日期的工作日少于办理还需的工作日">
              <Tag color="red" data-testid="queue-risk">
                出发有风险
              </Tag>
            </Tooltip>
          ) : null}
        </Space>
      ),
    },
    // Not 停留时长: that reads like the visa's length of stay. This is how long the order has been at its current step.
    { title: '本步已用时', dataIndex: 'time_in_step_ms', width: 100, render: (ms: number) => durationText(ms) },
    {
      title: '本步截止时间',
      dataIndex: 'step_due_at',
      key: 'due',
      width: 140,
      sorter: true,
      sortDirections: ['ascend', 'descend', 'ascend'],
      sortOrder: query.sort === 'due_desc' ? 'descend' : 'ascend',
      showSorterTooltip: { title: '按本步截止时间排序（没有时限的在最后）' },
      render: (due: number | null, row) =>
        due === null ? (
          <span className="aq-muted">无时限</span>
        ) : (
          <Space size={4} orientation="vertical">
            <span className={row.overdue ? 'aq-overdue' : undefined}>{formatDateTime(due)}</span>
            {row.overdue ? (
              <Tag color="red" data-testid="queue-overdue">
                已逾期
              </Tag>
            ) : null}
          </Space>
        ),
    },
    {
      title: '办理人',
      dataIndex: 'assignee',
      width: 90,
      render: (assignee: AdminQueueRow['assignee']) => assignee?.name ?? <span className="aq-muted">未分配</span>,
    },
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: supervisor ? 200 : 90,
      render: (_, row) => (
        <Space size={6}>
          {row.assignee === null ? (
            <Button size="small" type="primary" loading={taking === row.user_order_id} onClick={() => void take(row.user_order_id)} data-testid="queue-take">
              领取
            </Button>
          ) : (
            <Button size="small" onClick={() => navigate(`/admin/orders/${row.user_order_id}`)} data-testid="queue-open">
              查看
            </Button>
          )}
          {supervisor ? <AssignSelect row={row} filters={filters} onDone={() => void revalidator.revalidate()} /> : null}
        </Space>
      ),
    },
  ];

  const districts = filters.districts.filter((d) => !query.visa_country_id || d.visa_country_id === query.visa_country_id);

  return (
    <div data-testid="admin-queue">
      <div className="aq-head">
        <h1 className="admin-page-title">订单队列</h1>
        <Segmented<QueueView | 'custom'>
          aria-label="队列视图"
          value={query.view ?? 'custom'}
          options={[
            ...QUEUE_VIEW_VALUES.map((view) => ({ value: view, label: QUEUE_VIEWS[view] })),
            ...(query.view ? [] : [{ value: 'custom' as const, label: '自定义筛选', disabled: true }]),
          ]}
          onChange={(view) => {
            if (view !== 'custom') void chooseView(view);
          }}
          data-testid="queue-views"
        />
      </div>
      <div className="admin-card aq-filters" role="search">
        <Select
          className="aq-filter"
          aria-label="步骤"
          placeholder="全部步骤"
          allowClear
          value={query.step ?? null}
          options={filters.steps}
          onChange={(step) => go({ step: step ?? undefined })}
        />
        <Select
          className="aq-filter"
          aria-label="国家"
          placeholder="全部国家"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          value={query.visa_country_id ?? null}
          options={filters.countries.map((c) => ({ value: c.visa_country_id, label: c.name }))}
          onChange={(country) => go({ visa_country_id: country ?? undefined, consular_district_id: undefined })}
        />
        <Select
          className="aq-filter"
          aria-label="领区"
          placeholder="全部领区"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          value={query.consular_district_id ?? null}
          options={districts.map((d) => ({ value: d.consular_district_id, label: d.name }))}
          onChange={(district) => go({ consular_district_id: district ?? undefined })}
        />
        <Select
          className="aq-filter"
          aria-label="办理人员"
          value={query.assignee ?? 'all'}
          options={[
            { value: 'all', label: '全部人员' },
            { value: 'me', label: '我的订单' },
            { value: 'none', label: '未分配' },
            ...filters.operators.filter((op) => op.operator_id !== me.operator_id).map((op) => ({ value: op.operator_id, label: op.name })),
          ]}
          onChange={(assignee) => go({ assignee })}
        />
        <Select
          className="aq-filter"
          aria-label="退款"
          placeholder="全部退款状态"
          allowClear
          value={query.refund ?? null}
          options={QUEUE_REFUND_FILTER_VALUES.map((value) => ({ value, label: QUEUE_REFUND_FILTERS[value] }))}
          onChange={(refund) => go({ refund: refund ?? undefined })}
          data-testid="queue-refund-filter"
        />
        <Select
          className="aq-filter"
          aria-label="物流"
          placeholder="全部物流状态"
          allowClear
          value={query.courier ?? null}
          options={QUEUE_COURIER_FILTER_VALUES.map((value) => ({ value, label: QUEUE_COURIER_FILTERS[value] }))}
          onChange={(courier) => go({ courier: courier ?? undefined })}
          data-testid="queue-courier-filter"
        />
        <Input.Search
          className="aq-search"
          aria-label="搜索订单号、申请人姓名或手机号"
          placeholder="订单号 / 申请人姓名 / 手机号"
          allowClear
          enterButton="搜索"
          value={search}
          maxLength={30}
          onChange={(event) => setSearch(event.target.value)}
          onSearch={(value) => go({ q: value.trim() || undefined })}
          data-testid="queue-search"
        />
      </div>
      {outcome ? <BulkOutcome outcome={outcome} onClose={() => setOutcome(null)} /> : null}
      <div className="admin-card aq-table" ref={tableBox}>
        <div className="aq-bulk" role="toolbar" aria-label="批量操作" data-testid="queue-bulk">
          <span className="aq-bulk-count">{picked.length > 0 ? `已选 ${picked.length} 个订单` : '勾选订单后可批量操作'}</span>
          <Button
            size="small"
            type="primary"
            disabled={picked.length === 0}
            loading={bulkBusy}
            onClick={() => void bulk('批量领取', () => adminApi('/admin-api/order/take_many', { user_order_ids: picked }))}
            data-testid="queue-bulk-take"
          >
            批量领取
          </Button>
          {supervisor ? (
            <Select
              size="small"
              className="aq-bulk-assign"
              placeholder="批量分配给…"
              aria-label="批量分配给"
              disabled={picked.length === 0 || bulkBusy}
              value={null}
              options={filters.operators.map((op) => ({ value: op.operator_id, label: op.name }))}
              onChange={(operatorId: number) =>
                void bulk('批量分配', () => adminApi('/admin-api/order/assign_many', { user_order_ids: picked, operator_id: operatorId }))
              }
              data-testid="queue-bulk-assign"
            />
          ) : null}
          {picked.length > 0 ? (
            <Button size="small" type="link" onClick={() => setSelected([])}>
              取消选择
            </Button>
          ) : null}
        </div>
        <Table<AdminQueueRow>
          rowKey="user_order_id"
          size="small"
          columns={columns}
          // Narrower than its columns: the table scrolls, not the page, and 操作 stays fixed on the right.
          scroll={{ x: columns.reduce((sum, column) => sum + Number(column.width ?? 0), 32) }}
          dataSource={result.list}
          loading={revalidator.state === 'loading'}
          rowClassName={(row) => (row.overdue ? 'aq-row-overdue' : '')}
          rowSelection={{
            selectedRowKeys: picked,
            onChange: (keys) => setSelected(keys.map(Number)),
            getCheckboxProps: (row) => ({ 'aria-label': `选择订单 ${row.order_no ?? row.user_order_id}` }),
            columnWidth: 32,
          }}
          onChange={(_pagination, _filters, sorter, extra) => {
            if (extra.action !== 'sort') return;
            const order = Array.isArray(sorter) ? sorter[0]?.order : sorter.order;
            go({ sort: order === 'descend' ? 'due_desc' : undefined });
          }}
          locale={{ emptyText: <div className="aq-empty">没有符合条件的订单</div> }}
          pagination={{
            current: result.page,
            pageSize: result.page_size,
            total: result.total,
            showSizeChanger: false,
            showTotal: (total) => `共 ${total}${result.total_exact ? '' : '+'} 个订单`,
            onChange: (page) => navigate(queueHref({ ...query, page })),
          }}
        />
      </div>
    </div>
  );
}
