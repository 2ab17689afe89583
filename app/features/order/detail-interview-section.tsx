// Order detail (spec 2.4, issue 10): the fingerprint/interview date and the
// fingerprint/interview notification sections, with the update-date and
// interview video dialogs; shown once the order has a notice to read.
import { Button } from 'antd';
import { useState } from 'react';
import { useNavigate, useRevalidator } from 'react-router';
import type { InterviewNoticeDetail } from '../../../common/contracts/interview-notice';
import type { OrderEventName } from '../../../common/order';
import { InterviewVideoDialog, UpdateDateDialog } from '../../components/interview/interview-dialogs';
import { InterviewInfoBlock, InterviewMaterialsBlock } from '../../components/interview/interview-notice-blocks';
import { DetailSection } from './detail-info-sections';
import { changeableApplicants } from './interview-notice-page';

/** `allowedEvents`: the order view's; 修改时间 shows only while interview_change_request is among them. */
export function InterviewDetailSections({ notice, allowedEvents }: { notice: InterviewNoticeDetail | null; allowedEvents: readonly OrderEventName[] }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [videoOpen, setVideoOpen] = useState(false);
  const [changeOpen, setChangeOpen] = useState(false);
  if (!notice) return null;
  const published = notice.applicants.some((a) => a.notice);
  const changeable = changeableApplicants(notice);
  return (
    <>
      <DetailSection
        title="指纹/面试日期"
        testId="order-interview-date-section"
        extra={
          notice.in_interview_step && changeable.length > 0 && allowedEvents.includes('interview_change_request') ? (
            <Button size="small" onClick={() => setChangeOpen(true)} data-testid="detail-interview-change">
              修改时间
            </Button>
          ) : null
        }
      >
        <InterviewInfoBlock applicants={notice.applicants} />
      </DetailSection>
      {published ? (
        <DetailSection
          title="指纹/面试通知"
          testId="order-interview-notice-section"
          extra={
            <span className="iv-person-actions" style={{ marginTop: 0 }}>
              <Button size="small" onClick={() => setVideoOpen(true)}>
                面试指引视频
              </Button>
              <Button size="small" type="primary" onClick={() => navigate(`/order/order-interview-notification/${notice.user_order_id}`)}>
                查看完整通知
              </Button>
            </span>
          }
        >
          <div className="iv-field-label">需携带资料</div>
          <InterviewMaterialsBlock applicants={notice.applicants} />
        </DetailSection>
      ) : null}
      <InterviewVideoDialog open={videoOpen} onClose={() => setVideoOpen(false)} video={notice.video} />
      <UpdateDateDialog
        open={changeOpen}
        onClose={() => setChangeOpen(false)}
        onDone={() => void revalidator.revalidate()}
        userOrderId={notice.user_order_id}
        applicants={changeable}
      />
    </>
  );
}
