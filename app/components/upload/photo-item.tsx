// The applicant's visa photo: the product's spec (background colour, size in
// mm), how to take it, and one photo (a new one replaces it).
import { CameraOutlined } from '@ant-design/icons';
import type { PhotoSpec } from '../../../common/contracts/material';
import type { PhotoCheckView } from '../../../common/photo-check';
import { PhotoCheckPanel } from '../photo-check/photo-check-panel';
import { hasNoPass, ItemFailed, ReviewMemos, UploadSlot, type UploadSlotProps } from './material-item';

export const PHOTO_ACCEPT = '.jpg,.jpeg,.png,image/jpeg,image/png';
const PHOTO_GUIDANCE = '光线均匀、不戴眼镜、露出双耳、纯色墙面背景且与衣服颜色不同';
const SWATCHES: Record<number, string> = { 0: '#3a7bd5', 1: '#ffffff', 2: '#e53935', 3: '#b0b0b0' };

export function PhotoItem({
  spec,
  check = null,
  userOrderId,
  ...slot
}: {
  spec: PhotoSpec | null;
  /** The automatic check of the current photo (issue 28). */
  check?: PhotoCheckView | null;
  userOrderId?: number;
} & Omit<UploadSlotProps, 'accept' | 'multiple' | 'buttonText' | 'maxFiles'>) {
  const photo = slot.files[0];
  return (
    <li className="up-item up-photo" data-testid="upload-photo">
      <div className="up-photo-icon" aria-hidden="true">
        <CameraOutlined />
      </div>
      <div className="up-item-info">
        <div className="up-item-head">
          <span className="up-item-name">
            <span className="up-required" aria-label="必备">
              *
            </span>
            签证照片
          </span>
          {hasNoPass(slot.files) ? (
            <ItemFailed />
          ) : slot.files.length > 0 ? (
            <span className="up-item-done">已上传</span>
          ) : (
            <span className="up-item-todo">待上传</span>
          )}
        </div>
        {spec ? (
          <div className="up-photo-spec" data-testid="upload-photo-spec">
            <span>
              背景颜色：
              <i className="up-swatch" style={{ background: SWATCHES[spec.color] ?? '#fff' }} aria-hidden="true" />
              {spec.color_name}
            </span>
            <span>
              尺寸：{spec.width} × {spec.height} mm
            </span>
          </div>
        ) : null}
        <div className="up-item-attention">拍摄要求：{PHOTO_GUIDANCE}。手机拍摄的照片会自动检测并处理。</div>
        {check && photo && check.file_id === photo.file_id && userOrderId ? (
          <PhotoCheckPanel check={check} userOrderId={userOrderId} originalUrl={photo.url} editable={slot.editable} />
        ) : null}
        <ReviewMemos files={slot.files} />
      </div>
      <div className="up-item-slot">
        <UploadSlot {...slot} accept={PHOTO_ACCEPT} multiple={false} maxFiles={1} buttonText="上传照片" />
      </div>
    </li>
  );
}
