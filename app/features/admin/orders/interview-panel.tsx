// The workbench's interview panel (issue 10): per applicant, the notice form
// (date and time defaulting to the customer's choice, consulate and address,
// process, attention notes, telephone attention, materials to bring from the
// checklist) to publish, and the open change request to accept or decline.
// Its data is the workbench view's `interview` (a prop, null when the product
// has no interview); every call carries the order's version of that read and
// goes through useWorkbenchAction, which reads the workbench again.
import { Alert, Button, Input, Select, Tag } from 'antd';
import { useEffect, useState } from 'react';
import type { AdminWorkbench } from '../../../../common/contracts/admin-order';
import type { AdminInterviewPanel, InterviewNoticeFields } from '../../../../common/contracts/interview-notice';
import { weekdayLabel } from '../../../../common/interview';
import { stepIs } from '../../../../common/order';
import { adminApi } from '../admin-api';
import { DateField, TimeField } from '../date-fields';
import { allows, useWorkbenchAction } from './use-workbench-action';

type PanelApplicant = AdminInterviewPanel['applicants'][number];

function NoticeForm({
  applicant,
  disabled,
  onPublish,
}: {
  applicant: PanelApplicant;
  disabled: boolean;
  onPublish: (form: InterviewNoticeFields) => Promise<void>;
}) {
  const [form, setForm] = useState<InterviewNoticeFields>(applicant.form);
  const [busy, setBusy] = useState(false);
  useEffect(() => setForm(applicant.form), [applicant.form]);
  const set = <K extends keyof InterviewNoticeFields>(key: K, value: InterviewNoticeFields[K]) => setForm((f) => ({ ...f, [key]: value }));
  const id = (name: string) => `iv-${applicant.applicant_id}-${name}`;
  return (
    <div className="aw-iv-form" data-testid="interview-publish-form">
      <div className="aw-iv-row">
        <label htmlFor={id('date')}>日期</label>
        <DateField id={id('date')} value={form.interview_date} onChange={(value) => set('interview_date', value)} disabled={disabled} />
        <label htmlFor={id('start')}>开始</label>
        <TimeField id={id('start')} value={form.start_time} onChange={(value) => set('start_time', value)} disabled={disabled} />
        <label htmlFor={id('end')}>结束</label>
        <TimeField id={id('end')} value={form.end_time} onChange={(value) => set('end_time', value)} disabled={disabled} />
      </div>
      <label htmlFor={id('consulate')}>领馆</label>
      <Input id={id('consulate')} value={form.consulate_name} onChange={(e) => set('consulate_name', e.target.value)} disabled={disabled} />
      <label htmlFor={id('address')}>地址</label>
      <Input id={id('address')} value={form.consulate_address} onChange={(e) => set('consulate_address', e.target.value)} disabled={disabled} />
      <label htmlFor={id('process')}>办理流程（每行一步）</label>
      <Input.TextArea id={id('process')} rows={3} value={form.process} onChange={(e) => set('process', e.target.value)} disabled={disabled} />
      <label htmlFor={id('attention')}>注意事项（每行一条）</label>
      <Input.TextArea id={id('attention')} rows={3} value={form.attention} onChange={(e) => set('attention', e.target.value)} disabled={disabled} />
      <label htmlFor={id('telephone')}>电话注意事项</label>
      <Input.TextArea id={id('telephone')} rows={2} value={form.telephone} onChange={(e) => set('telephone', e.target.value)} disabled={disabled} />
      <label htmlFor={id('materials')}>需携带资料（可增删）</label>
      <Select
        id={id('materials')}
        mode="tags"
        value={form.materials}
        onChange={(value: string[]) => set('materials', value)}
        disabled={disabled}
        tokenSeparators={['，', ',']}
        open={false}
        aria-label="需携带资料"
      />
      <div>
        <Button
          type="primary"
          disabled={disabled}
          loading={busy}
          data-testid="interview-publish"
          onClick={async () => {
            setBusy(true);
            try {
              await onPublish(form);
            } finally {
              setBusy(false);
            }
          }}
        >
          {applicant.published ? '更新通知' : '发布通知'}
        </Button>
      </div>
    </div>
  );
}

export function InterviewPanel({ panel, bench }: { panel: AdminInterviewPanel | null; bench: AdminWorkbench }) {
  const { run } = useWorkbenchAction();
  const [declineReason, setDeclineReason] = useState<Record<number, string>>({});

  if (!bench.product.need_interview || !panel) return null;
  const userOrderId = bench.order.user_order_id;
  const inStep = stepIs(panel, 'interview');
  // The server's message on a refusal (e.g. 2141 stale, 2148 full); the panel as it now is either way.
  const after = async (call: () => Promise<unknown>, done: string) => {
    await run('interview', { call, done });
  };

  return (
    <section className="admin-card aw-card" data-testid="interview-panel" aria-label="面试/录指纹通知">
      <h2>面试/录指纹通知</h2>
      {!inStep ? <Alert type="info" showIcon title="订单进入“待面试/录指纹”后可以发布通知" /> : null}
      {inStep && !panel.can_act ? <Alert type="warning" showIcon title="请先领取该订单（只有办理人员或主管可以发布通知）" /> : null}
      {panel.applicants.map((applicant) => {
        const request = applicant.open_request;
        return (
          <div key={applicant.applicant_id} className="aw-applicant" data-testid="interview-panel-applicant">
            <h3 className="aw-applicant-name">
              {applicant.name} {applicant.published ? <Tag color="blue">已发布</Tag> : <Tag>未发布</Tag>}
              {applicant.chosen ? (
                <span className="aw-muted">
                  客户选择：{applicant.chosen.slot_date}（{weekdayLabel(applicant.chosen.slot_date)}）{applicant.chosen.start_time}–{applicant.chosen.end_time}
                </span>
              ) : null}
            </h3>
            {request ? (
              <div className="aw-iv-request" data-testid="interview-change-request">
                <div>
                  <Tag color="orange">改期申请</Tag>改为 {request.to.slot_date}（{weekdayLabel(request.to.slot_date)}）{request.to.start_time}–
                  {request.to.end_time}
                  {request.to_full ? <Tag color="red">该时段已约满</Tag> : null}
                  {request.reason ? <span className="aw-muted"> 原因：{request.reason}</span> : null}
                </div>
                <div className="aw-iv-actions">
                  <Button
                    type="primary"
                    size="small"
                    disabled={!panel.can_act || !allows(bench, 'interview_change_accept')}
                    data-testid="interview-change-accept"
                    onClick={() =>
                      void after(
                        () =>
                          adminApi(
                            '/admin-api/order/interview_change_accept',
                            { user_order_id: userOrderId, change_request_id: request.change_request_id, version: panel.version },
                            { toast: false },
                          ),
                        '已接受改期，客户会收到通知',
                      )
                    }
                  >
                    接受
                  </Button>
                  <Input
                    size="small"
                    placeholder="拒绝原因（选填）"
                    aria-label="拒绝原因"
                    maxLength={200}
                    value={declineReason[request.change_request_id] ?? ''}
                    onChange={(e) => setDeclineReason((r) => ({ ...r, [request.change_request_id]: e.target.value }))}
                    style={{ maxWidth: 220 }}
                  />
                  <Button
                    size="small"
                    danger
                    disabled={!panel.can_act || !allows(bench, 'interview_change_decline')}
                    data-testid="interview-change-decline"
                    onClick={() =>
                      void after(
                        () =>
                          adminApi(
                            '/admin-api/order/interview_change_decline',
                            {
                              user_order_id: userOrderId,
                              change_request_id: request.change_request_id,
                              version: panel.version,
                              reason: declineReason[request.change_request_id]?.trim() || undefined,
                            },
                            { toast: false },
                          ),
                        '已拒绝改期，客户会收到通知',
                      )
                    }
                  >
                    拒绝
                  </Button>
                </div>
              </div>
            ) : null}
            <NoticeForm
              applicant={applicant}
              disabled={!panel.can_act || !allows(bench, 'interview_notice_publish')}
              onPublish={(form) =>
                after(
                  () =>
                    adminApi(
                      '/admin-api/order/interview_notice_publish',
                      { ...form, user_order_id: userOrderId, applicant_id: applicant.applicant_id, version: panel.version },
                      { toast: false },
                    ),
                  '通知已发布，客户会收到站内消息和邮件',
                )
              }
            />
          </div>
        );
      })}
    </section>
  );
}
