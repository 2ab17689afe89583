// The e-mail popup of spec 2.2: sends one identity's material list (the
// dialog's rules are the shared EmailSendDialog's, spec §4 / §5).
import { EmailSendDialog } from '../../../components/email-send-dialog';
import { api } from '../../../lib/api-client';

interface EmailDialogProps {
  open: boolean;
  onClose: () => void;
  visaProductId: number;
  identityId: number;
  identityLabel: string;
  productTitle: string;
}

export function EmailDialog({ open, onClose, visaProductId, identityId, identityLabel, productTitle }: EmailDialogProps) {
  return (
    <EmailSendDialog
      open={open}
      onClose={onClose}
      title="发送资料清单到邮箱"
      subtitle={`${productTitle} · ${identityLabel}`}
      intro={
        <>
          我们会把<strong>{identityLabel}</strong>需要准备的签证资料清单发送到您的邮箱，方便打印和对照准备。
        </>
      }
      send={(email) => api('/www/visa_product_material_send', { visa_product_id: visaProductId, email, identity_id: identityId })}
      testIds={{ body: 'product-email-popup' }}
    />
  );
}
