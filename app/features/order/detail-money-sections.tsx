// Order detail (spec 2.4): insurance detail and payment (the amounts and the
// payment records).
import { Descriptions, Tag } from 'antd';
import type { OrderDetail, PaymentView } from '../../../common/contracts/order';
import { formatDateTime, formatPrice } from '../../../common/format';
import { isDraft } from '../../../common/order';
import { paymentKindLabel } from '../../../common/price-difference';
import { DetailSection } from './detail-info-sections';
import { PriceText } from './price-text';

export function InsuranceSection({ order }: { order: OrderDetail }) {
  const insurance = order.insurance;
  const insured = order.applicants.filter((applicant) => applicant.insured).map((applicant) => applicant.name);
  return (
    <DetailSection title="保险详情" testId="order-insurance">
      {insurance ? (
        <>
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2, lg: 3 }}
            items={[
              { key: 'name', label: '保险方案', children: insurance.name },
              { key: 'company', label: '承保公司', children: insurance.company },
              { key: 'days', label: '保险天数', children: `${insurance.days}天` },
              { key: 'period', label: '保障期间', children: `${insurance.start_date} 至 ${insurance.end_date}` },
              { key: 'price', label: '单价', children: `${formatPrice(insurance.price_per_day)}/人/天` },
              { key: 'amount', label: '保险费用', children: <PriceText cents={insurance.amount} /> },
              { key: 'insured', label: `被保险人（${insurance.insured_count}人）`, children: insured.join('、') || '—', span: 'filled' },
            ]}
          />
          {insurance.items.length > 0 ? (
            <ul className="order-insurance-items" aria-label="保障项目">
              {insurance.items.map((item) => (
                <li key={item.name}>
                  <span>{item.name}</span>
                  <strong>{item.amount}</strong>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : (
        <p className="order-muted order-none">{isDraft(order) ? '确认订单时可选择旅行保险。' : '未购买保险'}</p>
      )}
    </DetailSection>
  );
}

const PAYMENT_STATUS_COLORS: Record<PaymentView['status'], string> = {
  pending: 'warning',
  paid: 'success',
  closed: 'default',
  refund_pending: 'processing',
};

export function PaymentSection({ order }: { order: OrderDetail }) {
  return (
    <DetailSection title="支付信息" testId="order-payment">
      <dl className="order-amounts">
        <div>
          <dt>签证费用</dt>
          <dd>
            <PriceText cents={order.product_amount} />
            <span className="order-muted">
              （{formatPrice(order.unit_price)} × {order.applicant_count}人）
            </span>
          </dd>
        </div>
        <div>
          <dt>保险费用</dt>
          <dd>
            <PriceText cents={order.insurance_amount} />
          </dd>
        </div>
        {order.discount_amount > 0 ? (
          <div>
            <dt>优惠</dt>
            <dd>-{formatPrice(order.discount_amount)}</dd>
          </div>
        ) : null}
        <div className={order.price_difference_paid > 0 ? undefined : 'order-amount-total'}>
          <dt>{order.paid_at ? '实付金额' : '订单总额'}</dt>
          <dd>
            <PriceText cents={order.total_amount} strong={order.price_difference_paid === 0} testId="order-detail-total" />
          </dd>
        </div>
        {order.price_difference_paid > 0 ? (
          <>
            <div>
              <dt>补差价</dt>
              <dd>
                <PriceText cents={order.price_difference_paid} testId="order-detail-difference-paid" />
              </dd>
            </div>
            <div className="order-amount-total">
              <dt>实付合计</dt>
              <dd>
                <PriceText cents={order.paid_total} strong testId="order-detail-paid-total" />
              </dd>
            </div>
          </>
        ) : null}
        {order.paid_at ? (
          <div>
            <dt>支付时间</dt>
            <dd>{formatDateTime(order.paid_at)}</dd>
          </div>
        ) : null}
      </dl>
      {order.payments.length > 0 ? (
        <ul className="order-payments" aria-label="支付记录">
          {order.payments.map((payment) => (
            <li key={payment.out_trade_no} data-testid="order-payment-record">
              <div>
                <strong>{paymentKindLabel(payment.price_difference_id)}</strong> · {payment.channel_label} <PriceText cents={payment.amount} />{' '}
                <Tag color={PAYMENT_STATUS_COLORS[payment.status] ?? 'default'}>{payment.status_label}</Tag>
              </div>
              <div className="order-muted">
                流水号 {payment.out_trade_no} · 发起于 {formatDateTime(payment.created_at)}
                {payment.paid_at ? ` · 支付于 ${formatDateTime(payment.paid_at)}` : ''}
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="order-muted order-none">暂无支付记录</p>
      )}
    </DetailSection>
  );
}
