// 订单队列 (/admin/orders): paid orders in processing, overdue first — filters
// (step, country, consulate, assignee) and a search (order id, applicant name
// or phone) kept in the URL; each row's time in step, due time, overdue and
// departure-risk flags as the server computed them; 领取 for an unassigned
// order, 分配 for supervisors. The rows are the route's loader data. The
// 退款 filter (退款失败) lists the orders whose failed refund is still to redo,
// completed ones included: the 工作台's alert links here.
import { Button, Input, Select, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import type { AdminQueueFilters, AdminQueueResult, AdminQueueRow } from '../../../../common/contracts/admin-order';
import type { OperatorInfo } from '../../../../common/contracts/operator';
import { formatDateTime } from '../../../../common/format';
import { durationText, QUEUE_COURIER_FILTERS, QUEUE_COURIER_FILTER_VALUES, QUEUE_REFUND_FILTERS, QUEUE_REFUND_FILTER_VALUES } from '../../../../common/review';
import { toast } from '../../../lib/toast';
import { adminApi } from '../admin-api';
import { queueHref, type QueueQuery } from './queue-params';
import './orders.css';

const STEP_COLORS: Record<string, string> = {
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

export function QueuePage({ me, query, result, filters }: { me: OperatorInfo; query: QueueQuery; result: AdminQueueResult; filters: AdminQueueFilters }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [search, setSearch] = useState(query.q ?? '');
  const [taking, setTaking] = useState<number | null>(null);
  const go = (change: Partial<QueueQuery>) => navigate(queueHref({ ...query, page: 1, ...change }));
  const supervisor = me.role === 'supervisor';

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

  const columns: ColumnsType<AdminQueueRow> = [
    {
      title: '订单号',
      dataIndex: 'user_order_id',
      width: 96,
      render: (id: number, row) => (
        <Link to={`/admin/orders/${id}`} data-testid="queue-order-link">
          {row.order_no}
        </Link>
      ),
    },
    {
      title: '步骤',
      dataIndex: 'step_label',
      width: 120,
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
      title: '产品',
      dataIndex: 'product_title',
      // A width of its own: without one the product got what the others left,
      // a single character beside a supervisor's 分配给 column.
      width: 150,
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
      width: 140,
      render: (names: string[], row) => (
        <span>
          {names.join('、')}
          {row.applicant_count > names.length ? ` 等${row.applicant_count}人` : ''}
        </span>
      ),
    },
    {
      title: '出发日期',
      dataIndex: 'departure_date',
      width: 130,
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
    { title: '停留时长', dataIndex: 'time_in_step_ms', width: 110, render: (ms: number) => durationText(ms) },
    {
      title: '到期时间',
      dataIndex: 'step_due_at',
      width: 170,
      render: (due: number | null, row) =>
        due === null ? (
          <span className="aq-muted">—</span>
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
      title: '办理人员',
      dataIndex: 'assignee',
      width: 110,
      render: (assignee: AdminQueueRow['assignee']) => assignee?.name ?? <span className="aq-muted">未分配</span>,
    },
    {
      title: '操作',
      key: 'actions',
      width: supervisor ? 220 : 120,
      render: (_, row) => (
        <Space size={6}>
          {row.assignee === null ? (
            <Button size="small" type="primary" loading={taking === row.user_order_id} onClick={() => void take(row.user_order_id)} data-testid="queue-take">
              领取
            </Button>
          ) : (
            <Button size="small" onClick={() => navigate(`/admin/orders/${row.user_order_id}`)}>
              打开
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
      <h1 className="admin-page-title">订单队列</h1>
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
      <div className="admin-card aq-table">
        <Table<AdminQueueRow>
          rowKey="user_order_id"
          size="middle"
          columns={columns}
          // Narrower than its columns (a supervisor's, at 1280 px): the table scrolls, not the page.
          scroll={{ x: columns.reduce((sum, column) => sum + Number(column.width ?? 0), 0) }}
          dataSource={result.list}
          loading={revalidator.state === 'loading'}
          rowClassName={(row) => (row.overdue ? 'aq-row-overdue' : '')}
          locale={{ emptyText: '没有符合条件的订单' }}
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
