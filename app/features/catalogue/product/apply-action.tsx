// The main action of spec 2.2 / §4 "Apply action": '立即办理', or the disabled
// '该商品已下架' for a delisted product. Guests get the mini-program QR popup;
// the QR code is fetched once per page view and kept.
import { CheckCircleFilled, DownloadOutlined, WechatOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { VisaProductDetail } from '../../../../common/contracts/catalogue';
import { QRCODE_PAGE, isDelisted, qrcodeScene } from '../../../../common/catalogue';
import { QRCODE_SIZE } from '../../../../common/constants';
import { AppDialog } from '../../../components/app-dialog';
import { api } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { openLoginDialog, useSession } from '../../../lib/session';

export const SELLING_POINTS = ['免费拍摄签证照', '护照免费顺丰寄送', '资料扫描自动填表，永久复用', '赠送拒签险，全额赔付'] as const;

export const OFFLINE_UNSUPPORTED_TEXT = '该商品不支持线下办理';
export const DELISTED_TEXT = '该商品已下架';

export function createOrderPath(product: Pick<VisaProductDetail, 'visa_product_id' | 'visa_country_id'>): string {
  const query = new URLSearchParams({ visa_product_id: String(product.visa_product_id), visa_country_id: String(product.visa_country_id) });
  return `/ordering/create-order?${query}`;
}

type ApplyProduct = Pick<VisaProductDetail, 'visa_product_id' | 'visa_country_id' | 'status' | 'channel' | 'offline'>;

export function ApplyAction({ product, block = false }: { product: ApplyProduct; block?: boolean }) {
  const session = useSession();
  const navigate = useNavigate();
  const [qrcode, setQrcode] = useState<string | null>(null);
  const [qrOpen, setQrOpen] = useState(false);
  const [fetching, setFetching] = useState(false);
  // One request per page view, even if the button is clicked twice while it runs.
  const pending = useRef<Promise<string> | null>(null);

  if (isDelisted(product)) {
    return (
      <Button size="large" disabled block={block} className="pd-apply" data-testid="product-delisted">
        {DELISTED_TEXT}
      </Button>
    );
  }

  const fetchQrcode = (): Promise<string> => {
    pending.current ??= api('/www/qrcode_get', {
      page: QRCODE_PAGE,
      scene: qrcodeScene(product.visa_product_id),
      size: QRCODE_SIZE,
    }).then(
      ({ qrcode: image }) => image,
      (error: unknown) => {
        pending.current = null; // a failed fetch (already toasted) may be retried
        throw error;
      },
    );
    return pending.current;
  };

  const apply = async () => {
    if (!product.offline) {
      toast.warning(OFFLINE_UNSUPPORTED_TEXT);
      return;
    }
    if (session.user) {
      navigate(createOrderPath(product));
      return;
    }
    if (qrcode) {
      setQrOpen(true);
      return;
    }
    setFetching(true);
    try {
      setQrcode(await fetchQrcode());
      setQrOpen(true);
    } catch {
      // api has shown the error.
    } finally {
      setFetching(false);
    }
  };

  const loginEnterprise = () => {
    setQrOpen(false);
    openLoginDialog();
  };

  return (
    <>
      <Button type="primary" size="large" block={block} className="pd-apply" loading={fetching} onClick={() => void apply()} data-testid="product-apply">
        立即办理
      </Button>
      <AppDialog
        open={qrOpen}
        onClose={() => setQrOpen(false)}
        title="微信扫码，立即办理"
        subtitle="使用微信扫一扫，进入易签通小程序在线办理此签证"
        width={640}
        className="pd-qr-dialog"
      >
        <div className="pd-qr" data-testid="product-qr-popup">
          <div className="pd-qr-code">
            {qrcode ? (
              <img src={`data:image/jpeg;base64,${qrcode}`} width={QRCODE_SIZE} height={QRCODE_SIZE} alt="易签通小程序码" data-testid="product-qrcode" />
            ) : null}
            <div className="pd-qr-caption">
              <WechatOutlined /> 微信扫一扫
            </div>
          </div>
          <div className="pd-qr-side">
            <ul className="pd-qr-points">
              {SELLING_POINTS.map((point) => (
                <li key={point}>
                  <CheckCircleFilled />
                  <span>{point}</span>
                </li>
              ))}
            </ul>
            <div className="pd-qr-actions">
              <Button type="primary" size="large" block onClick={loginEnterprise}>
                登录企业版
              </Button>
              <p className="pd-qr-hint">企业与旅行社管理员登录后，可直接在网页下单办理。</p>
              <Link to="/download" className="pd-qr-download">
                <DownloadOutlined /> 下载App
              </Link>
            </div>
          </div>
        </div>
      </AppDialog>
    </>
  );
}
