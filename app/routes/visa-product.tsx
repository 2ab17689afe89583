// Visa product detail (spec 2.2): header, stats, price and the apply action,
// then a sticky tab bar over basic info, materials, process and reviews. The
// loader reads the product and the first review page in process; everything
// is in the server-rendered HTML.
import '../features/catalogue/product/product-page.css';

import { data, Link } from 'react-router';
import { productTitle } from '../../common/catalogue';
import { HydrationBoundary } from '../components/hydration-boundary';
import { BasicInfoSection } from '../features/catalogue/product/basic-info-section';
import { MaterialsSection } from '../features/catalogue/product/materials-section';
import { ProcessSection } from '../features/catalogue/product/process-section';
import { ProductSummary } from '../features/catalogue/product/product-summary';
import { ReviewsSection } from '../features/catalogue/product/reviews-section';
import { SectionTabs } from '../features/catalogue/product/section-tabs';
import { requireNumericParam } from '../lib/route-params';
import type { RouteHandle } from '../lib/route-handle';
import type { Route } from './+types/visa-product';

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = requireNumericParam(params.id);
  const [product, reviews] = await Promise.all([context.catalogue.productDetail(id), context.catalogue.reviews(id, 1)]);
  if (!product) throw data(null, { status: 404 });
  return { product, reviews };
}

/** Painted before its JavaScript loads (app/lib/paint-first.ts). */
export const handle: RouteHandle = { paintFirst: true };

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [{ title: '页面不存在 - 易签通' }];
  const { product } = loaderData;
  const title = productTitle(product);
  const country = product.country;
  return [
    { title: `${title} - 易签通` },
    {
      name: 'description',
      content: `易签通${country}签证在线办理：${title}，${product.need_days_detail}。查看${country}签证材料清单、办理流程、费用、出签率与用户评价，在线提交资料，全程跟踪办理进度。`,
    },
    { name: 'keywords', content: `${country}签证,${country}旅游签证,${country}签证材料,${country}签证办理` },
  ];
};

export default function VisaProduct({ loaderData }: Route.ComponentProps) {
  const { product, reviews } = loaderData;
  return (
    // Keyed by product: moving to another product starts its page afresh.
    <div className="pd-page" key={product.visa_product_id} data-testid="product-page">
      <nav className="pd-breadcrumb" aria-label="当前位置">
        <Link to="/">首页</Link>
        <span aria-hidden="true">/</span>
        <Link to={`/visa/country/${product.visa_country_id}`}>{product.country}签证</Link>
        <span aria-hidden="true">/</span>
        <span className="pd-breadcrumb-current">{product.visa_type}</span>
      </nav>
      <ProductSummary product={product} />
      <SectionTabs reviews={product.reviews} />
      <HydrationBoundary>
        <BasicInfoSection items={product.basic_info} />
      </HydrationBoundary>
      <HydrationBoundary>
        <MaterialsSection product={product} />
      </HydrationBoundary>
      <HydrationBoundary>
        <ProcessSection product={product} />
      </HydrationBoundary>
      <HydrationBoundary>
        <ReviewsSection visaProductId={product.visa_product_id} sumScore={product.sum_score} reviews={product.reviews} firstPage={reviews} />
      </HydrationBoundary>
    </div>
  );
}
