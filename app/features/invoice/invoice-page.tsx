// 我的发票 (issue 29): each request with its status (待开票 / 已开票 /
// 已驳回 with the reason), amount, orders and details; an issued invoice's PDF
// to open or download; 待红冲 when an order was refunded after it was issued.
import { Empty, Pagination, Tag } from 'antd';
import { Link, useSearchParams } from 'react-router';
import type { InvoiceListResult, InvoiceView } from '../../../common/contracts/invoice';
import { formatDateTime, formatPrice } from '../../../common/format';
import './invoice.css';

const STATUS_COLORS: Record<InvoiceView['status'], string> = { requested: 'processing', issued: 'success', rejected: 'error' };

function InvoiceCard({ invoice }: { invoice: InvoiceView }) {
  return (
    <article className="invoice-card" id={`invoice-${invoice.invoice_id}`} data-testid="invoice-card" data-status={invoice.status}>
      <header className="invoice-card-head">
        <span className="invoice-card-title">{invoice.title}</span>
        <span>
          <Tag color={STATUS_COLORS[invoice.status]} data-testid="invoice-status">
            {invoice.status_label}
          </Tag>
          {invoice.reversal === 'none' ? null : (
            <Tag color={invoice.reversal === 'due' ? 'warning' : 'default'} data-testid="invoice-reversal">
              {invoice.reversal_label}
            </Tag>
          )}
        </span>
      </header>
      <div className="invoice-card-meta">
        <span>
          金额 <strong data-testid="invoice-amount">{formatPrice(invoice.amount)}</strong>
        </span>
        <span>纳税人识别号 {invoice.tax_id}</span>
        <span>收票邮箱 {invoice.email}</span>
        <span>申请于 {formatDateTime(invoice.created_at)}</span>
        {invoice.issued_at ? <span>开具于 {formatDateTime(invoice.issued_at)}</span> : null}
      </div>
      <ul className="invoice-card-orders" aria-label="开票订单">
        {invoice.orders.map((order) => (
          <li key={order.user_order_id}>
            <Link to={`/order/order-detail/${order.user_order_id}`}>{order.order_no}</Link> {order.product_title} · {formatPrice(order.amount)}
          </li>
        ))}
      </ul>
      {invoice.reject_reason ? <p className="invoice-muted">驳回原因：{invoice.reject_reason}</p> : null}
      {invoice.reversal === 'due' ? <p className="invoice-muted">开票后订单有退款，我们将开具红字发票冲销并按实付金额重新开具。</p> : null}
      {invoice.file ? (
        <div className="invoice-card-actions">
          <a href={invoice.file.url} target="_blank" rel="noreferrer" data-testid="invoice-open">
            查看电子发票
          </a>
          <a href={invoice.file.url} download={invoice.file.file_name} data-testid="invoice-download">
            下载 PDF
          </a>
        </div>
      ) : null}
    </article>
  );
}

export function InvoicePage({ page, list }: { page: number; list: InvoiceListResult }) {
  const [, setSearchParams] = useSearchParams();
  return (
    <div className="invoice-page" data-testid="invoice-page">
      <h1 className="invoice-page-title">我的发票</h1>
      <p className="invoice-muted">在“我的订单”中勾选已支付的订单，点击“申请发票”。开具后会发送通知到收票邮箱。</p>
      <div className="invoice-list">
        {list.page_data.length > 0 ? (
          list.page_data.map((invoice) => <InvoiceCard key={invoice.invoice_id} invoice={invoice} />)
        ) : (
          <Empty description="还没有发票申请">
            <Link to="/order/order-list">去我的订单</Link>
          </Empty>
        )}
      </div>
      {list.total_count > 10 ? (
        <Pagination
          current={page}
          pageSize={10}
          total={list.total_count}
          showSizeChanger={false}
          onChange={(next) => setSearchParams({ page: String(next) })}
        />
      ) : null}
    </div>
  );
}
