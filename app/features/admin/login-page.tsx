// /admin/login: account, password and the 6-digit code of the authenticator
// app. An operator without a second factor (new after a supervisor's reset)
// leaves the code empty: the answer shows a new secret as a QR code and text,
// and a code from it confirms the enrolment and logs in.
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { LOGIN_FIELD_MAX_LENGTH, TOTP_CODE_PATTERN } from '../../../common/contracts/rules';
import { ApiError } from '../../lib/api-client';
import { operatorLogin, safeNext } from './admin-api';
import './admin.css';

interface LoginValues {
  account: string;
  password: string;
  code?: string;
}

interface Enrolment {
  account: string;
  password: string;
  secret: string;
  qr_image: string;
}

function errorText(error: unknown): string {
  return error instanceof ApiError ? error.message : '登录失败，请稍后再试';
}

export function AdminLoginPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);

  async function submit(values: LoginValues) {
    setBusy(true);
    setError(null);
    try {
      const result = await operatorLogin(values.account.trim(), values.password, values.code || undefined);
      if (result.next === 'done') {
        window.location.assign(next);
        return;
      }
      setEnrolment({ account: values.account.trim(), password: values.password, secret: result.secret, qr_image: result.qr_image });
    } catch (caught) {
      setError(errorText(caught));
    }
    setBusy(false);
  }

  async function confirm(values: { code: string }) {
    if (!enrolment) return;
    setBusy(true);
    setError(null);
    try {
      const result = await operatorLogin(enrolment.account, enrolment.password, values.code);
      if (result.next === 'done') {
        window.location.assign(next);
        return;
      }
      setError('绑定未完成，请重新输入验证码');
    } catch (caught) {
      setError(caught instanceof ApiError && caught.ret === 2001 ? '验证码错误，请输入验证器当前显示的 6 位验证码' : errorText(caught));
    }
    setBusy(false);
  }

  return (
    <div className="admin-login">
      <main className="admin-login-card">
        <h1 className="admin-login-title">易签通后台</h1>
        <p className="admin-login-sub">{enrolment ? '绑定动态验证码' : '工作人员登录'}</p>
        {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="admin-login-error" /> : null}
        {enrolment ? (
          <>
            <div className="admin-qr">
              <img src={enrolment.qr_image} width={180} height={180} alt="动态验证码绑定二维码" data-testid="enrol-qr" />
              <div>用身份验证器 App 扫描二维码，或手动输入密钥：</div>
              <div className="admin-secret" data-testid="enrol-secret">
                {enrolment.secret}
              </div>
            </div>
            <Form layout="vertical" onFinish={confirm} requiredMark={false}>
              <Form.Item
                label="验证码"
                name="code"
                rules={[
                  { required: true, message: '请输入 6 位验证码' },
                  { pattern: TOTP_CODE_PATTERN, message: '请输入 6 位数字' },
                ]}
              >
                <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder="验证器显示的 6 位数字" />
              </Form.Item>
              <Form.Item>
                <Button type="primary" htmlType="submit" block loading={busy}>
                  确认绑定并登录
                </Button>
              </Form.Item>
            </Form>
          </>
        ) : (
          <Form<LoginValues> layout="vertical" onFinish={submit} requiredMark={false}>
            <Form.Item label="账号" name="account" rules={[{ required: true, whitespace: true, message: '请输入账号' }]}>
              <Input autoComplete="username" maxLength={LOGIN_FIELD_MAX_LENGTH} />
            </Form.Item>
            <Form.Item label="密码" name="password" rules={[{ required: true, message: '请输入密码' }]}>
              <Input.Password autoComplete="current-password" maxLength={64} />
            </Form.Item>
            <Form.Item
              label="动态验证码"
              name="code"
              rules={[{ pattern: TOTP_CODE_PATTERN, message: '请输入 6 位数字' }]}
              extra="身份验证器 App 显示的 6 位数字。首次登录或验证码被主管重置后请留空，登录后绑定。"
            >
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
            </Form.Item>
            <Form.Item>
              <Button type="primary" htmlType="submit" block loading={busy}>
                登录
              </Button>
            </Form.Item>
          </Form>
        )}
      </main>
    </div>
  );
}
