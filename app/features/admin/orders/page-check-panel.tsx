// The workbench's page check panel (issue 10): per applicant, the pages the
// operator uploads (PDF or images, checked by the server like customer
// uploads), publishing them (republishing after the customer's corrections,
// which are shown by page), and once every applicant confirmed, 递交使馆 with
// the embassy submission date. It reads the workbench route's loader data
// (`pageCheck`), so the workbench mounts it with one line; every change
// carries the order version shown and reloads (a 2032 too).
import { DeleteOutlined, FilePdfOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Popconfirm, Tag, Upload } from 'antd';
import { useState } from 'react';
import { useRevalidator, useRouteLoaderData } from 'react-router';
import type { AdminPageCheckView } from '../../../../common/contracts/page-check';
import { formatDateTime } from '../../../../common/format';
import { chinaDate } from '../../../../common/order';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { adminApi, adminUpload } from '../admin-api';
import './orders.css';

const STATUS_COLORS = { none: 'default', draft: 'default', published: 'processing', correction: 'warning', confirmed: 'success' } as const;
const SHOWN_STEPS = ['page_check', 'interview', 'submitted', 'returning'];

export function PageCheckPanel() {
  const data = useRouteLoaderData('routes/admin/order-workbench') as { pageCheck?: AdminPageCheckView | null } | undefined;
  const view = data?.pageCheck;
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);
  const [date, setDate] = useState(() => chinaDate(Date.now()));
  if (!view || !SHOWN_STEPS.includes(view.step ?? '')) return null;
  const id = view.user_order_id;

  async function act(key: string, call: () => Promise<unknown>, done: string) {
    setBusy(key);
    try {
      await call();
      toast.success(done);
    } catch (error) {
      if (!(error instanceof ApiError && error.httpStatus === 401)) toast.error(error instanceof ApiError ? error.message : '操作失败，请重试');
    } finally {
      setBusy(null);
      void revalidator.revalidate();
    }
  }

  const upload = (applicantId: number, file: File) => {
    const form = new FormData();
    form.append('user_order_id', String(id));
    form.append('applicant_id', String(applicantId));
    form.append('file', file);
    return act(`upload:${applicantId}`, () => adminUpload('/admin-api/page_check/upload', form, { toast: false }), `已上传 ${file.name}`);
  };

  return (
    <section className="admin-card aw-card" data-testid="page-check-panel" aria-label="核对页与递交">
      <h2>核对页与递交</h2>
      {view.submitted_date ? (
        <Alert type="success" showIcon title={`已于 ${view.submitted_date} 递交使馆`} data-testid="page-check-submitted" />
      ) : view.all_confirmed ? (
        <Alert type="success" showIcon title={view.step === 'interview' ? '核对页已全部确认（面试/录指纹后可递交）' : '核对页已全部确认，可以递交使馆'} />
      ) : !view.can_edit && view.step === 'page_check' ? (
        <Alert type="warning" showIcon title="请先领取该订单再上传核对页（只有办理人员或主管可以操作）" />
      ) : null}
      {view.applicants.map((applicant) => {
        const editable = view.can_edit && (applicant.status === 'none' || applicant.status === 'draft' || applicant.status === 'correction');
        const openComments = applicant.comments.filter((c) => c.round === applicant.round);
        return (
          <div key={applicant.applicant_id} className="aw-applicant pcp-applicant" data-testid="page-check-panel-applicant" data-status={applicant.status}>
            <h3 className="aw-applicant-name">
              {applicant.name} <Tag color={STATUS_COLORS[applicant.status]}>{applicant.status_label}</Tag>
              {applicant.round > 0 ? <span className="aw-muted">第 {applicant.round} 次发布</span> : null}
            </h3>
            {applicant.status === 'correction' && openComments.length > 0 ? (
              <ul className="pcp-comments" data-testid="page-check-panel-comments">
                {openComments.map((c) => (
                  <li key={c.comment_id}>
                    <strong>{c.page_label}</strong>：{c.comment} <span className="aw-muted">{formatDateTime(c.created_at)}</span>
                  </li>
                ))}
              </ul>
            ) : null}
            {applicant.pages.length === 0 ? (
              <p className="aw-muted">尚未上传核对页</p>
            ) : (
              <ol className="pcp-pages">
                {applicant.pages.map((page, index) => (
                  <li key={page.page_id} data-testid="page-check-panel-page">
                    <span className="pcp-page-no">第 {index + 1} 页</span>
                    <a href={page.url} target="_blank" rel="noreferrer" className="pcp-page-name" title={page.file_name}>
                      {page.content_type === 'application/pdf' ? <FilePdfOutlined /> : null} {page.file_name}
                    </a>
                    {editable ? (
                      <Popconfirm
                        title="删除这一页？"
                        okText="删除"
                        cancelText="取消"
                        onConfirm={() =>
                          act(
                            `delete:${page.page_id}`,
                            () => adminApi('/admin-api/page_check/page_delete', { user_order_id: id, page_id: page.page_id }, { toast: false }),
                            '已删除',
                          )
                        }
                      >
                        <Button
                          size="small"
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={`删除 ${page.file_name}`}
                          loading={busy === `delete:${page.page_id}`}
                        />
                      </Popconfirm>
                    ) : null}
                  </li>
                ))}
              </ol>
            )}
            {editable ? (
              <div className="pcp-actions">
                <Upload
                  accept="application/pdf,image/jpeg,image/png"
                  showUploadList={false}
                  multiple
                  customRequest={({ file }) => void upload(applicant.applicant_id, file as File)}
                >
                  <Button icon={<UploadOutlined />} loading={busy === `upload:${applicant.applicant_id}`} data-testid="page-check-upload">
                    上传核对页
                  </Button>
                </Upload>
                <Button
                  type="primary"
                  disabled={applicant.pages.length === 0 || busy !== null}
                  loading={busy === `publish:${applicant.applicant_id}`}
                  onClick={() =>
                    act(
                      `publish:${applicant.applicant_id}`,
                      () =>
                        adminApi(
                          '/admin-api/page_check/publish',
                          { user_order_id: id, applicant_id: applicant.applicant_id, version: view.version },
                          { toast: false },
                        ),
                      '已发布，已通知客户核对',
                    )
                  }
                  data-testid="page-check-publish"
                >
                  {applicant.status === 'correction' ? '重新发布' : '发布'}
                </Button>
              </div>
            ) : null}
          </div>
        );
      })}
      {view.can_submit && !view.submitted_date ? (
        <div className="pcp-submit" data-testid="page-check-submit-form">
          <label htmlFor="pcp-submit-date">递交使馆日期</label>
          <Input
            id="pcp-submit-date"
            type="date"
            value={date}
            min={view.paid_date ?? undefined}
            max={chinaDate(Date.now())}
            onChange={(event) => setDate(event.target.value)}
            style={{ width: 180 }}
          />
          <Popconfirm
            title={`确认已于 ${date} 递交使馆？`}
            okText="确认递交"
            cancelText="取消"
            onConfirm={() =>
              act(
                'submit',
                () => adminApi('/admin-api/order/submit', { user_order_id: id, version: view.version, submitted_date: date }, { toast: false }),
                '已递交使馆',
              )
            }
          >
            <Button type="primary" disabled={!date} loading={busy === 'submit'} data-testid="page-check-submit">
              递交使馆
            </Button>
          </Popconfirm>
        </div>
      ) : null}
    </section>
  );
}
