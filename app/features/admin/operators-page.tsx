// 操作员管理 (supervisors): the operators, a new one (its TOTP secret shown
// once, as a QR code and text), disable / enable, and 重置动态验证码 — the
// recovery path for a lost phone: the operator enrols a new secret at the
// next login. The list is the route's loader data, read again after a change.
import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Modal, Radio, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { OPERATOR_ROLE_DESCRIPTIONS } from '../../../common/staff-access';
import { OPERATOR_ROLE_LABELS, type OperatorCreated, type OperatorInfo, type OperatorRole, type OperatorRow } from '../../../common/contracts/operator';
import { OPERATOR_ACCOUNT_PATTERN, OPERATOR_NAME_MAX_LENGTH, OPERATOR_PASSWORD_MIN_LENGTH } from '../../../common/contracts/rules';
import { formatDateTime } from '../../../common/format';
import { sha256Hex } from '../../../common/signing';
import { toast } from '../../lib/toast';
import { adminApi } from './admin-api';

interface CreateValues {
  account: string;
  name: string;
  role: OperatorRole;
  password: string;
  confirm: string;
}

function CreateDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (created: OperatorCreated & { account: string }) => void;
}) {
  const [form] = Form.useForm<CreateValues>();
  const [busy, setBusy] = useState(false);

  async function submit(values: CreateValues) {
    setBusy(true);
    try {
      const created = await adminApi('/admin-api/operator/operator_create', {
        account: values.account.trim(),
        name: values.name.trim(),
        role: values.role,
        password: sha256Hex(values.password),
      });
      form.resetFields();
      onCreated({ ...created, account: values.account.trim() });
    } catch {
      // The client has shown the server's message.
    }
    setBusy(false);
  }

  return (
    <Modal title="新建操作员" open={open} onCancel={onClose} onOk={() => form.submit()} okText="创建" confirmLoading={busy} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ role: 'operator' }} requiredMark={false}>
        <Form.Item
          label="账号"
          name="account"
          rules={[
            { required: true, message: '请输入账号' },
            { pattern: OPERATOR_ACCOUNT_PATTERN, message: '3–50 位字母、数字、下划线、点或连字符' },
          ]}
        >
          <Input autoComplete="off" maxLength={50} />
        </Form.Item>
        <Form.Item label="姓名" name="name" rules={[{ required: true, whitespace: true, message: '请输入姓名' }]}>
          <Input maxLength={OPERATOR_NAME_MAX_LENGTH} />
        </Form.Item>
        <Form.Item
          label="角色"
          name="role"
          extra={(Object.keys(OPERATOR_ROLE_DESCRIPTIONS) as OperatorRole[]).map((role) => (
            <div key={role}>
              {OPERATOR_ROLE_LABELS[role]}：{OPERATOR_ROLE_DESCRIPTIONS[role]}
            </div>
          ))}
        >
          <Radio.Group options={(Object.keys(OPERATOR_ROLE_LABELS) as OperatorRole[]).map((role) => ({ value: role, label: OPERATOR_ROLE_LABELS[role] }))} />
        </Form.Item>
        <Form.Item
          label="初始密码"
          name="password"
          rules={[
            { required: true, message: '请输入初始密码' },
            { min: OPERATOR_PASSWORD_MIN_LENGTH, message: `至少 ${OPERATOR_PASSWORD_MIN_LENGTH} 位` },
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={64} />
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
          <Input.Password autoComplete="new-password" maxLength={64} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function SecretDialog({ created, onClose }: { created: (OperatorCreated & { account: string }) | null; onClose: () => void }) {
  return (
    <Modal title="操作员已创建" open={created !== null} onCancel={onClose} footer={<Button onClick={onClose}>我已保存，关闭</Button>}>
      {created ? (
        <div className="admin-qr" data-testid="created-secret-dialog">
          <p>请让 {created.account} 用身份验证器 App 扫描二维码，或手动输入密钥。密钥只显示这一次。</p>
          <img src={created.qr_image} width={180} height={180} alt="动态验证码二维码" />
          <div className="admin-secret" data-testid="created-secret">
            {created.secret}
          </div>
        </div>
      ) : null}
    </Modal>
  );
}

export function OperatorsPage({ me, list }: { me: OperatorInfo; list: OperatorRow[] }) {
  const { modal } = App.useApp();
  const revalidator = useRevalidator();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<(OperatorCreated & { account: string }) | null>(null);

  function act(title: string, content: string, run: () => Promise<unknown>, done: string) {
    modal.confirm({
      title,
      content,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await run();
          toast.success(done);
          await revalidator.revalidate();
        } catch {
          // The client has shown the server's message.
        }
      },
    });
  }

  return (
    <div>
      <h1 className="admin-page-title">操作员管理</h1>
      <div className="admin-card">
        <Space style={{ marginBottom: 16 }}>
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
            新建操作员
          </Button>
        </Space>
        <Table<OperatorRow>
          rowKey="operator_id"
          dataSource={list}
          pagination={false}
          columns={[
            { title: '账号', dataIndex: 'account' },
            { title: '姓名', dataIndex: 'name' },
            { title: '角色', dataIndex: 'role_label' },
            {
              title: '状态',
              dataIndex: 'status',
              render: (_value, row) => <Tag color={row.status === 'active' ? 'green' : 'default'}>{row.status_label}</Tag>,
            },
            {
              title: '动态验证码',
              dataIndex: 'totp_enrolled',
              render: (enrolled: boolean) => (enrolled ? '已绑定' : <Tag color="orange">待下次登录绑定</Tag>),
            },
            { title: '最近登录', dataIndex: 'last_login_at', render: (at: number | null) => (at ? formatDateTime(at) : '—') },
            {
              title: '操作',
              key: 'actions',
              render: (_value, row) =>
                row.operator_id === me.operator_id ? (
                  <span>（当前账号）</span>
                ) : (
                  <Space size={4}>
                    {row.status === 'active' ? (
                      <Button
                        type="link"
                        size="small"
                        onClick={() =>
                          act(
                            `停用 ${row.name}？`,
                            '停用后该账号立即退出登录，且不能再登录。',
                            () => adminApi('/admin-api/operator/operator_status_set', { operator_id: row.operator_id, status: 'disabled' }),
                            '已停用',
                          )
                        }
                      >
                        停用
                      </Button>
                    ) : (
                      <Button
                        type="link"
                        size="small"
                        onClick={() =>
                          act(
                            `启用 ${row.name}？`,
                            '启用后该账号可以重新登录。',
                            () => adminApi('/admin-api/operator/operator_status_set', { operator_id: row.operator_id, status: 'active' }),
                            '已启用',
                          )
                        }
                      >
                        启用
                      </Button>
                    )}
                    <Button
                      type="link"
                      size="small"
                      onClick={() =>
                        act(
                          `重置 ${row.name} 的动态验证码？`,
                          '用于手机丢失或更换：该账号立即退出登录，下次用密码登录时扫码绑定新的验证器。',
                          () => adminApi('/admin-api/operator/operator_totp_reset', { operator_id: row.operator_id }),
                          '已重置，对方下次登录时绑定新的验证器',
                        )
                      }
                    >
                      重置动态验证码
                    </Button>
                  </Space>
                ),
            },
          ]}
        />
      </div>
      <CreateDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(value) => {
          setCreating(false);
          setCreated(value);
          void revalidator.revalidate();
        }}
      />
      <SecretDialog created={created} onClose={() => setCreated(null)} />
    </div>
  );
}
