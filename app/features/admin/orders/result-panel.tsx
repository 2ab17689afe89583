// 签证结果 panel of the workbench (issue 11): once the order is at the embassy
// (processing · submitted) the order's operator records each applicant's
// result — 录入出签 (visa number, validity, entries, stay; the e-visa file,
// required for e-visa products) or 录入拒签 (common reasons and/or text; the
// embassy's letter) — files uploaded first (checked by content and size by
// the server) and attached by the result. Results are read-only once
// recorded. Reads /admin-api/result/detail again whenever the workbench shows
// another version; each result carries the version the panel saw (2182 reloads).
import { FileOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Form, Input, InputNumber, Modal, Radio, Tag, Upload } from 'antd';
import { useState } from 'react';
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import type { AdminResultView, VisaResultFile } from '../../../../common/contracts/visa-result';
import { stepIs } from '../../../../common/order';
import { REJECT_REASONS, VISA_ENTRIES, VISA_RESULT_LIMITS, type VisaResultFileKind } from '../../../../common/visa-result';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { DateField } from '../date-fields';
import { adminApi, adminUpload } from '../admin-api';
import { allows, useWorkbenchAction } from './use-workbench-action';
import './orders.css';

const STATUS_COLORS = { pending: 'processing', issued: 'success', rejected: 'error' } as const;
type Applicant = AdminResultView['applicants'][number];

interface IssueForm {
  visa_no: string;
  valid_from: string;
  valid_to: string;
  entries: string;
  stay_days: number | null;
}

interface RejectForm {
  reasons: string[];
  note: string;
}

export function ResultPanel({ view, bench }: { view: AdminResultView | null; bench: AdminWorkbench }) {
  const [editing, setEditing] = useState<{ applicant: Applicant; kind: 'issue' | 'reject' } | null>(null);

  const shown = view && (stepIs(view, 'submitted') || view.applicants.some((a) => a.status !== 'pending'));
  if (!view || !shown) return null;

  return (
    <section className="admin-card aw-card" data-testid="result-panel" aria-label="签证结果">
      <h2>签证结果</h2>
      {stepIs(view, 'submitted') && !view.can_record ? <Alert type="warning" showIcon title="请先领取该订单再录入结果（只有办理人员或主管可以录入）" /> : null}
      {view.is_evisa ? <p className="aw-muted">电子签产品：录入出签时须上传电子签证（PDF、JPEG 或 PNG）。</p> : null}
      <ul className="aw-result-list">
        {view.applicants.map((a) => (
          <li key={a.applicant_id} data-testid="result-applicant">
            <div className="aw-result-head">
              <strong>{a.applicant_name}</strong>
              <span className="aw-muted">{a.identity_label}</span>
              <Tag color={STATUS_COLORS[a.status]} data-testid="result-status">
                {a.status_label}
              </Tag>
              {a.status === 'pending' && view.can_record ? (
                <span className="aw-result-actions">
                  {allows(bench, 'result_issue') ? (
                    <Button size="small" type="primary" onClick={() => setEditing({ applicant: a, kind: 'issue' })} data-testid="result-issue-open">
                      录入出签
                    </Button>
                  ) : null}
                  {allows(bench, 'result_reject') ? (
                    <Button size="small" danger onClick={() => setEditing({ applicant: a, kind: 'reject' })} data-testid="result-reject-open">
                      录入拒签
                    </Button>
                  ) : null}
                </span>
              ) : null}
            </div>
            {a.status === 'issued' ? (
              <div className="aw-muted" data-testid="result-summary">
                签证号码 {a.visa_no} · 有效期 {a.valid_from} 至 {a.valid_to} · {a.entries} · 停留 {a.stay_days} 天
                {a.evisa ? (
                  <>
                    {' · '}
                    <a href={a.evisa.url} target="_blank" rel="noreferrer">
                      <FileOutlined /> {a.evisa.file_name}
                    </a>
                  </>
                ) : null}
                {a.recorded_by ? ` · ${a.recorded_by} 录入` : ''}
              </div>
            ) : a.status === 'rejected' ? (
              <div className="aw-muted" data-testid="result-summary">
                拒签原因：{a.reject_reason}
                {a.letter ? (
                  <>
                    {' · '}
                    <a href={a.letter.url} target="_blank" rel="noreferrer">
                      <FileOutlined /> 拒签信
                    </a>
                  </>
                ) : null}
                {a.recorded_by ? ` · ${a.recorded_by} 录入` : ''}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {editing ? (
        <ResultDialog view={view} applicant={editing.applicant} kind={editing.kind} onClose={() => setEditing(null)} onDone={() => setEditing(null)} />
      ) : null}
    </section>
  );
}

function ResultDialog({
  view,
  applicant,
  kind,
  onClose,
  onDone,
}: {
  view: AdminResultView;
  applicant: Applicant;
  kind: 'issue' | 'reject';
  onClose: () => void;
  onDone: () => void;
}) {
  const { busy, run } = useWorkbenchAction();
  const [uploading, setUploading] = useState(false);
  const [file, setFile] = useState<VisaResultFile | null>(null);
  const [issueForm] = Form.useForm<IssueForm>();
  const [rejectForm] = Form.useForm<RejectForm>();
  const fileKind: VisaResultFileKind = kind === 'issue' ? 'evisa' : 'letter';

  async function upload(picked: File) {
    const form = new FormData();
    form.append('user_order_id', String(view.user_order_id));
    form.append('applicant_id', String(applicant.applicant_id));
    form.append('kind', fileKind);
    form.append('file', picked);
    setUploading(true);
    try {
      setFile(await adminUpload('/admin-api/result/file_upload', form, { toast: false }));
    } catch (error) {
      if (!(error instanceof ApiError && error.httpStatus === 401)) toast.error(error instanceof ApiError ? error.message : '上传失败，请重试');
    } finally {
      setUploading(false);
    }
  }

  // A refusal (2182 stale, already recorded) shows the server's message and the results as they now are.
  const submit = (call: () => Promise<unknown>, done: string) => run(kind, { call, done, then: onDone });

  const issue = (values: IssueForm) =>
    submit(
      () =>
        adminApi(
          '/admin-api/result/issue',
          {
            user_order_id: view.user_order_id,
            applicant_id: applicant.applicant_id,
            version: view.version,
            visa_no: values.visa_no,
            valid_from: values.valid_from,
            valid_to: values.valid_to,
            entries: values.entries,
            stay_days: values.stay_days ?? 0,
            evisa_file_id: file?.file_id ?? null,
          },
          { toast: false },
        ),
      `${applicant.applicant_name} 已录入出签，已通知客户`,
    );

  const reject = (values: RejectForm) =>
    submit(
      () =>
        adminApi(
          '/admin-api/result/reject',
          {
            user_order_id: view.user_order_id,
            applicant_id: applicant.applicant_id,
            version: view.version,
            reasons: values.reasons ?? [],
            note: values.note ?? '',
            letter_file_id: file?.file_id ?? null,
          },
          { toast: false },
        ),
      `${applicant.applicant_name} 已录入拒签，已通知客户`,
    );

  const fileField = (
    <Form.Item
      label={kind === 'issue' ? `电子签证${view.is_evisa ? '（必填）' : '（可选）'}` : '使馆拒签信（可选）'}
      required={kind === 'issue' && view.is_evisa}
    >
      <Upload
        accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png"
        showUploadList={false}
        customRequest={({ file: picked }) => void upload(picked as File)}
      >
        <Button icon={<UploadOutlined />} loading={uploading} data-testid="result-file-upload">
          {file ? '重新上传' : '上传文件'}
        </Button>
      </Upload>
      {file ? (
        <span className="aw-muted" style={{ marginLeft: 8 }} data-testid="result-file-name">
          <FileOutlined /> {file.file_name}
        </span>
      ) : null}
    </Form.Item>
  );

  return (
    <Modal
      open
      title={`${kind === 'issue' ? '录入出签' : '录入拒签'} · ${applicant.applicant_name}`}
      onCancel={onClose}
      okText="确认录入"
      cancelText="取消"
      confirmLoading={busy !== null}
      okButtonProps={{ disabled: uploading, ...({ 'data-testid': 'result-submit' } as object) }}
      onOk={() => (kind === 'issue' ? issueForm.submit() : rejectForm.submit())}
      destroyOnHidden
      maskClosable={false}
    >
      <p className="aw-muted">结果录入后不能修改，请核对无误后再确认。</p>
      {kind === 'issue' ? (
        <Form form={issueForm} layout="vertical" requiredMark={false} onFinish={(values) => void issue(values)} data-testid="result-issue-form">
          <Form.Item
            name="visa_no"
            label="签证号码"
            rules={[
              { required: true, whitespace: true, message: '请输入签证号码' },
              { pattern: VISA_RESULT_LIMITS.visaNoPattern, message: '4–30 位字母、数字或连字符' },
            ]}
          >
            <Input maxLength={30} data-testid="result-visa-no" />
          </Form.Item>
          <div className="aw-result-dates">
            <Form.Item name="valid_from" label="有效期起" rules={[{ required: true, message: '请选择日期' }]}>
              <DateField data-testid="result-valid-from" />
            </Form.Item>
            <Form.Item
              name="valid_to"
              label="有效期止"
              dependencies={['valid_from']}
              rules={[
                { required: true, message: '请选择日期' },
                ({ getFieldValue }) => ({
                  validator: (_rule, value: string) =>
                    !value || !getFieldValue('valid_from') || value >= getFieldValue('valid_from')
                      ? Promise.resolve()
                      : Promise.reject(new Error('不能早于有效期起')),
                }),
              ]}
            >
              <DateField data-testid="result-valid-to" />
            </Form.Item>
          </div>
          <Form.Item name="entries" label="入境次数" rules={[{ required: true, message: '请选择入境次数' }]}>
            <Radio.Group options={VISA_ENTRIES.map((e) => ({ label: e, value: e }))} data-testid="result-entries" />
          </Form.Item>
          <Form.Item name="stay_days" label="停留天数" rules={[{ required: true, message: '请输入停留天数' }]}>
            <InputNumber min={1} max={VISA_RESULT_LIMITS.stayDaysMax} precision={0} style={{ width: 160 }} data-testid="result-stay-days" />
          </Form.Item>
          {fileField}
        </Form>
      ) : (
        <Form
          form={rejectForm}
          layout="vertical"
          requiredMark={false}
          onFinish={(values) => void reject(values)}
          initialValues={{ reasons: [], note: '' }}
          data-testid="result-reject-form"
        >
          <Form.Item name="reasons" label="常见原因（可多选）">
            <Checkbox.Group options={Object.entries(REJECT_REASONS).map(([value, label]) => ({ value, label }))} className="aw-result-reasons" />
          </Form.Item>
          <Form.Item
            name="note"
            label="说明"
            dependencies={['reasons']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_rule, value: string) =>
                  (getFieldValue('reasons') as string[]).length > 0 || value?.trim() ? Promise.resolve() : Promise.reject(new Error('请选择或填写拒签原因')),
              }),
            ]}
          >
            <Input.TextArea rows={3} maxLength={VISA_RESULT_LIMITS.rejectNoteMaxLength} showCount data-testid="result-reject-note" />
          </Form.Item>
          {fileField}
        </Form>
      )}
    </Modal>
  );
}
