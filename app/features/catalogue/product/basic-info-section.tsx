import type { VisaProductDetail } from '../../../../common/contracts/catalogue';
import { SECTION_IDS } from './product-model';

/** Spec 2.2 basic info: a list of title/content pairs. */
export function BasicInfoSection({ items }: { items: VisaProductDetail['basic_info'] }) {
  return (
    <section id={SECTION_IDS.basic} className="pd-card pd-section" data-testid="product-basic-info">
      <div className="pd-section-head">
        <h2 className="pd-section-title">基本信息</h2>
      </div>
      {items.length > 0 ? (
        <dl className="pd-basic-info">
          {items.map((item, index) => (
            <div key={index} className="pd-basic-row">
              <dt>{item.title}</dt>
              <dd>{item.content}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <div className="pd-empty">暂无基本信息</div>
      )}
    </section>
  );
}
