// 访问日志 (/admin/access-log, supervisors): every time an operator opened a
// customer's file, newest first; filter by operator or order (in the URL).
import { Input, Select, Table } from 'antd';
import { Link, useNavigate } from 'react-router';
import type { AdminFileAccessLog, AdminQueueFilters } from '../../../../common/contracts/admin-order';
import { formatDateTime } from '../../../../common/format';
import './orders.css';

export interface AccessLogQuery {
  operator_id?: number;
  user_order_id?: number;
  page: number;
}

export function accessLogHref(query: AccessLogQuery): string {
  const params = new URLSearchParams();
  if (query.operator_id) params.set('operator', String(query.operator_id));
  if (query.user_order_id) params.set('order', String(query.user_order_id));
  if (query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `/admin/access-log?${text}` : '/admin/access-log';
}

export function AccessLogPage({ query, log, operators }: { query: AccessLogQuery; log: AdminFileAccessLog; operators: AdminQueueFilters['operators'] }) {
  const navigate = useNavigate();
  const go = (change: Partial<AccessLogQuery>) => navigate(accessLogHref({ ...query, page: 1, ...change }));
  return (
    <div data-testid="admin-access-log">
      <h1 className="admin-page-title">文件访问日志</h1>
      <div className="admin-card aq-filters" role="search">
        <Select
          className="aq-filter"
          aria-label="操作员"
          placeholder="全部操作员"
          allowClear
          value={query.operator_id ?? null}
          options={operators.map((op) => ({ value: op.operator_id, label: op.name }))}
          onChange={(operatorId) => go({ operator_id: operatorId ?? undefined })}
        />
        <Input.Search
          className="aq-filter"
          aria-label="订单号"
          placeholder="订单号"
          allowClear
          defaultValue={query.user_order_id ? String(query.user_order_id) : ''}
          onSearch={(value) => go({ user_order_id: /^[1-9]\d{0,9}$/.test(value.trim()) ? Number(value.trim()) : undefined })}
        />
      </div>
      <div className="admin-card aq-table">
        <Table
          rowKey="file_access_log_id"
          size="middle"
          dataSource={log.list}
          locale={{ emptyText: <div className="aq-empty">暂无访问记录</div> }}
          columns={[
            { title: '时间', dataIndex: 'accessed_at', width: 180, render: (at: number) => formatDateTime(at) },
            { title: '操作员', dataIndex: 'operator_name', width: 140 },
            { title: '订单号', dataIndex: 'user_order_id', width: 100, render: (id: number) => <Link to={`/admin/orders/${id}`}>{id}</Link> },
            {
              title: '文件',
              dataIndex: 'file_name',
              render: (name: string | null, row) => name ?? <span className="aq-muted">（已替换或删除）#{row.file_id}</span>,
            },
            { title: 'IP', dataIndex: 'ip', width: 140, render: (ip: string | null) => ip ?? '—' },
          ]}
          pagination={{
            current: log.page,
            pageSize: log.page_size,
            total: log.total,
            showSizeChanger: false,
            showTotal: (total) => `共 ${total} 条`,
            onChange: (page) => navigate(accessLogHref({ ...query, page })),
          }}
        />
      </div>
    </div>
  );
}
