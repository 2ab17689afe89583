// The main action of spec 2.2 / §4 "Apply action": '立即办理', or the disabled
// '该商品已下架' for a delisted product. Guests get the mini-program QR popup;
// the QR code is fetched once per page view and kept.
import { lazy, Suspense, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { VisaProductDetail } from '../../../../common/contracts/catalogue';
import { QRCODE_PAGE, isDelisted, qrcodeScene } from '../../../../common/catalogue';
import { QRCODE_SIZE } from '../../../../common/constants';
import { PlainButton } from '../../../components/plain/plain-button';
import { api } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { openLoginDialog, useSession } from '../../../lib/session';

// The QR dialog (antd Modal) is loaded the first time a guest applies.
const loadQrDialog = () => import('./qr-dialog');
const QrDialog = lazy(() => loadQrDialog().then((module) => ({ default: module.QrDialog })));

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
  const [qrOpened, setQrOpened] = useState(false);
  const [fetching, setFetching] = useState(false);
  // One request per page view, even if the button is clicked twice while it runs.
  const pending = useRef<Promise<string> | null>(null);

  if (isDelisted(product)) {
    return (
      <PlainButton size="large" disabled block={block} className="pd-apply" data-testid="product-delisted">
        {DELISTED_TEXT}
      </PlainButton>
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
    setQrOpened(true);
    if (qrcode) {
      setQrOpen(true);
      return;
    }
    setFetching(true);
    try {
      // The dialog's code loads while the code image is fetched.
      const [image] = await Promise.all([fetchQrcode(), loadQrDialog()]);
      setQrcode(image);
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
      <PlainButton
        variant="primary"
        size="large"
        block={block}
        className="pd-apply"
        loading={fetching}
        onClick={() => void apply()}
        data-testid="product-apply"
      >
        立即办理
      </PlainButton>
      {qrOpened ? (
        <Suspense fallback={null}>
          <QrDialog open={qrOpen} qrcode={qrcode} onClose={() => setQrOpen(false)} onLoginEnterprise={loginEnterprise} />
        </Suspense>
      ) : null}
    </>
  );
}
