// 产品编辑: ?product=ID edits a product (its draft if there is one), ?draft=ID
// a new product's draft, neither a new product. Supervisors only.
import '../../features/catalogue/product/product-page.css';

import type { MouseEvent } from 'react';
import type { VisaProductDetail } from '../../../common/contracts/catalogue';
import { ProductEditorPage } from '../../features/admin/catalogue/product-editor-page';
import { BasicInfoSection } from '../../features/catalogue/product/basic-info-section';
import { MaterialsSection } from '../../features/catalogue/product/materials-section';
import { ProcessSection } from '../../features/catalogue/product/process-section';
import { ProductSummary } from '../../features/catalogue/product/product-summary';
import { AdminLoadError } from '../../features/admin/admin-load-error';
import { requireOperatorReads } from '../../features/admin/require-operator';
import { loaded } from '../../lib/loaded';
import type { Route } from './+types/catalogue-edit';

export const meta: Route.MetaFunction = () => [{ title: '产品编辑 - 易签通后台' }, { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const reads = await requireOperatorReads(context, request);
  const params = new URL(request.url).searchParams;
  const product = params.get('product');
  const draft = params.get('draft');
  const editor = loaded(await reads.catalogueEditor({ ...(product ? { visa_product_id: product } : {}), ...(draft ? { draft_id: draft } : {}) }));
  return { editor };
}

export default function AdminCatalogueEdit({ loaderData }: Route.ComponentProps) {
  const { editor } = loaderData;
  // Keyed by what is edited: after publishing, the page starts afresh from the published product.
  return <ProductEditorPage key={`${editor.visa_product_id ?? 'new'}:${editor.draft_id ?? 0}:${editor.version}`} editor={editor} Preview={ProductPreview} />;
}

/** A click on the preview's apply button, e-mail link or other links does nothing: the product may not exist yet. */
function blockActions(event: MouseEvent) {
  if ((event.target as HTMLElement).closest('.pd-apply, .pd-email-link, a:not(.pd-sample-link)')) {
    event.preventDefault();
    event.stopPropagation();
  }
}

/** The live preview: the guest product page's own components with the unpublished content. */
function ProductPreview({ product }: { product: VisaProductDetail }) {
  return (
    <div className="cat-preview" onClickCapture={blockActions} data-testid="product-preview">
      <div className="pd-page">
        <ProductSummary product={product} />
        <BasicInfoSection items={product.basic_info} />
        <MaterialsSection product={product} />
        <ProcessSection product={product} />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminLoadError />;
}
