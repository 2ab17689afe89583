// The login dialog of spec 2.3 with the validation rules of spec §5.
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Checkbox, Form, Input } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { LOGIN_FIELD_MAX_LENGTH } from '../../../common/contracts/rules';
import { LOGIN_DIALOG_WIDTH_PX } from '../../../common/constants';
import { AppDialog } from '../../components/app-dialog';
import { TrimmedInput } from '../../components/trimmed-input';
import { CHECK_FIELDS_MESSAGE, toast } from '../../lib/toast';
import { closeLoginDialog, login, useSession } from '../../lib/session';
import './login-dialog.css';

interface LoginForm {
  account: string;
  password: string;
  agreement: boolean;
}

export const AGREEMENT_MESSAGE = '请阅读并同意《用户协议》';

export function LoginDialog() {
  const { loginDialogOpen } = useSession();
  const [form] = Form.useForm<LoginForm>();
  const [submitting, setSubmitting] = useState(false);
  const pending = useRef<AbortController | null>(null);

  // Closing the dialog cancels the login that may still be in flight.
  const cancelPending = () => {
    pending.current?.abort();
    pending.current = null;
    setSubmitting(false);
  };
  useEffect(() => cancelPending, []);

  const close = () => {
    cancelPending();
    closeLoginDialog();
  };

  const submit = async (values: LoginForm) => {
    cancelPending();
    const controller = new AbortController();
    pending.current = controller;
    setSubmitting(true);
    try {
      await login(values.account, values.password, controller.signal);
    } catch {
      // The API client has already shown the server's message.
    } finally {
      if (pending.current === controller) {
        pending.current = null;
        setSubmitting(false);
      }
    }
  };

  return (
    <AppDialog
      open={loginDialogOpen}
      onClose={close}
      width={LOGIN_DIALOG_WIDTH_PX}
      destroyOnHidden
      bodyScroll={false}
      title={<div className="login-dialog-title">欢迎使用易签通</div>}
      subtitle={<div className="login-dialog-subtitle">企业版 · 管理员和成员均使用自己的账号登录</div>}
      className="login-dialog"
    >
      <Form<LoginForm>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        scrollToFirstError
        onFinish={submit}
        onFinishFailed={() => toast.error(CHECK_FIELDS_MESSAGE)}
        initialValues={{ agreement: false }}
      >
        <Form.Item name="account" label="账号" validateTrigger="onBlur" rules={[{ required: true, message: '请输入账号' }, { max: LOGIN_FIELD_MAX_LENGTH }]}>
          <TrimmedInput
            prefix={<UserOutlined />}
            placeholder="请输入账号（成员为手机号或邮箱）"
            maxLength={LOGIN_FIELD_MAX_LENGTH}
            autoComplete="username"
            onPressEnter={() => form.submit()}
          />
        </Form.Item>
        <Form.Item
          name="password"
          label="密码"
          validateTrigger={['onBlur', 'onChange']}
          rules={[{ required: true, message: '请输入密码' }, { max: LOGIN_FIELD_MAX_LENGTH }]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder="请输入密码"
            maxLength={LOGIN_FIELD_MAX_LENGTH}
            autoComplete="current-password"
            onPressEnter={() => form.submit()}
          />
        </Form.Item>
        <Form.Item
          name="agreement"
          valuePropName="checked"
          rules={[{ validator: (_rule, checked: boolean) => (checked ? Promise.resolve() : Promise.reject(new Error(AGREEMENT_MESSAGE))) }]}
        >
          <Checkbox>
            我已阅读并同意
            <Link to="/agreement/user" target="_blank" rel="noopener">
              《用户协议》
            </Link>
          </Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          登录
        </Button>
      </Form>
    </AppDialog>
  );
}
