// The blocks of an interview notice (spec 2.1): fingerprint/interview info per
// applicant, the process, attention notes, telephone attention and the
// materials to bring. Texts the applicants share are shown once; texts that
// differ are shown per applicant.
import { Tag } from 'antd';
import type { ReactNode } from 'react';
import type { InterviewNoticeDetail, InterviewNoticeView } from '../../../common/contracts/interview-notice';
import { weekdayLabel } from '../../../common/interview';
import './interview.css';

type Applicant = InterviewNoticeDetail['applicants'][number];

export function interviewTimeText(t: { date: string; start: string; end: string }): string {
  return `${t.date}（${weekdayLabel(t.date)}）${t.start}–${t.end}`;
}

const REQUEST_TAGS = {
  open: { color: 'processing', text: '改期申请处理中' },
  accepted: { color: 'success', text: '改期已接受' },
  declined: { color: 'error', text: '改期未通过' },
} as const;

export function ChangeRequestTag({ applicant }: { applicant: Applicant }) {
  const request = applicant.change_request;
  if (!request) return null;
  const tag = REQUEST_TAGS[request.status];
  return (
    <span className="iv-request" data-testid="interview-change-status" data-status={request.status}>
      <Tag color={tag.color}>{tag.text}</Tag>
      {request.status === 'open' ? (
        <span className="iv-muted">申请改为 {interviewTimeText({ date: request.to.slot_date, start: request.to.start_time, end: request.to.end_time })}</span>
      ) : null}
      {request.status === 'declined' && request.decline_reason ? <span className="iv-muted">原因：{request.decline_reason}</span> : null}
    </span>
  );
}

/** One row per applicant: the time, the consulate and its address, and the applicant's own action. */
export function InterviewInfoBlock({ applicants, action }: { applicants: Applicant[]; action?: (applicant: Applicant) => ReactNode }) {
  return (
    <ul className="iv-people">
      {applicants.map((applicant) => {
        const notice = applicant.notice;
        return (
          <li key={applicant.applicant_id} className="iv-person" data-testid="interview-applicant">
            <div className="iv-person-head">
              <span className="iv-person-name">{applicant.name}</span>
              {notice ? <Tag color="blue">已发布</Tag> : <Tag>待发布</Tag>}
              <ChangeRequestTag applicant={applicant} />
            </div>
            {notice ? (
              <dl className="iv-facts">
                <dt>时间</dt>
                <dd data-testid="interview-time">{interviewTimeText({ date: notice.interview_date, start: notice.start_time, end: notice.end_time })}</dd>
                <dt>地点</dt>
                <dd>{notice.consulate_name}</dd>
                <dt>地址</dt>
                <dd>{notice.consulate_address}</dd>
              </dl>
            ) : (
              <p className="iv-muted">
                {applicant.chosen
                  ? `已预约 ${interviewTimeText({ date: applicant.chosen.slot_date, start: applicant.chosen.start_time, end: applicant.chosen.end_time })}，通知发布后会告知您最终时间和需携带的资料。`
                  : '通知发布后会告知您面试时间和需携带的资料。'}
              </p>
            )}
            {action ? <div className="iv-person-actions">{action(applicant)}</div> : null}
          </li>
        );
      })}
    </ul>
  );
}

/** A text field of the published notices: once when shared, per applicant when it differs. */
function grouped(applicants: Applicant[], pick: (notice: InterviewNoticeView) => string): Array<{ names: string | null; text: string }> {
  const published = applicants.filter((a) => a.notice);
  const texts = [...new Set(published.map((a) => pick(a.notice!)))];
  if (texts.length <= 1) return texts.map((text) => ({ names: null, text }));
  return texts.map((text) => ({
    names: published
      .filter((a) => pick(a.notice!) === text)
      .map((a) => a.name)
      .join('、'),
    text,
  }));
}

function Lines({ text, ordered }: { text: string; ordered?: boolean }) {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const items = lines.map((line, index) => <li key={index}>{line}</li>);
  return ordered ? <ol className="iv-lines">{items}</ol> : <ul className="iv-lines">{items}</ul>;
}

export function InterviewTextBlock({
  applicants,
  field,
  ordered,
}: {
  applicants: Applicant[];
  field: 'process' | 'attention' | 'telephone';
  ordered?: boolean;
}) {
  const groups = grouped(applicants, (notice) => notice[field]);
  if (groups.length === 0) return <p className="iv-muted">通知发布后显示。</p>;
  return (
    <>
      {groups.map((group) => (
        <div key={group.text}>
          {group.names ? <div className="iv-group-names">{group.names}</div> : null}
          <Lines text={group.text} ordered={ordered} />
        </div>
      ))}
    </>
  );
}

export function InterviewMaterialsBlock({ applicants }: { applicants: Applicant[] }) {
  const groups = grouped(applicants, (notice) => notice.materials.join('\n'));
  if (groups.length === 0) return <p className="iv-muted">通知发布后显示。</p>;
  return (
    <>
      {groups.map((group) => (
        <div key={group.text}>
          {group.names ? <div className="iv-group-names">{group.names}</div> : null}
          <ul className="iv-materials" data-testid="interview-materials">
            {group.text.split('\n').map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}
