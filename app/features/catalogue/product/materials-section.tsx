// The materials section of spec 2.2: one tab per applicant identity, the
// materials grouped as 电子资料 / 邮寄资料 / 赴馆资料, required ones marked *,
// samples in the image viewer, the photo item, and the e-mail popup for the
// identity currently selected.
import { CameraOutlined, FileImageOutlined, MailOutlined } from '@ant-design/icons';
import { lazy, Suspense, useState, type MouseEvent } from 'react';
import type { VisaProductDetail } from '../../../../common/contracts/catalogue';
import { productTitle } from '../../../../common/catalogue';
import { IDENTITIES, PHOTO_COLORS } from '../../../../common/constants';
import { openImageViewer } from '../../../components/image-viewer';
import { PlainButton } from '../../../components/plain/plain-button';
import { PlainTabs } from '../../../components/plain/plain-tabs';
import { SECTION_IDS, groupMaterials, type MaterialItem } from './product-model';

export const PHOTO_GUIDANCE = '光线均匀、不戴眼镜、露出双耳、纯色墙面背景且与衣服颜色不同';
export const PHOTO_NOTE = '手机拍摄的照片会自动检测并处理';

const PHOTO_SWATCHES: Record<number, string> = { 0: '#3a7bd5', 1: '#ffffff', 2: '#e53935', 3: '#9e9e9e' };

const IDENTITY_TABS = Object.entries(IDENTITIES).map(([id, label]) => ({ key: id, label }));

// The e-mail dialog (antd Modal and Input) is loaded the first time it opens.
const EmailDialog = lazy(() => import('./email-dialog').then((module) => ({ default: module.EmailDialog })));

function MaterialRow({ item }: { item: MaterialItem }) {
  const { material, name, required } = item;
  const showSample = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!material.sample) return;
    event.preventDefault();
    void openImageViewer([{ src: material.sample, title: `${name} 样例` }]);
  };
  return (
    <li className="pd-material" data-testid="product-material">
      <div className="pd-material-head">
        <span className="pd-material-name">
          {required ? (
            <span className="pd-required" aria-label="必备">
              *
            </span>
          ) : null}
          {name}
        </span>
        {material.sample ? (
          <a className="pd-sample-link" href={material.sample} target="_blank" rel="noreferrer" onClick={showSample}>
            <FileImageOutlined /> 查看样例
          </a>
        ) : null}
      </div>
      {material.attention?.trim() ? <div className="pd-material-attention">{material.attention.trim()}</div> : null}
    </li>
  );
}

function PhotoItem({ photo }: { photo: VisaProductDetail['photo_param'] }) {
  const colorLabel = photo ? ((PHOTO_COLORS as Record<number, string>)[photo.color] ?? '不限') : null;
  return (
    <div className="pd-photo" data-testid="product-photo">
      <div className="pd-photo-icon">
        <CameraOutlined />
      </div>
      <div className="pd-photo-body">
        <div className="pd-material-name">
          <span className="pd-required" aria-label="必备">
            *
          </span>
          签证照片
        </div>
        {photo ? (
          <div className="pd-photo-spec">
            <span>
              背景颜色：
              <i className="pd-photo-swatch" style={{ background: PHOTO_SWATCHES[photo.color] ?? '#fff' }} aria-hidden="true" />
              {colorLabel}
            </span>
            <span>
              尺寸：{photo.width} × {photo.height} mm
            </span>
          </div>
        ) : null}
        <div className="pd-material-attention">拍摄要求：{PHOTO_GUIDANCE}</div>
        <div className="pd-photo-note">{PHOTO_NOTE}</div>
      </div>
    </div>
  );
}

function IdentityMaterials({ product, identityId }: { product: VisaProductDetail; identityId: number }) {
  const groups = groupMaterials(product.identity_material.find((m) => m.identity_id === identityId));
  const hasPhoto = product.visa_photo_id !== 0;
  if (groups.length === 0 && !hasPhoto) return <div className="pd-empty">该身份暂无需要准备的资料。</div>;
  return (
    <div className="pd-identity" data-identity={identityId}>
      {hasPhoto ? <PhotoItem photo={product.photo_param} /> : null}
      {groups.map((group) => (
        <div key={group.attr} className="pd-material-group" data-attr={group.attr}>
          <h3 className="pd-material-group-title">
            {group.label}
            <span className="pd-material-count">{group.items.length}项</span>
          </h3>
          <ul className="pd-materials">
            {group.items.map((item) => (
              <MaterialRow key={item.material.material_id} item={item} />
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

export function MaterialsSection({ product }: { product: VisaProductDetail }) {
  const [identityId, setIdentityId] = useState(0);
  const [emailOpen, setEmailOpen] = useState(false);
  const [emailOpened, setEmailOpened] = useState(false);
  const identityLabel = (IDENTITIES as Record<number, string>)[identityId] ?? '';

  return (
    <section id={SECTION_IDS.materials} className="pd-card pd-section" data-testid="product-materials">
      <div className="pd-section-head">
        <h2 className="pd-section-title">办签资料</h2>
        <PlainButton
          variant="link"
          icon={<MailOutlined />}
          className="pd-email-link"
          onClick={() => {
            setEmailOpened(true);
            setEmailOpen(true);
          }}
        >
          发送此资料清单到邮箱
        </PlainButton>
      </div>
      <p className="pd-section-hint">
        请根据申请人的身份准备资料，标 <span className="pd-required">*</span> 的为必备资料。
      </p>
      <PlainTabs
        label="申请人身份"
        activeKey={String(identityId)}
        onChange={(key) => setIdentityId(Number(key))}
        className="pd-identity-tabs"
        items={IDENTITY_TABS}
      >
        <IdentityMaterials product={product} identityId={identityId} />
      </PlainTabs>
      {emailOpened ? (
        <Suspense fallback={null}>
          <EmailDialog
            open={emailOpen}
            onClose={() => setEmailOpen(false)}
            visaProductId={product.visa_product_id}
            identityId={identityId}
            identityLabel={identityLabel}
            productTitle={productTitle(product)}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
