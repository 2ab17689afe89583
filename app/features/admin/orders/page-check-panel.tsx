// The workbench's page check panel (issue 10): per applicant, the pages the
// operator uploads (PDF or images, checked by the server like customer
// uploads), publishing them (republishing after the customer's corrections,
// which are shown by page), and once every applicant confirmed, 递交使馆 with
// the embassy submission date. Its data is the workbench view's `page_check`
// (a prop); every change carries the order version shown and goes through
// useWorkbenchAction, which reads the workbench again (a 2032 too).
import { DeleteOutlined, FilePdfOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Popconfirm, Tag, Upload } from 'antd';
import { useState } from 'react';
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import type { AdminPageCheckView } from '../../../../common/contracts/page-check';
import { formatDateTime } from '../../../../common/format';
import { chinaDate, eventAllowed, PAGE_CHECK_SHOWN_STEPS, stepIs } from '../../../../common/order';
import { DateField } from '../date-fields';
import { adminApi, adminUpload } from '../admin-api';
import { allows, useWorkbenchAction } from './use-workbench-action';
import './orders.css';

const STATUS_COLORS = { none: 'default', draft: 'default', published: 'processing', correction: 'warning', confirmed: 'success' } as const;

export function PageCheckPanel({ view, bench }: { view: AdminPageCheckView | null; bench: AdminWorkbench }) {
  const { busy, run } = useWorkbenchAction();
  const [date, setDate] = useState(() => chinaDate(Date.now()));
  if (!view || !PAGE_CHECK_SHOWN_STEPS.some((step) => stepIs(view, step))) return null;
  const id = view.user_order_id;

  const act = (key: string, call: () => Promise<unknown>, done: string) => run(key, { call, done });

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
        <Alert type="success" showIcon title={stepIs(view, 'interview') ? '核对页已全部确认（面试/录指纹后可递交）' : '核对页已全部确认，可以递交使馆'} />
      ) : !view.can_edit && stepIs(view, 'page_check') ? (
        <Alert type="warning" showIcon title="请先领取该订单再上传核对页（只有办理人员或主管可以操作）" />
      ) : null}
      {view.applicants.map((applicant) => {
        // The order's rule and this applicant's check (unpublished, or sent back) say it; can_edit adds the claim.
        const editable = view.can_edit && eventAllowed(applicant, 'page_check_publish');
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
            {editable && allows(bench, 'page_check_publish') ? (
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
      {view.can_submit && allows(bench, 'submit') && !view.submitted_date ? (
        <div className="pcp-submit" data-testid="page-check-submit-form">
          <label htmlFor="pcp-submit-date">递交使馆日期</label>
          <DateField
            id="pcp-submit-date"
            value={date}
            min={view.paid_date ?? undefined}
            max={chinaDate(Date.now())}
            onChange={setDate}
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
      {view.submit_blocked_reason && !view.submitted_date ? (
        <p className="pcp-submit-blocked" data-testid="page-check-submit-blocked">
          递交使馆暂不可用：{view.submit_blocked_reason}
        </p>
      ) : null}
    </section>
  );
}
