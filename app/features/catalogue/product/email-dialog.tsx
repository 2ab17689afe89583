// The e-mail popup of spec 2.2 / §4 / §5: sends one identity's material list.
// An invalid address warns '请输入正确的邮箱'; after a successful send the
// dialog shows '发送成功' for 1 s, then closes and clears the input.
import { CheckCircleFilled, MailOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from '../../../../common/contracts/rules';
import { EMAIL_SUCCESS_DISPLAY_MS } from '../../../../common/constants';
import { AppDialog } from '../../../components/app-dialog';
import { TrimmedInput } from '../../../components/trimmed-input';
import { api } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';

export const INVALID_EMAIL_TEXT = '请输入正确的邮箱';
export const EMAIL_SENT_TEXT = '发送成功';

interface EmailDialogProps {
  open: boolean;
  onClose: () => void;
  visaProductId: number;
  identityId: number;
  identityLabel: string;
  productTitle: string;
}

export function EmailDialog({ open, onClose, visaProductId, identityId, identityLabel, productTitle }: EmailDialogProps) {
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const finish = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    setSent(false);
    setEmail('');
    onClose();
  };

  const close = () => {
    if (sent) {
      finish();
      return;
    }
    onClose();
  };

  const send = async () => {
    if (sending || sent) return;
    if (!EMAIL_PATTERN.test(email)) {
      toast.warning(INVALID_EMAIL_TEXT);
      return;
    }
    setSending(true);
    try {
      await api('/www/visa_product_material_send', { visa_product_id: visaProductId, email, identity_id: identityId });
    } catch {
      return; // api has shown the error; the address stays for another try.
    } finally {
      setSending(false);
    }
    setSent(true);
    timer.current = setTimeout(finish, EMAIL_SUCCESS_DISPLAY_MS);
  };

  return (
    <AppDialog
      open={open}
      onClose={close}
      title="发送资料清单到邮箱"
      subtitle={`${productTitle} · ${identityLabel}`}
      width={480}
      className="pd-email-dialog"
      footer={
        sent ? null : (
          <div className="pd-email-footer">
            <Button onClick={close}>取消</Button>
            <Button type="primary" loading={sending} disabled={sent} onClick={() => void send()}>
              立即发送
            </Button>
          </div>
        )
      }
    >
      <div className="pd-email" data-testid="product-email-popup">
        {sent ? (
          <div className="pd-email-sent" role="status">
            <CheckCircleFilled />
            <span>{EMAIL_SENT_TEXT}</span>
          </div>
        ) : (
          <>
            <p className="pd-email-intro">
              我们会把<strong>{identityLabel}</strong>需要准备的签证资料清单发送到您的邮箱，方便打印和对照准备。
            </p>
            <TrimmedInput
              size="large"
              prefix={<MailOutlined />}
              placeholder="请输入邮箱地址"
              aria-label="邮箱"
              autoComplete="email"
              inputMode="email"
              maxLength={EMAIL_MAX_LENGTH}
              value={email}
              onChange={setEmail}
              onPressEnter={() => void send()}
            />
          </>
        )}
      </div>
    </AppDialog>
  );
}
