// /order/order-interview-notification/:userOrderId (spec 2.1, issue 10): the
// interview / fingerprint notice — header, fingerprint/interview info per
// applicant, process, attention notes, telephone attention, materials to
// bring — with the update-date dialog and the interview video dialog.
import { LeftOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import type { InterviewNoticeDetail } from '../../../common/contracts/interview-notice';
import { InterviewVideoDialog, UpdateDateDialog } from '../../components/interview/interview-dialogs';
import { InterviewInfoBlock, InterviewMaterialsBlock, InterviewTextBlock, interviewTimeText } from '../../components/interview/interview-notice-blocks';
import { DetailSection } from './detail-info-sections';
import { orderDetailPath } from './order-format';
import './order.css';

/** The applicants whose time may be changed now (published, no open request), for the dialog. */
export function changeableApplicants(notice: InterviewNoticeDetail) {
  return notice.applicants
    .filter((a) => a.notice && a.change_request?.status !== 'open')
    .map((a) => ({
      applicant_id: a.applicant_id,
      name: a.name,
      current: interviewTimeText({ date: a.notice!.interview_date, start: a.notice!.start_time, end: a.notice!.end_time }),
      currentSlotId: a.chosen?.interview_slot_id ?? null,
    }));
}

export function InterviewNoticePage({ notice }: { notice: InterviewNoticeDetail }) {
  const revalidator = useRevalidator();
  const [videoOpen, setVideoOpen] = useState(false);
  const [changeFor, setChangeFor] = useState<number | null>(null);
  const published = notice.applicants.some((a) => a.notice);
  const changeable = changeableApplicants(notice);

  return (
    <div className="order-page" data-testid="interview-notice-page">
      <Link to={orderDetailPath(notice.user_order_id)} className="order-back">
        <LeftOutlined /> 订单详情
      </Link>
      <header className="order-section" aria-label="面试/录指纹通知">
        <h1 className="order-page-title">面试/录指纹通知</h1>
        <div className="order-detail-head-title">{notice.product_title}</div>
        <p className="iv-muted">
          订单号 {notice.order_no} · 出发日期 {notice.departure_date}
          {notice.consulate ? ` · ${notice.consulate.name}` : ''}
        </p>
        <Button icon={<PlayCircleOutlined />} onClick={() => setVideoOpen(true)} data-testid="interview-video-open">
          观看面试指引视频
        </Button>
      </header>
      {!published ? (
        <section className="order-section">
          <Result status="info" title="面试通知尚未发布" subTitle="办理人员发布后，我们会通过站内消息和邮件通知您。" />
        </section>
      ) : null}
      <DetailSection title="指纹/面试信息" testId="interview-info">
        <InterviewInfoBlock
          applicants={notice.applicants}
          action={(applicant) =>
            notice.in_interview_step && applicant.notice && applicant.change_request?.status !== 'open' ? (
              <Button size="small" onClick={() => setChangeFor(applicant.applicant_id)} data-testid="interview-change-open">
                修改时间
              </Button>
            ) : null
          }
        />
      </DetailSection>
      {published ? (
        <>
          <DetailSection title="办理流程" testId="interview-process">
            <InterviewTextBlock applicants={notice.applicants} field="process" ordered />
          </DetailSection>
          <DetailSection title="注意事项" testId="interview-attention">
            <InterviewTextBlock applicants={notice.applicants} field="attention" />
          </DetailSection>
          <DetailSection title="电话注意事项" testId="interview-telephone">
            <InterviewTextBlock applicants={notice.applicants} field="telephone" />
          </DetailSection>
          <DetailSection title="需携带资料" testId="interview-bring">
            <InterviewMaterialsBlock applicants={notice.applicants} />
          </DetailSection>
        </>
      ) : null}
      <InterviewVideoDialog open={videoOpen} onClose={() => setVideoOpen(false)} video={notice.video} />
      <UpdateDateDialog
        open={changeFor !== null}
        onClose={() => setChangeFor(null)}
        onDone={() => void revalidator.revalidate()}
        userOrderId={notice.user_order_id}
        applicants={changeable}
        applicantId={changeFor ?? undefined}
      />
    </div>
  );
}
