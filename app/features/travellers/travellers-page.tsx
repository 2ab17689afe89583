// 常用出行人 (issue 28 part 3): the enterprise's saved travellers, each with
// their documents (passport data page, ID card, 户口本, photo) and what can
// still be used; add / edit with the traveller's consent, upload and delete
// documents, export one traveller (a zip), delete one. The list comes from
// the route's loader; each change revalidates it.
import { DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Modal, Popconfirm, Tag } from 'antd';
import { useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import type { TravellerView } from '../../../common/contracts/traveller';
import { formatDateTime } from '../../../common/format';
import { TRAVELLER_SEXES } from '../../../common/traveller';
import { ApiError, api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { DocumentList } from './document-list';
import { TravellerForm } from './traveller-form';
import './travellers.css';

export function TravellersPage({ travellers }: { travellers: TravellerView[] }) {
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState<TravellerView | 'new' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => void revalidator.revalidate();

  const remove = async (traveller: TravellerView) => {
    try {
      const result = await api('/www/traveller/traveller_delete', { traveller_id: traveller.traveller_id });
      setNotice(
        result.documents_kept_for_orders > 0
          ? `已删除${traveller.name}及其证件。其中 ${result.documents_kept_for_orders} 份证件文件仍被订单使用，将随订单保留，订单结束后按保留期限删除。`
          : `已删除${traveller.name}及其全部证件。`,
      );
      refresh();
    } catch (error) {
      if (!(error instanceof ApiError)) toast.error('删除失败，请重试');
    }
  };

  return (
    <div className="page tv-page" data-testid="travellers-page">
      <div className="tv-head">
        <div>
          <Link to="/user/personal-center" className="tv-back">
            个人中心
          </Link>
          <h1 className="tv-title">常用出行人</h1>
          <p className="tv-muted">保存出行人信息和证件，下次下单时直接选择，证件可在上传资料时直接使用。证件加密保存，仅本企业可见。</p>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="traveller-add">
          新增出行人
        </Button>
      </div>
      {notice ? (
        <Alert type="success" showIcon closable message={notice} onClose={() => setNotice(null)} className="tv-notice" data-testid="traveller-notice" />
      ) : null}
      {travellers.length === 0 ? (
        <Card>
          <Empty description="还没有常用出行人" />
        </Card>
      ) : (
        <div className="tv-list">
          {travellers.map((traveller) => (
            <Card
              key={traveller.traveller_id}
              className="tv-card"
              data-testid="traveller-card"
              data-traveller-id={traveller.traveller_id}
              title={
                <span className="tv-card-title">
                  <UserOutlined /> {traveller.name} <span className="tv-muted">{traveller.pinyin}</span>
                </span>
              }
              extra={
                <span className="tv-actions">
                  <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(traveller)} data-testid="traveller-edit">
                    编辑
                  </Button>
                  <Button size="small" icon={<DownloadOutlined />} href={`/files/traveller-export/${traveller.traveller_id}`} data-testid="traveller-export">
                    导出
                  </Button>
                  <Popconfirm
                    title={`删除${traveller.name}？`}
                    description="出行人信息和保存的证件将被删除；仍被订单使用的证件文件随订单保留，订单结束后按保留期限删除。"
                    okText="删除"
                    cancelText="取消"
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove(traveller)}
                  >
                    <Button size="small" danger icon={<DeleteOutlined />} data-testid="traveller-delete">
                      删除
                    </Button>
                  </Popconfirm>
                </span>
              }
            >
              <dl className="tv-facts">
                <div>
                  <dt>性别</dt>
                  <dd>{TRAVELLER_SEXES[traveller.sex]}</dd>
                </div>
                <div>
                  <dt>出生日期</dt>
                  <dd>{traveller.birth_date}</dd>
                </div>
                <div>
                  <dt>身份</dt>
                  <dd>{traveller.identity_label}</dd>
                </div>
                <div>
                  <dt>手机号</dt>
                  <dd>{traveller.mobile_phone}</dd>
                </div>
                <div>
                  <dt>邮箱</dt>
                  <dd>{traveller.email ?? '—'}</dd>
                </div>
                <div>
                  <dt>护照</dt>
                  <dd>
                    {traveller.passport_no ?? '—'}
                    {traveller.passport_expiry ? <span className="tv-muted">（有效期至 {traveller.passport_expiry}）</span> : null}
                  </dd>
                </div>
              </dl>
              <DocumentList traveller={traveller} onChanged={refresh} />
              <p className="tv-consent tv-muted">
                <Tag color="green">已同意保存</Tag>出行人同意保存其资料：{formatDateTime(traveller.consent_at)}
              </p>
            </Card>
          ))}
        </div>
      )}
      <Modal
        open={editing !== null}
        title={editing === 'new' ? '新增常用出行人' : '编辑常用出行人'}
        footer={null}
        destroyOnHidden
        onCancel={() => setEditing(null)}
        width={640}
      >
        {editing !== null ? (
          <TravellerForm
            traveller={editing === 'new' ? null : editing}
            onSaved={() => {
              setEditing(null);
              toast.success('已保存');
              refresh();
            }}
          />
        ) : null}
      </Modal>
    </div>
  );
}
