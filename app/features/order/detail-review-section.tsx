// Order detail (issue 9): each uploaded file with its review status — 待审核,
// 已通过, 未通过 with the operator's memo — per applicant, once the order is
// being handled. A link to the re-upload page while files wait for it.
import { Button, Tag } from 'antd';
import { useNavigate } from 'react-router';
import type { MaterialFileView, MaterialListResult } from '../../../common/contracts/material';
import type { OrderEventName } from '../../../common/order';
import { DetailSection } from './detail-info-sections';

const REVIEW_COLORS = { pending: 'processing', passed: 'success', no_pass: 'error' } as const;

function FileRow({ label, file }: { label: string; file: MaterialFileView }) {
  return (
    <li className="order-review-file" data-testid="order-review-file" data-review-status={file.review_status}>
      <span className="order-review-item">{label}</span>
      <span className="order-review-name" title={file.file_name}>
        {file.file_name}
      </span>
      <Tag color={REVIEW_COLORS[file.review_status]}>{file.review_status_label}</Tag>
      {file.no_pass_memo ? <span className="order-review-memo">{file.no_pass_memo}</span> : null}
    </li>
  );
}

/** `allowedEvents`: the order view's; 重新上传 shows only while reupload_submit is among them. */
export function MaterialReviewSection({
  list,
  userOrderId,
  allowedEvents,
}: {
  list: MaterialListResult;
  userOrderId: number;
  allowedEvents: readonly OrderEventName[];
}) {
  const navigate = useNavigate();
  return (
    <DetailSection
      title="资料审核"
      testId="order-review-section"
      extra={
        list.mode === 'reupload' && allowedEvents.includes('reupload_submit') ? (
          <Button type="primary" size="small" onClick={() => navigate(`/order/order-reupload/${userOrderId}`)}>
            重新上传
          </Button>
        ) : null
      }
    >
      {list.applicants.map((applicant) => {
        const rows = [
          ...(applicant.photo?.files ?? []).map((file) => ({ label: '签证照片', file })),
          ...applicant.electronic.flatMap((item) => item.files.map((file) => ({ label: item.name, file }))),
        ];
        return (
          <div key={applicant.applicant_id} className="order-review-applicant">
            <div className="order-review-applicant-name">
              {applicant.name} <Tag>{applicant.identity_label}</Tag>
            </div>
            {rows.length === 0 ? (
              <p className="order-muted order-none">未上传资料</p>
            ) : (
              <ul className="order-review-files">
                {rows.map((row) => (
                  <FileRow key={row.file.file_id} label={row.label} file={row.file} />
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </DetailSection>
  );
}
