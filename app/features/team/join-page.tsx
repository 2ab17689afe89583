// /team/join#<token> (issue 29): a colleague invited by their administrator
// (or whose password was reset) sets their own password. The token is in the
// fragment, so it never reaches the server's logs or another site's Referer;
// the page takes it out of the address bar at once and asks the server what
// the link is for. Nothing is loaded on the server: there is no session here.
import { LockOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Result, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import type { InvitationInfo } from '../../../common/contracts/team';
import { sha256Hex } from '../../../common/signing';
import { ApiError, api } from '../../lib/api-client';
import { openLoginDialog } from '../../lib/session';
import './team.css';

/** The password rule the page holds a colleague to (the server only ever sees its SHA-256 digest). */
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 50;
const LETTER_AND_DIGIT = /^(?=.*[A-Za-z])(?=.*\d).+$/;

type State = { kind: 'loading' } | { kind: 'failed'; msg: string } | { kind: 'ready'; token: string; info: InvitationInfo } | { kind: 'done'; account: string };

interface Values {
  password: string;
  confirm: string;
}

export function JoinPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const token = window.location.hash.replace(/^#/, '');
    // Out of the address bar (and the history) before anything else.
    if (token) window.history.replaceState(null, '', window.location.pathname);
    if (!token) {
      setState({ kind: 'failed', msg: '链接不完整，请从邀请邮件或管理员发给您的链接打开' });
      return;
    }
    api('/www/team/invitation_get', { token }, { toast: false }).then(
      (info) => setState({ kind: 'ready', token, info }),
      (error: unknown) => setState({ kind: 'failed', msg: error instanceof ApiError ? error.message : '请求错误，请稍后重试' }),
    );
  }, []);

  async function submit(values: Values) {
    if (state.kind !== 'ready') return;
    setBusy(true);
    try {
      const answer = await api('/www/team/invitation_accept', { token: state.token, password: sha256Hex(values.password) });
      setState({ kind: 'done', account: answer.account });
    } catch (error) {
      // A link used or expired meanwhile: say so instead of the form.
      if (error instanceof ApiError && error.ret !== 0 && error.httpStatus === 200) setState({ kind: 'failed', msg: error.message });
    }
    setBusy(false);
  }

  return (
    <div className="team-join" data-testid="team-join">
      {state.kind === 'loading' ? (
        <Card>
          <Skeleton active />
        </Card>
      ) : state.kind === 'failed' ? (
        <Result status="warning" title="无法使用此链接" subTitle={state.msg} data-testid="team-join-failed" />
      ) : state.kind === 'done' ? (
        <Result
          status="success"
          title="密码已设置"
          subTitle={`请使用账号 ${state.account} 和新密码登录`}
          extra={
            <Button type="primary" onClick={openLoginDialog} data-testid="team-join-login">
              登录
            </Button>
          }
          data-testid="team-join-done"
        />
      ) : (
        <Card title={state.info.purpose === 'invite' ? `加入${state.info.enterprise_name}` : '设置新密码'}>
          <p>
            {state.info.name}，您好：
            {state.info.purpose === 'invite'
              ? `您受邀以${state.info.role_label}身份加入${state.info.enterprise_name}。设置密码后即可登录。`
              : '管理员已重置您的密码，请设置新密码。'}
          </p>
          <p className="team-muted">登录账号：{state.info.account}</p>
          <Form<Values> layout="vertical" onFinish={submit} requiredMark={false}>
            <Form.Item
              label="密码"
              name="password"
              rules={[
                { required: true, message: '请输入密码' },
                { min: PASSWORD_MIN, max: PASSWORD_MAX, message: `密码为 ${PASSWORD_MIN}–${PASSWORD_MAX} 位` },
                { pattern: LETTER_AND_DIGIT, message: '密码须同时包含字母和数字' },
              ]}
            >
              <Input.Password prefix={<LockOutlined />} maxLength={PASSWORD_MAX} autoComplete="new-password" data-testid="team-join-password" />
            </Form.Item>
            <Form.Item
              label="确认密码"
              name="confirm"
              dependencies={['password']}
              rules={[
                { required: true, message: '请再次输入密码' },
                ({ getFieldValue }) => ({
                  validator: (_rule, value) =>
                    !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一致')),
                }),
              ]}
            >
              <Input.Password prefix={<LockOutlined />} maxLength={PASSWORD_MAX} autoComplete="new-password" data-testid="team-join-confirm" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy} data-testid="team-join-submit">
              设置密码
            </Button>
          </Form>
        </Card>
      )}
    </div>
  );
}
