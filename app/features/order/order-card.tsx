// One order of the order list (spec 2.1): product, country and district,
// departure date, status, total, created time, the unpaid countdown, the
// applicants with their own status, and the action buttons.
import { ClockCircleOutlined, UserOutlined } from '@ant-design/icons';
import { Checkbox } from 'antd';
import { Link } from 'react-router';
import type { OrderSummary } from '../../../common/contracts/order';
import { APPLICANT_STATUS_SHOWN_STATUSES, UNPAID_STATUSES, hasStatus } from '../../../common/order';
import { OrderActions } from './order-actions';
import { expiryText, formatDateTime } from '../../../common/format';
import { orderDetailPath } from './order-format';
import { OrderStatusTag } from './order-status-tag';
import { PriceText } from './price-text';
import './visa.css';

export function OrderCard({
  order,
  now,
  onChanged,
  selected,
  onSelect,
}: {
  order: OrderSummary;
  now: number | null;
  onChanged: () => void;
  /** Ticked for the export and invoice bar (issue 29); no box without onSelect. */
  selected?: boolean;
  onSelect?: (checked: boolean) => void;
}) {
  const unpaid = UNPAID_STATUSES.includes(order.status);
  return (
    <article className="order-card" data-testid="order-card" data-order-id={order.user_order_id}>
      <header className="order-card-head">
        {onSelect ? (
          <Checkbox
            checked={selected}
            onChange={(event) => onSelect(event.target.checked)}
            aria-label={`选择订单 ${order.order_no}`}
            data-testid="order-select"
          />
        ) : null}
        <span className="order-card-no">订单号 {order.order_no}</span>
        {order.group_name ? (
          <span className="order-card-group" data-testid="order-group">
            团组 {order.group_name}
          </span>
        ) : null}
        <span className="order-card-created">下单时间 {formatDateTime(order.created_at)}</span>
        <span className="order-card-status">
          {unpaid && order.expires_at !== null && now !== null ? (
            <span className="order-expiry" data-testid="order-expiry">
              <ClockCircleOutlined /> {expiryText(order.expires_at, now)}
            </span>
          ) : null}
          <OrderStatusTag status={order.status} statusLabel={order.status_label} stepLabel={order.step_label} />
        </span>
      </header>

      <div className="order-card-body">
        <div className="order-card-main">
          <Link to={orderDetailPath(order.user_order_id)} className="order-card-title" data-testid="order-title">
            {order.product_title}
          </Link>
          <div className="order-card-meta">
            <span>{order.country}</span>
            <span>{order.consular_district ? order.consular_district.name : '不分领区'}</span>
            <span data-testid="order-departure">
              出发日期 {order.departure_date}
              {order.departure_date_past ? <em className="order-warn-text">（已过期，请修改）</em> : null}
            </span>
          </div>
          <ul className="order-card-applicants" data-testid="order-applicants" aria-label="申请人">
            {order.applicants.map((applicant) => (
              <li key={applicant.applicant_id} data-testid="order-applicant">
                <UserOutlined />
                <span className="order-applicant-name">{applicant.name}</span>
                <span className="order-muted">{applicant.identity_label}</span>
                {/* An applicant's own status matters once the order is at the embassy. */}
                {hasStatus(order, APPLICANT_STATUS_SHOWN_STATUSES) ? (
                  <span className={`order-applicant-status is-${applicant.status}`}>{applicant.status_label}</span>
                ) : null}
                {/* The visa dates of an issued visa (issue 11). */}
                {applicant.visa_valid_from && applicant.visa_valid_to ? (
                  <span className="order-visa-dates" data-testid="order-applicant-visa-dates">
                    签证有效期 {applicant.visa_valid_from} – {applicant.visa_valid_to}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
        <div className="order-card-amount">
          <PriceText cents={order.total_amount} strong testId="order-total" />
          {/* The total may include insurance and discounts after the confirm step: no "price × n" here. */}
          <span className="order-muted">共{order.applicant_count}位申请人</span>
        </div>
      </div>

      <footer className="order-card-foot">
        <OrderActions order={order} onChanged={onChanged} showDetailLink size="middle" />
      </footer>
    </article>
  );
}
