// Order detail (spec 2.4): applicant infos — identity, contact, status,
// interview time, uploaded files, the passport (warned about when it runs out
// less than six months after departure), and what a draft still misses.
import { Alert, Tag } from 'antd';
import type { OrderApplicant, OrderDetail } from '../../../common/contracts/order';
import { formatDateTime } from '../../../common/format';
import { HANDLED_STATUSES, hasStatus } from '../../../common/order';
import { DetailSection } from './detail-info-sections';
import { scansPurgedAt } from './order-format';

const APPLICANT_STATUS_COLORS: Record<string, string> = {
  pending: 'processing',
  issued: 'success',
  rejected: 'error',
};

function interviewText(applicant: OrderApplicant): string {
  const interview = applicant.interview;
  if (!interview) return '未预约';
  return `${interview.slot_date} ${interview.start_time}–${interview.end_time} · ${interview.consulate_name}`;
}

export function ApplicantsSection({ order }: { order: OrderDetail }) {
  const missingOf = (applicantId: number) => order.missing_materials.filter((item) => item.applicant_id === applicantId).map((item) => item.name);
  // The applicant's own status only means something once the order is being handled.
  const showStatus = hasStatus(order, HANDLED_STATUSES);
  // After the retention period the scans are deleted: say so, or "0份" would read as never uploaded.
  const purgedAt = scansPurgedAt(order.events);
  return (
    <DetailSection title={`申请人信息（${order.applicants.length}人）`} testId="order-applicants-section">
      <ul className="order-applicant-cards">
        {order.applicants.map((applicant, index) => {
          const missing = missingOf(applicant.applicant_id);
          return (
            <li key={applicant.applicant_id} className="order-applicant-card" data-testid="order-applicant-card">
              <div className="order-applicant-card-head">
                <span className="order-applicant-index">{index + 1}</span>
                <strong className="order-applicant-name">{applicant.name}</strong>
                <Tag>{applicant.identity_label}</Tag>
                {showStatus ? <Tag color={APPLICANT_STATUS_COLORS[applicant.status] ?? 'default'}>{applicant.status_label}</Tag> : null}
              </div>
              <dl className="order-applicant-fields">
                <div>
                  <dt>手机号</dt>
                  <dd>{applicant.mobile_phone}</dd>
                </div>
                <div>
                  <dt>邮箱</dt>
                  <dd>{applicant.email ?? '—'}</dd>
                </div>
                {applicant.passport_no || applicant.passport_expiry ? (
                  <div>
                    <dt>护照</dt>
                    <dd data-testid="order-applicant-passport">
                      {[applicant.passport_no, applicant.passport_expiry ? `有效期至 ${applicant.passport_expiry}` : null].filter(Boolean).join(' · ')}
                    </dd>
                  </div>
                ) : null}
                {order.need_interview ? (
                  <div>
                    <dt>面试/录指纹</dt>
                    <dd>{interviewText(applicant)}</dd>
                  </div>
                ) : null}
                <div>
                  <dt>已上传资料</dt>
                  <dd data-testid="order-applicant-files">
                    {applicant.material_file_count}份
                    {purgedAt !== null ? (
                      <span className="order-muted" data-testid="order-applicant-files-purged">
                        （扫描件已于 {formatDateTime(purgedAt).slice(0, 10)} 保留期满删除）
                      </span>
                    ) : null}
                  </dd>
                </div>
                {missing.length > 0 ? (
                  <div className="order-applicant-missing">
                    <dt>待上传</dt>
                    <dd>{missing.join('、')}</dd>
                  </div>
                ) : null}
              </dl>
              {applicant.passport_warning ? (
                <Alert
                  className="order-applicant-passport-warning"
                  type="warning"
                  showIcon
                  title={applicant.passport_warning}
                  data-testid="order-passport-warning"
                />
              ) : null}
            </li>
          );
        })}
      </ul>
    </DetailSection>
  );
}
