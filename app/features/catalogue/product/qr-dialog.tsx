// The mini-program QR popup of spec 2.2 / §4 for a guest's '立即办理'. Loaded
// the first time it opens (apply-action.tsx).
import { CheckCircleFilled, DownloadOutlined, WechatOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Link } from 'react-router';
import { QRCODE_SIZE } from '../../../../common/constants';
import { AppDialog } from '../../../components/app-dialog';

export const SELLING_POINTS = ['免费拍摄签证照', '护照免费顺丰寄送', '护照扫描自动填表，证件保存复用', '赠送拒签险，全额赔付'] as const;

interface QrDialogProps {
  open: boolean;
  qrcode: string | null;
  onClose: () => void;
  onLoginEnterprise: () => void;
}

export function QrDialog({ open, qrcode, onClose, onLoginEnterprise }: QrDialogProps) {
  return (
    <AppDialog
      open={open}
      onClose={onClose}
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
            <Button type="primary" size="large" block onClick={onLoginEnterprise}>
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
  );
}
