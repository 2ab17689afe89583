// 发票 (/admin/invoices, issue 29): the customers' invoice requests, the
// oldest first; an operator issues one by uploading the e-invoice PDF (PDF
// only, checked by the server like every upload; the customer is told), or
// rejects it with a reason; an issued invoice whose orders were refunded
// afterwards is 待红冲 until an operator records the reversal. Every action
// reads the list again through the route's loader.
import { Button, Form, Input, Modal, Segmented, Table, Tag } from 'antd';
import { useRef, useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import type { AdminInvoiceListResult, AdminInvoiceView } from '../../../common/contracts/invoice';
import { formatDateTime, formatPrice } from '../../../common/format';
import { INVOICE_LIMITS } from '../../../common/invoice';
import { ApiError } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { adminApi, adminUpload } from './admin-api';
import './orders/orders.css';
import './invoices.css';

export interface InvoicesQuery {
  filter: 'requested' | 'reversal' | 'all';
  page: number;
}

function invoicesHref(query: InvoicesQuery): string {
  const params = new URLSearchParams();
  if (query.filter !== 'requested') params.set('filter', query.filter);
  if (query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `/admin/invoices?${text}` : '/admin/invoices';
}

const STATUS_COLORS = { requested: 'processing', issued: 'success', rejected: 'error' } as const;

function failed(error: unknown) {
  if (!(error instanceof ApiError && error.httpStatus === 401)) toast.error(error instanceof ApiError ? error.message : '操作失败，请重试');
}

function RejectDialog({ invoice, onClose }: { invoice: AdminInvoiceView | null; onClose: () => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  async function submit({ reason }: { reason: string }) {
    if (!invoice) return;
    setBusy(true);
    try {
      await adminApi('/admin-api/invoice/reject', { invoice_id: invoice.invoice_id, reason }, { toast: false });
      toast.success('已驳回，客户会收到通知');
      onClose();
    } catch (error) {
      failed(error);
    } finally {
      await revalidator.revalidate();
      setBusy(false);
    }
  }
  return (
    <Modal
      open={invoice !== null}
      title="驳回发票申请"
      okText="确认驳回"
      cancelText="取消"
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item
          name="reason"
          label="驳回原因（客户可见）"
          rules={[
            { required: true, whitespace: true, message: '请填写驳回原因' },
            {
              min: INVOICE_LIMITS.rejectReasonMin,
              max: INVOICE_LIMITS.rejectReasonMax,
              message: `原因为 ${INVOICE_LIMITS.rejectReasonMin}–${INVOICE_LIMITS.rejectReasonMax} 个字`,
            },
          ]}
        >
          <Input.TextArea
            rows={3}
            maxLength={INVOICE_LIMITS.rejectReasonMax}
            showCount
            placeholder="例如：抬头与纳税人识别号不符"
            data-testid="invoice-reject-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function IssueButton({ invoice }: { invoice: AdminInvoiceView }) {
  const input = useRef<HTMLInputElement>(null);
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  async function upload(file: File) {
    setBusy(true);
    try {
      const form = new FormData();
      form.append('invoice_id', String(invoice.invoice_id));
      form.append('file', file);
      await adminUpload('/admin-api/invoice/issue', form, { toast: false });
      toast.success('发票已开具，客户会收到通知');
    } catch (error) {
      failed(error);
    } finally {
      if (input.current) input.current.value = '';
      await revalidator.revalidate();
      setBusy(false);
    }
  }
  return (
    <>
      <input
        ref={input}
        type="file"
        accept="application/pdf,.pdf"
        hidden
        data-testid="invoice-file-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void upload(file);
        }}
      />
      <Button size="small" type="primary" loading={busy} onClick={() => input.current?.click()} data-testid="invoice-issue" autoInsertSpace={false}>
        上传发票并开具
      </Button>
    </>
  );
}

export function InvoicesPage({ query, list }: { query: InvoicesQuery; list: AdminInvoiceListResult }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [rejecting, setRejecting] = useState<AdminInvoiceView | null>(null);

  async function reversed(invoice: AdminInvoiceView) {
    try {
      await adminApi('/admin-api/invoice/reversed', { invoice_id: invoice.invoice_id }, { toast: false });
      toast.success('已登记红冲');
    } catch (error) {
      failed(error);
    } finally {
      await revalidator.revalidate();
    }
  }

  return (
    <div data-testid="admin-invoices">
      <h1 className="admin-page-title">发票</h1>
      <div className="admin-card aq-filters">
        <Segmented
          aria-label="发票范围"
          value={query.filter}
          options={[
            { value: 'requested', label: `待开票（${list.requested_count}）` },
            { value: 'reversal', label: `待红冲（${list.reversal_count}）` },
            { value: 'all', label: '全部' },
          ]}
          onChange={(filter) => navigate(invoicesHref({ filter: filter as InvoicesQuery['filter'], page: 1 }))}
        />
        <p className="aq-muted">客户支付后可为一个或多个订单申请发票；开票金额不超过已支付减去已退款。开具后订单又有退款的发票为“待红冲”。</p>
      </div>
      <div className="admin-card aq-table">
        <Table
          rowKey="invoice_id"
          size="middle"
          dataSource={list.page_data}
          scroll={{ x: 1100 }}
          locale={{
            emptyText: (
              <div className="aq-empty">
                {query.filter === 'requested' ? '没有待开票的申请' : query.filter === 'reversal' ? '没有待红冲的发票' : '暂无发票'}
              </div>
            ),
          }}
          columns={[
            { title: '申请时间', dataIndex: 'created_at', width: 140, render: (at: number) => formatDateTime(at) },
            { title: '企业', dataIndex: 'enterprise_name', width: 140 },
            {
              title: '抬头 / 纳税人识别号',
              dataIndex: 'title',
              width: 240,
              render: (title: string, row) => (
                <div data-testid="invoice-row-title">
                  <div>{title}</div>
                  <div className="aq-muted">{row.tax_id}</div>
                  {row.address_phone ? <div className="aq-muted">{row.address_phone}</div> : null}
                  {row.bank_account ? <div className="aq-muted">{row.bank_account}</div> : null}
                  <div className="aq-muted">{row.email}</div>
                </div>
              ),
            },
            { title: '金额', dataIndex: 'amount', width: 100, align: 'right', render: (cents: number) => formatPrice(cents) },
            {
              title: '订单',
              key: 'orders',
              width: 190,
              render: (_: unknown, row) =>
                row.orders.map((order) => (
                  <div key={order.user_order_id}>
                    <Link to={`/admin/orders/${order.user_order_id}`}>{order.order_no}</Link> <span className="aq-muted">{formatPrice(order.amount)}</span>
                  </div>
                )),
            },
            {
              title: '状态',
              dataIndex: 'status',
              width: 130,
              render: (status: AdminInvoiceView['status'], row) => (
                <>
                  <Tag color={STATUS_COLORS[status]} data-testid="invoice-row-status">
                    {row.status_label}
                  </Tag>
                  {row.reversal === 'none' ? null : <Tag color={row.reversal === 'due' ? 'warning' : 'default'}>{row.reversal_label}</Tag>}
                  {row.issued_at ? (
                    <div className="aq-muted">
                      {row.issued_by} · {formatDateTime(row.issued_at)}
                    </div>
                  ) : null}
                  {row.reject_reason ? <div className="aq-muted">{row.reject_reason}</div> : null}
                </>
              ),
            },
            {
              title: '操作',
              key: 'actions',
              render: (_: unknown, row) => (
                <div className="aq-actions">
                  {row.status === 'requested' ? (
                    <>
                      <IssueButton invoice={row} />
                      <Button size="small" onClick={() => setRejecting(row)} data-testid="invoice-reject" autoInsertSpace={false}>
                        驳回
                      </Button>
                    </>
                  ) : null}
                  {row.file ? (
                    <a href={row.file.url} target="_blank" rel="noreferrer">
                      查看发票
                    </a>
                  ) : null}
                  {row.reversal === 'due' ? (
                    <Button size="small" onClick={() => void reversed(row)} data-testid="invoice-reversed" autoInsertSpace={false}>
                      登记已红冲
                    </Button>
                  ) : null}
                </div>
              ),
            },
          ]}
          pagination={{
            current: query.page,
            pageSize: 10,
            total: list.total_count,
            showSizeChanger: false,
            showTotal: (total) => `共 ${total} 条`,
            onChange: (page) => navigate(invoicesHref({ ...query, page })),
          }}
        />
      </div>
      <RejectDialog invoice={rejecting} onClose={() => setRejecting(null)} />
    </div>
  );
}
