// 确认信息: what is being bought, for whom, and when each applicant goes to
// the consulate (when the product needs an interview); a passport that runs
// out less than six months after departure is warned about before payment.
import { Alert, Tag } from 'antd';
import type { OrderDetail, ApplicantInterview } from '../../../../common/contracts/order';

function interviewText(interview: ApplicantInterview): string {
  return `${interview.slot_date} ${interview.start_time}–${interview.end_time}`;
}

export function ConfirmInfos({ order }: { order: OrderDetail }) {
  const rows: Array<[string, string]> = [
    ['签证产品', order.product_title],
    ['国家 · 类型', `${order.country} · ${order.visa_type}`],
    ['领区', order.consular_district?.name ?? '不限领区'],
    ['出发日期', order.departure_date],
    ['办理日期', order.order_date],
  ];
  if (order.effect_date) rows.push(['签证生效日期', order.effect_date]);
  return (
    <section className="oc-section" aria-labelledby="oc-infos-title" data-testid="confirm-infos">
      <h2 className="oc-section-title" id="oc-infos-title">
        确认信息
      </h2>
      <dl className="oc-infos">
        {rows.map(([label, value]) => (
          <div key={label} className="oc-info">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="oc-subtitle">申请人（{order.applicant_count} 位）</h3>
      <ul className="oc-applicants">
        {order.applicants.map((applicant) => (
          <li key={applicant.applicant_id} className="oc-applicant" data-testid="confirm-applicant">
            <div className="oc-applicant-who">
              <span className="oc-applicant-name">{applicant.name}</span>
              <Tag className="oc-tag">{applicant.identity_label}</Tag>
              <span className="oc-muted">已上传 {applicant.material_file_count} 份资料</span>
            </div>
            {order.need_interview ? (
              applicant.interview ? (
                <div className="oc-applicant-interview">
                  <span className="oc-muted">面试/录指纹</span> {interviewText(applicant.interview)}
                  <span className="oc-muted"> · {applicant.interview.consulate_name}</span>
                </div>
              ) : (
                <div className="oc-applicant-interview oc-warn">尚未选择面试时间</div>
              )
            ) : null}
            {applicant.passport_warning ? (
              <Alert className="oc-applicant-passport" type="warning" showIcon title={applicant.passport_warning} data-testid="confirm-passport-warning" />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
