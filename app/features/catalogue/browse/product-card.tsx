import './browse.css';

import ClockCircleOutlined from '@ant-design/icons-svg/es/asn/ClockCircleOutlined';
import EnvironmentOutlined from '@ant-design/icons-svg/es/asn/EnvironmentOutlined';
import SafetyCertificateOutlined from '@ant-design/icons-svg/es/asn/SafetyCertificateOutlined';
import StarFilled from '@ant-design/icons-svg/es/asn/StarFilled';
import { Link } from 'react-router';
import { formatAverageRating, formatPassRate, formatPrice } from '../../../../common/format';
import { NavButton } from '../../../components/nav-button';
import { IconSprite, SpriteIcon } from '../../../components/plain/icon-sprite';
import { PlainTag } from '../../../components/plain/plain-tag';
import type { VisaProductListItem } from '../../../../common/contracts/catalogue';

const TAG_COLORS = ['red', 'blue', 'green', 'orange', 'purple', 'cyan'] as const;

/** The icons every card uses, drawn once on the page that lists the cards. */
export function ProductCardIcons() {
  return <IconSprite icons={[ClockCircleOutlined, SafetyCertificateOutlined, StarFilled, EnvironmentOutlined]} />;
}

/** One product of the country page's list (with ProductCardIcons on the page); the title and the button lead to its detail page. */
export function ProductCard({ product }: { product: VisaProductListItem }) {
  const to = `/visa/product/${product.visa_product_id}`;
  const discount = product.distributor_discount;
  return (
    <article className="browse-product" data-testid="product-card" data-product-id={product.visa_product_id}>
      <div className="browse-product-main">
        <h3 className="browse-product-title">
          <Link to={to}>{product.title}</Link>
        </h3>
        <div className="browse-product-tags">
          <PlainTag className="browse-product-type browse-tag--processing">{product.visa_type}</PlainTag>
          {product.entry_label ? <PlainTag>{product.entry_label}</PlainTag> : null}
          {product.tags.map((tag) => (
            <PlainTag key={tag.tag_id} className={`browse-tag--${TAG_COLORS[tag.tag_id % TAG_COLORS.length]}`}>
              {tag.name}
            </PlainTag>
          ))}
          {product.delisted ? <PlainTag>已下架</PlainTag> : null}
        </div>
        <ul className="browse-product-facts">
          <li className="browse-product-days">
            <SpriteIcon icon={ClockCircleOutlined} />
            <span className="browse-product-fact-label">办理时长</span>
            <strong>{product.need_days_detail}</strong>
          </li>
          <li>
            <SpriteIcon icon={SafetyCertificateOutlined} /> 出签率 <strong className="browse-product-rate">{formatPassRate(product.pass_rate)}</strong>
          </li>
          <li>
            <SpriteIcon icon={StarFilled} className="browse-product-star" /> <strong>{formatAverageRating(product.sum_score, product.reviews)}</strong>
            <span className="browse-product-reviews">{product.reviews}条评价</span>
          </li>
          <li data-testid="product-district">
            <SpriteIcon icon={EnvironmentOutlined} /> {product.consular_district ? product.consular_district.name : '全国受理'}
          </li>
        </ul>
      </div>
      <div className="browse-product-side">
        <div className="browse-product-price-box">
          {discount ? <span className="browse-product-discount">{discount.desc}</span> : null}
          <span className="browse-product-price" data-testid="product-price">
            {formatPrice(discount ? discount.price : product.sell_price)}
          </span>
          {discount && discount.price < product.sell_price ? <span className="browse-product-was">{formatPrice(product.sell_price)}</span> : null}
        </div>
        <NavButton to={to} type="primary" className="browse-product-cta" aria-label={`查看详情：${product.title}`}>
          查看详情
        </NavButton>
      </div>
    </article>
  );
}
