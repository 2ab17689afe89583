// 成员管理 (issue 29): the enterprise administrator's colleagues — invite by
// mobile or e-mail, change a role, resend an invitation, reset a password,
// disable and enable. The list is the route's loader data, read again after
// every change. The server keeps the last administrator and refuses what the
// caller may not do; this page only offers what makes sense.
import { PlusOutlined } from '@ant-design/icons';
import { App, Button, type ButtonProps, Card, Form, Input, Modal, Radio, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import type { LinkDelivery, TeamMember } from '../../../common/contracts/team';
import { formatDateTime } from '../../../common/format';
import { TEAM_ROLES, TEAM_ROLE_DESCRIPTIONS, TEAM_ROLE_LABELS, type TeamRole } from '../../../common/team';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import './team.css';

const STATUS_COLORS: Record<TeamMember['status'], string> = { active: 'green', disabled: 'default', invited: 'orange' };

interface InviteValues {
  name: string;
  contact: string;
  role: TeamRole;
}

/** A link that could not be e-mailed (the colleague has only a mobile number: no SMS yet), for the administrator to pass on. */
function LinkDialog({ shown, onClose }: { shown: { name: string; delivery: LinkDelivery; purpose: string } | null; onClose: () => void }) {
  return (
    <Modal
      title={shown ? `把${shown.purpose}链接发给${shown.name}` : ''}
      open={shown !== null}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          知道了
        </Button>
      }
      destroyOnHidden
    >
      {shown ? (
        <div data-testid="team-link-dialog">
          <p>
            短信通知尚未开通，系统没有给{shown.name}发送任何消息。请通过微信、电话或其他方式把下面的链接发给{shown.name}， 对方打开后自行设置密码。链接{' '}
            {formatDateTime(shown.delivery.expires_at)} 前有效，只能使用一次。
          </p>
          <Typography.Paragraph className="team-link" copyable={{ text: shown.delivery.link ?? '', tooltips: ['复制链接', '已复制'] }} data-testid="team-link">
            {shown.delivery.link}
          </Typography.Paragraph>
        </div>
      ) : null}
    </Modal>
  );
}

function InviteDialog({ open, onClose, onInvited }: { open: boolean; onClose: () => void; onInvited: (name: string, delivery: LinkDelivery) => void }) {
  const [form] = Form.useForm<InviteValues>();
  const [busy, setBusy] = useState(false);

  async function submit(values: InviteValues) {
    setBusy(true);
    try {
      const delivery = await api('/www/team/member_invite', { name: values.name.trim(), contact: values.contact.trim(), role: values.role });
      form.resetFields();
      onInvited(values.name.trim(), delivery);
    } catch {
      // The client has shown the server's message.
    }
    setBusy(false);
  }

  return (
    <Modal
      title="邀请成员"
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="发送邀请"
      okButtonProps={{ 'data-testid': 'team-invite-submit' } as ButtonProps}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ role: 'agent' }} requiredMark={false}>
        <Form.Item
          label="姓名"
          name="name"
          rules={[
            { required: true, whitespace: true, message: '请输入成员姓名' },
            { max: 20, message: '姓名不超过 20 个字' },
          ]}
        >
          <Input maxLength={20} placeholder="成员的真实姓名" data-testid="team-invite-name" />
        </Form.Item>
        <Form.Item
          label="手机号或邮箱"
          name="contact"
          extra="作为成员的登录账号。填邮箱时邀请链接通过邮件发送；只填手机号时（短信尚未开通），链接会显示给您转交。"
          rules={[{ required: true, whitespace: true, message: '请输入手机号或邮箱' }]}
        >
          <Input maxLength={50} placeholder="例如 13800138000 或 name@company.com" data-testid="team-invite-contact" />
        </Form.Item>
        <Form.Item label="角色" name="role">
          <Radio.Group>
            {TEAM_ROLES.map((role) => (
              <Radio key={role} value={role} data-testid={`team-invite-role-${role}`}>
                {TEAM_ROLE_LABELS[role]}
                <span className="team-muted">（{TEAM_ROLE_DESCRIPTIONS[role]}）</span>
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
      </Form>
    </Modal>
  );
}

function MemberRow({
  member,
  onChanged,
  onLink,
}: {
  member: TeamMember;
  onChanged: () => void;
  onLink: (name: string, delivery: LinkDelivery, purpose: string) => void;
}) {
  const { modal } = App.useApp();
  const [busy, setBusy] = useState(false);

  async function run(work: () => Promise<void>) {
    setBusy(true);
    try {
      await work();
    } catch {
      // The client has shown the server's message (e.g. the last administrator).
    }
    setBusy(false);
    onChanged();
  }

  const delivered = (delivery: LinkDelivery, purpose: string, sentText: string) => {
    if (delivery.channel === 'email') toast.success(sentText);
    else onLink(member.name, delivery, purpose);
  };

  const changeRole = (role: TeamRole) =>
    run(async () => {
      await api('/www/team/member_role_update', { account_id: member.account_id, role });
      toast.success(`${member.name}的角色已改为${TEAM_ROLE_LABELS[role]}`);
    });

  const disable = () =>
    modal.confirm({
      title: `停用${member.name}？`,
      content: member.is_self
        ? '停用后您会立即退出登录，不能再登录；需由另一位管理员重新启用。'
        : `停用后${member.name}立即退出登录，不能再登录；TA 下的订单仍属于企业，可随时重新启用。`,
      okText: '停用',
      okButtonProps: { danger: true, 'data-testid': 'team-disable-confirm' } as ButtonProps,
      cancelText: '取消',
      onOk: () =>
        run(async () => {
          await api('/www/team/member_disable', { account_id: member.account_id });
          toast.success(`已停用${member.name}`);
        }),
    });

  const reset = () =>
    modal.confirm({
      title: `重置${member.name}的密码？`,
      content: `原密码立即失效，${member.name}会退出登录，并通过新的链接自行设置密码。`,
      okText: '重置密码',
      cancelText: '取消',
      onOk: () =>
        run(async () => {
          const delivery = await api('/www/team/member_password_reset', { account_id: member.account_id });
          delivered(delivery, '重置密码', `重置密码的邮件已发送至 ${member.email ?? member.account}`);
        }),
    });

  const resend = () =>
    run(async () => {
      const delivery = await api('/www/team/invitation_resend', { account_id: member.account_id });
      delivered(delivery, '邀请', `邀请邮件已重新发送至 ${member.email ?? member.account}`);
    });

  const enable = () =>
    run(async () => {
      await api('/www/team/member_enable', { account_id: member.account_id });
      toast.success(`已启用${member.name}`);
    });

  const contact = [member.mobile_phone, member.email].filter(Boolean).join(' · ');
  return (
    <div className="team-member" data-testid="team-member" data-account={member.account}>
      <div>
        <div className="team-member-name">
          {member.name}
          {member.is_self ? <Tag color="blue">我</Tag> : null}
          <Tag color={STATUS_COLORS[member.status]} data-testid="team-member-status">
            {member.status_label}
          </Tag>
        </div>
        <div className="team-member-meta">
          账号 {member.account}
          {contact && contact !== member.account ? ` · ${contact}` : ''}
        </div>
        <div className="team-member-meta">
          {member.status === 'invited'
            ? member.link_expires_at
              ? `邀请链接 ${formatDateTime(member.link_expires_at)} 前有效`
              : '邀请链接已过期，请重新发送'
            : member.last_login_at
              ? `最近登录 ${formatDateTime(member.last_login_at)}`
              : '尚未登录'}
        </div>
      </div>
      <div className="team-member-actions">
        <Select<TeamRole>
          className="team-role-select"
          value={member.role as TeamRole}
          disabled={busy || member.status === 'disabled'}
          onChange={changeRole}
          options={TEAM_ROLES.map((role) => ({ value: role, label: TEAM_ROLE_LABELS[role] }))}
          aria-label={`${member.name}的角色`}
          data-testid="team-member-role"
        />
        {member.status === 'invited' ? (
          <Button onClick={resend} loading={busy}>
            重新发送邀请
          </Button>
        ) : null}
        {member.status === 'active' && !member.is_self ? (
          <Button onClick={reset} disabled={busy}>
            重置密码
          </Button>
        ) : null}
        {member.status === 'disabled' ? (
          <Button onClick={enable} loading={busy} data-testid="team-member-enable">
            启用
          </Button>
        ) : (
          <Button danger onClick={disable} disabled={busy} data-testid="team-member-disable">
            停用
          </Button>
        )}
      </div>
    </div>
  );
}

export function TeamPage({ enterpriseName, members }: { enterpriseName: string; members: TeamMember[] }) {
  const revalidator = useRevalidator();
  const [inviting, setInviting] = useState(false);
  const [link, setLink] = useState<{ name: string; delivery: LinkDelivery; purpose: string } | null>(null);
  const reload = () => void revalidator.revalidate();

  return (
    <div className="team-page" data-testid="team-page">
      <div className="team-head">
        <div>
          <h1 className="team-title">成员管理</h1>
          <div className="team-muted">
            {enterpriseName} · 共 {members.length} 位成员
          </div>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setInviting(true)} data-testid="team-invite">
          邀请成员
        </Button>
      </div>
      <Card size="small" title="角色说明">
        <ul className="team-roles">
          {TEAM_ROLES.map((role) => (
            <li key={role}>
              <strong>{TEAM_ROLE_LABELS[role]}</strong>
              <span className="team-muted">{TEAM_ROLE_DESCRIPTIONS[role]}</span>
            </li>
          ))}
        </ul>
        <p className="team-muted" style={{ margin: '8px 0 0' }}>
          订单、申请人和地址属于企业，成员停用后仍保留；每个操作都记录是哪位成员做的。企业至少保留一位启用的管理员。
        </p>
      </Card>
      <div className="team-list" data-testid="team-list">
        {members.map((member) => (
          <MemberRow key={member.account_id} member={member} onChanged={reload} onLink={(name, delivery, purpose) => setLink({ name, delivery, purpose })} />
        ))}
      </div>
      <InviteDialog
        open={inviting}
        onClose={() => setInviting(false)}
        onInvited={(name, delivery) => {
          setInviting(false);
          reload();
          if (delivery.channel === 'email') toast.success(`邀请邮件已发送给${name}`);
          else setLink({ name, delivery, purpose: '邀请' });
        }}
      />
      <LinkDialog shown={link} onClose={() => setLink(null)} />
    </div>
  );
}
