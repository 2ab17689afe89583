// The send-to-e-mail dialog of spec §4 / §5, for every "发送到邮箱" there is
// (a product's material list, an order's visa infos): an invalid address
// warns '请输入正确的邮箱' and keeps the dialog; after a successful send it
// shows '发送成功' for 1 s, then closes and clears the input. A failed send
// keeps the address for another try (the API client has shown the error).
import { CheckCircleFilled, MailOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from '../../common/contracts/rules';
import { EMAIL_SUCCESS_DISPLAY_MS } from '../../common/constants';
import { AppDialog } from './app-dialog';
import { TrimmedInput } from './trimmed-input';
import { toast } from '../lib/toast';
import './email-send-dialog.css';

export const INVALID_EMAIL_TEXT = '请输入正确的邮箱';
export const EMAIL_SENT_TEXT = '发送成功';

export interface EmailSendDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  subtitle?: string;
  /** What will be sent, above the address field. */
  intro: ReactNode;
  /** Sends to the (checked) address; rejects when the call failed. */
  send: (email: string) => Promise<unknown>;
  className?: string;
  testIds?: { body?: string; input?: string; send?: string };
}

export function EmailSendDialog({ open, onClose, title, subtitle, intro, send, className, testIds = {} }: EmailSendDialogProps) {
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

  const close = () => (sent ? finish() : onClose());

  const submit = async () => {
    if (sending || sent) return;
    if (!EMAIL_PATTERN.test(email)) {
      toast.warning(INVALID_EMAIL_TEXT);
      return;
    }
    setSending(true);
    try {
      await send(email);
    } catch {
      return;
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
      title={title}
      subtitle={subtitle}
      width={480}
      className={className}
      footer={
        sent ? null : (
          <div className="email-send-footer">
            <Button onClick={close}>取消</Button>
            <Button type="primary" loading={sending} onClick={() => void submit()} data-testid={testIds.send}>
              立即发送
            </Button>
          </div>
        )
      }
    >
      <div data-testid={testIds.body}>
        {sent ? (
          <div className="email-send-sent" role="status">
            <CheckCircleFilled />
            <span>{EMAIL_SENT_TEXT}</span>
          </div>
        ) : (
          <>
            <p className="email-send-intro">{intro}</p>
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
              onPressEnter={() => void submit()}
              data-testid={testIds.input}
            />
          </>
        )}
      </div>
    </AppDialog>
  );
}
