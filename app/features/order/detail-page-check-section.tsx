// Order detail (issue 10): the page check section — each applicant's page
// check status, the open comments count, and the way to the page check page;
// the embassy submission date once submitted, still shown once the order is
// finished (completed or refunded). It reads the order detail
// route's loader data (`pageCheck`, null before the step), so the page mounts it with one line.
import { Button, Tag } from 'antd';
import { useNavigate, useRouteLoaderData } from 'react-router';
import type { PageCheckApplicantStatus, PageCheckView } from '../../../common/contracts/page-check';
import { stepIs } from '../../../common/order';
import { DetailSection } from './detail-info-sections';
import { PAGE_CHECK_STATUS_COLORS } from './page-check-page';
import './order.css';
import './page-check.css';

/** A page check not published to the customer yet. */
const PREPARING: PageCheckApplicantStatus = 'draft';

export function PageCheckSection() {
  const navigate = useNavigate();
  const data = useRouteLoaderData('routes/order-detail') as { pageCheck?: PageCheckView | null } | undefined;
  const view = data?.pageCheck;
  if (!view) return null;
  // A finished order keeps what its page check had; one that never reached it (refunded early, no pages) shows nothing.
  if (view.step === null && view.submitted_date === null && view.applicants.every((a) => a.status === 'none')) return null;
  const waiting = stepIs(view, 'page_check') && view.applicants.some((a) => a.status === 'published');
  return (
    <DetailSection
      title="核对签证页"
      testId="order-page-check-section"
      extra={
        <Button type={waiting ? 'primary' : 'default'} size="small" onClick={() => navigate(`/order/order-page-check/${view.user_order_id}`)}>
          {waiting ? '确认核对页' : '查看核对页'}
        </Button>
      }
    >
      {view.applicants.map((applicant) => (
        <div key={applicant.applicant_id} className="pc-section-applicant" data-testid="order-page-check-applicant">
          <span>{applicant.name}</span>
          <Tag color={PAGE_CHECK_STATUS_COLORS[applicant.status]}>{applicant.status === PREPARING ? '准备中' : applicant.status_label}</Tag>
          {applicant.pages.length > 0 ? <span className="pc-muted">{applicant.pages.length} 页</span> : null}
        </div>
      ))}
      {view.submitted_date ? (
        <p className="pc-muted" data-testid="order-submitted-date">
          递交使馆日期：{view.submitted_date}
        </p>
      ) : null}
    </DetailSection>
  );
}
