// The product being ordered, at the top of the create-order page: flag,
// title, processing time, price per applicant.
import { ClockCircleOutlined, SafetyCertificateFilled } from '@ant-design/icons';
import { Tag } from 'antd';
import { Link } from 'react-router';
import { formatPrice } from '../../../../common/format';
import type { CreateOrderProduct } from './create-order-model';

export function ProductBrief({ product }: { product: CreateOrderProduct }) {
  return (
    <section className="co-card co-product" data-testid="create-order-product" aria-label="签证产品">
      {product.country_iso_code ? (
        <img
          className="co-flag"
          src={`/static/flags/4x3/${product.country_iso_code.toLowerCase()}.svg`}
          alt={`${product.country}国旗`}
          width={60}
          height={45}
        />
      ) : null}
      <div className="co-product-main">
        <Link to={`/visa/product/${product.visa_product_id}`} className="co-product-title" data-testid="create-order-product-title">
          {product.title}
        </Link>
        <div className="co-product-meta">
          <span data-testid="create-order-need-days">
            <ClockCircleOutlined /> {product.need_days_detail}
          </span>
          {product.need_interview ? <Tag color="blue">需面试/录指纹</Tag> : null}
          {product.reject_refund ? (
            <span className="co-refund">
              <SafetyCertificateFilled /> 拒签退全款
            </span>
          ) : null}
        </div>
      </div>
      <div className="co-product-price">
        {product.discount_desc ? (
          <Tag color="#d13039" variant="solid">
            {product.discount_desc}
          </Tag>
        ) : null}
        <span className="co-price" data-testid="create-order-unit-price">
          {formatPrice(product.unit_price)}
        </span>
        <span className="co-muted">/人</span>
        {product.unit_price !== product.sell_price ? <del className="co-muted">{formatPrice(product.sell_price)}</del> : null}
      </div>
    </section>
  );
}
