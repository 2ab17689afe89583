// 对账差异 (/admin/reconciliation, issue 25, decision 0038): the differences
// the daily reconciliation found between each payment provider's bill and our
// payments and refunds — unexplained first — with the last runs. A supervisor
// marks a difference explained with a note (who and when are kept); then the
// route's loader reads the list again. Operators see the list only.
import { Button, Form, Input, Modal, Segmented, Table, Tag } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import type { ReconciliationDifferenceView, ReconciliationListResult } from '../../../common/contracts/reconciliation';
import { formatDateTime, formatPrice } from '../../../common/format';
import { ApiError } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { adminApi } from './admin-api';
import './orders/orders.css';
import './reconciliation.css';

export interface ReconciliationQuery {
  status: 'open' | 'all';
  page: number;
}

export function reconciliationHref(query: ReconciliationQuery): string {
  const params = new URLSearchParams();
  if (query.status === 'all') params.set('status', 'all');
  if (query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `/admin/reconciliation?${text}` : '/admin/reconciliation';
}

const KIND_COLORS = { missing_ours: 'orange', missing_theirs: 'red', amount: 'gold' } as const;
const RUN_COLORS = { running: 'processing', done: 'green', failed: 'red' } as const;

const amount = (cents: number | null) => (cents === null ? <span className="aq-muted">—</span> : formatPrice(cents));

function ExplainDialog({ difference, onClose }: { difference: ReconciliationDifferenceView | null; onClose: () => void }) {
  const [form] = Form.useForm<{ note: string }>();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);

  async function submit({ note }: { note: string }) {
    if (!difference) return;
    setBusy(true);
    try {
      await adminApi('/admin-api/reconciliation/difference_explain', { difference_id: difference.difference_id, note }, { toast: false });
      toast.success('已标记为已说明');
      form.resetFields();
      onClose();
    } catch (error) {
      if (!(error instanceof ApiError && error.httpStatus === 401)) toast.error(error instanceof ApiError ? error.message : '操作失败，请重试');
    } finally {
      await revalidator.revalidate();
      setBusy(false);
    }
  }

  return (
    <Modal
      open={difference !== null}
      title="标记差异已说明"
      okText="确认说明"
      cancelText="取消"
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {difference && (
        <p className="aq-muted">
          {difference.provider_label} {difference.bill_date} · {difference.kind_label} · {difference.out_trade_no}
          {difference.out_refund_no ? ` / ${difference.out_refund_no}` : ''}
        </p>
      )}
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item
          name="note"
          label="说明"
          rules={[
            { required: true, whitespace: true, message: '请填写说明' },
            { min: 2, max: 500, message: '说明为 2–500 个字' },
          ]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount placeholder="例如：跨日入账，次日账单已包含；已与财务核对" data-testid="reconciliation-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function ReconciliationPage({ query, list }: { query: ReconciliationQuery; list: ReconciliationListResult }) {
  const navigate = useNavigate();
  const [explaining, setExplaining] = useState<ReconciliationDifferenceView | null>(null);
  return (
    <div data-testid="admin-reconciliation">
      <h1 className="admin-page-title">对账差异</h1>
      <div className="admin-card">
        <p className="aq-muted">
          每天北京时间 10 点后，系统下载各支付服务商前一天的对账单，与系统的支付和退款记录逐笔比对。未说明的差异 <strong>{list.open_count}</strong> 条。
        </p>
        <Table
          rowKey={(run) => `${run.provider}-${run.bill_date}`}
          size="small"
          pagination={false}
          dataSource={list.runs}
          locale={{ emptyText: <div className="aq-empty">最近 7 天还没有对账</div> }}
          columns={[
            { title: '对账单日期', dataIndex: 'bill_date', width: 120 },
            { title: '支付服务商', dataIndex: 'provider_label', width: 120 },
            {
              title: '状态',
              dataIndex: 'status',
              width: 140,
              render: (status: keyof typeof RUN_COLORS, run) => <Tag color={RUN_COLORS[status]}>{run.status_label}</Tag>,
            },
            { title: '账单笔数', dataIndex: 'bill_lines', width: 100 },
            { title: '差异', dataIndex: 'differences', width: 80 },
            { title: '完成时间', dataIndex: 'finished_at', render: (at: number | null) => (at ? formatDateTime(at) : '—') },
          ]}
        />
      </div>
      <div className="admin-card aq-filters">
        <Segmented
          aria-label="差异范围"
          value={query.status}
          options={[
            { value: 'open', label: '未说明' },
            { value: 'all', label: '全部' },
          ]}
          onChange={(status) => navigate(reconciliationHref({ status: status as ReconciliationQuery['status'], page: 1 }))}
        />
      </div>
      <div className="admin-card aq-table">
        <Table
          rowKey="difference_id"
          size="middle"
          dataSource={list.page_data}
          locale={{ emptyText: <div className="aq-empty">{query.status === 'open' ? '没有未说明的差异' : '暂无对账差异'}</div> }}
          columns={[
            { title: '对账单日期', dataIndex: 'bill_date', width: 104 },
            { title: '服务商', dataIndex: 'provider_label', width: 72 },
            {
              title: '差异',
              dataIndex: 'kind',
              width: 132,
              render: (kind: keyof typeof KIND_COLORS, row) => (
                <>
                  <Tag color={KIND_COLORS[kind]}>{row.kind_label}</Tag>
                  {row.line_kind_label}
                </>
              ),
            },
            {
              title: '交易号',
              dataIndex: 'out_trade_no',
              width: 250,
              render: (outTradeNo: string, row) => (
                <div className="rc-mono">
                  {outTradeNo}
                  {row.out_refund_no && <div className="aq-muted">退款 {row.out_refund_no}</div>}
                  {row.provider_trade_no && <div className="aq-muted">服务商 {row.provider_trade_no}</div>}
                </div>
              ),
            },
            {
              title: '订单',
              dataIndex: 'user_order_id',
              width: 64,
              render: (id: number | null) => (id ? <Link to={`/admin/orders/${id}`}>{id}</Link> : <span className="aq-muted">—</span>),
            },
            { title: '我方金额', dataIndex: 'our_amount', width: 96, align: 'right', render: amount },
            { title: '账单金额', dataIndex: 'their_amount', width: 96, align: 'right', render: amount },
            { title: '发生时间', dataIndex: 'happened_at', width: 150, render: (at: number | null) => (at ? formatDateTime(at) : '—') },
            {
              title: '说明',
              key: 'explanation',
              render: (_: unknown, row) =>
                row.explained ? (
                  <div>
                    <div className="rc-prewrap">{row.explanation}</div>
                    <div className="aq-muted">
                      {row.explained_by} · {row.explained_at ? formatDateTime(row.explained_at) : ''}
                    </div>
                  </div>
                ) : list.can_explain ? (
                  <Button size="small" onClick={() => setExplaining(row)} data-testid="reconciliation-explain">
                    标记已说明
                  </Button>
                ) : (
                  <span className="aq-muted">待主管说明</span>
                ),
            },
          ]}
          pagination={{
            current: query.page,
            pageSize: 20,
            total: list.total_count,
            showSizeChanger: false,
            showTotal: (total) => `共 ${total} 条`,
            onChange: (page) => navigate(reconciliationHref({ ...query, page })),
          }}
        />
      </div>
      <ExplainDialog difference={explaining} onClose={() => setExplaining(null)} />
    </div>
  );
}
