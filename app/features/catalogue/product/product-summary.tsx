// The top of the product page (spec 2.2): header, stats, price, main action,
// feature strip, the '拒签退全款' badge and the procedure icons.
import {
  AuditOutlined,
  CarOutlined,
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloudUploadOutlined,
  FormOutlined,
  InfoCircleOutlined,
  SafetyCertificateFilled,
  SendOutlined,
  SolutionOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { VisaProductDetail } from '../../../../common/contracts/catalogue';
import { isDelisted, productTitle } from '../../../../common/catalogue';
import { formatAverageRating, formatPassRate, formatPrice } from '../../../../common/format';
import { PlainTag } from '../../../components/plain/plain-tag';
import { ApplyAction } from './apply-action';
import { StarBar } from './star-bar';

const PROCEDURE_ICONS: Record<string, ReactNode> = {
  form: <FormOutlined />,
  upload: <CloudUploadOutlined />,
  review: <AuditOutlined />,
  submit: <SendOutlined />,
  interview: <TeamOutlined />,
  visa: <SolutionOutlined />,
  express: <CarOutlined />,
};

function flagUrl(isoCode: string): string {
  return `/static/flags/4x3/${isoCode.toLowerCase()}.svg`;
}

/** common_info item (spec §3): type 0 → num + unit (unit only if num > 0); type 1 → the text in unit. */
function FeatureValue({ item }: { item: VisaProductDetail['common_info'][number] }) {
  if (item.type === 1) return <span className="pd-feature-text">{item.unit}</span>;
  return (
    <>
      <span className="pd-feature-num">{item.num}</span>
      {item.num > 0 && item.unit ? <span className="pd-feature-unit">{item.unit}</span> : null}
    </>
  );
}

/**
 * The price breakdown: a popup shown by CSS while the pointer is over the
 * button or the popup, or the button has focus (no JavaScript needed); Escape
 * hides it until the pointer or focus leaves.
 */
function PriceDetail({ info }: { info: VisaProductDetail['basic_info'][number] | undefined }) {
  const [dismissed, setDismissed] = useState(false);
  if (!info) return null;
  return (
    <span
      className={dismissed ? 'pd-price-detail-anchor pd-price-detail-anchor--dismissed' : 'pd-price-detail-anchor'}
      onMouseLeave={() => setDismissed(false)}
      onBlur={() => setDismissed(false)}
    >
      <button
        type="button"
        className="pd-price-detail-trigger"
        data-testid="product-price-detail-trigger"
        aria-describedby="pd-price-detail"
        onKeyDown={(event) => {
          if (event.key === 'Escape') setDismissed(true);
        }}
      >
        明细 <InfoCircleOutlined />
      </button>
      <span className="pd-price-detail-popup" role="tooltip" id="pd-price-detail">
        <span className="pd-price-detail" data-testid="product-price-detail">
          <span className="pd-price-detail-title">{info.title}</span>
          <span className="pd-price-detail-content">{info.content}</span>
        </span>
      </span>
    </span>
  );
}

export function ProductSummary({ product }: { product: VisaProductDetail }) {
  const title = productTitle(product);
  const rating = formatAverageRating(product.sum_score, product.reviews);
  const discount = product.distributor_discount;

  return (
    <section className="pd-card pd-summary" data-testid="product-summary">
      <div className="pd-summary-top">
        <div className="pd-summary-main">
          <div className="pd-summary-head">
            {product.country_iso_code ? (
              <img className="pd-flag" src={flagUrl(product.country_iso_code)} alt={`${product.country}国旗`} width={72} height={54} />
            ) : null}
            <div className="pd-summary-titles">
              <div className="pd-product-id" data-testid="product-id">
                ID: {product.visa_product_id}
              </div>
              <h1 className="pd-title" data-testid="product-title">
                {title}
              </h1>
              <div className="pd-need-days" data-testid="product-need-days">
                <ClockCircleOutlined /> {product.need_days_detail}
              </div>
            </div>
          </div>
          {product.tags.length > 0 ? (
            <div className="pd-tags" data-testid="product-tags">
              {product.tags.map((tag) => (
                <PlainTag key={tag} tone="red">
                  {tag}
                </PlainTag>
              ))}
            </div>
          ) : null}
          <div className="pd-stats">
            <div className="pd-stat">
              <div className="pd-stat-value" data-testid="product-pass-rate">
                {formatPassRate(product.pass_rate)}
              </div>
              <div className="pd-stat-label">出签率</div>
            </div>
            <div className="pd-stat">
              <div className="pd-stat-value" data-testid="product-rating">
                <strong>{rating}</strong> /5
              </div>
              <div className="pd-stat-label">
                <StarBar score={Number(rating)} size={12} /> 用户评分
              </div>
            </div>
            <div className="pd-stat">
              <div className="pd-stat-value">{product.reviews}</div>
              <div className="pd-stat-label">条评价</div>
            </div>
          </div>
        </div>

        <aside className="pd-buy">
          <div className="pd-price-row">
            <span className="pd-price-label">价格</span>
            {discount ? (
              <PlainTag tone="solid" className="pd-discount-tag" data-testid="product-discount">
                {discount.desc}
              </PlainTag>
            ) : null}
            <span className="pd-price" data-testid="product-price">
              {formatPrice(discount ? discount.price : product.sell_price)}
            </span>
            <span className="pd-price-per">/人</span>
            <PriceDetail info={product.basic_info[0]} />
          </div>
          {product.reject_refund_set.status === 1 ? (
            <div className="pd-refund-badge" data-testid="product-refund-badge">
              <SafetyCertificateFilled />
              <span>拒签退全款</span>
            </div>
          ) : null}
          {isDelisted(product) ? (
            <p className="pd-delisted-hint">
              此签证暂停办理，您可以<Link to={`/visa/country/${product.visa_country_id}`}>查看{product.country}的其他签证</Link>。
            </p>
          ) : null}
          <ApplyAction product={product} block />
        </aside>
      </div>

      {product.common_info.length > 0 ? (
        <ul className="pd-features" data-testid="product-features">
          {product.common_info.map((item, index) => (
            <li key={index} className="pd-feature">
              <div className="pd-feature-value">
                <FeatureValue item={item} />
              </div>
              <div className="pd-feature-title">{item.title}</div>
            </li>
          ))}
        </ul>
      ) : null}

      {/* The steps scroll sideways on a phone: focusable, so a keyboard can scroll them too. */}
      {product.procedure.length > 0 ? (
        <ol className="pd-procedure" data-testid="product-procedure" aria-label="办理步骤" tabIndex={0}>
          {product.procedure.map((step, index) => (
            <li key={index} className="pd-procedure-step" data-icon={step.icon}>
              <span className="pd-procedure-icon">{PROCEDURE_ICONS[step.icon] ?? <CheckCircleOutlined />}</span>
              <span className="pd-procedure-title">{step.title}</span>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
