// The order detail's mail sections (spec 2.4, issue 10): the mail material
// list (per applicant the paper materials, with a link to the mail list page)
// and the express/courier infos (each parcel with its tracking events).
// Shown only for orders with paper materials to mail.
import { Button, Tag } from 'antd';
import { useNavigate } from 'react-router';
import type { MailList } from '../../../common/contracts/mail';
import { ShipmentCard } from '../../components/courier/shipment-card';

export function MailSections({ mail }: { mail: MailList | null }) {
  const navigate = useNavigate();
  if (!mail || mail.applicants.length === 0) return null;
  const id = mail.order.user_order_id;
  const shipments = [...mail.shipments].reverse();
  return (
    <>
      <section className="order-section" data-testid="detail-mail-list" aria-labelledby="detail-mail-title">
        <div className="order-section-head">
          <h2 className="order-section-title" id="detail-mail-title">
            邮寄资料清单
          </h2>
          <Button size="small" type={mail.can_send ? 'primary' : 'default'} onClick={() => navigate(`/order/order-mail-list/${id}`)}>
            {mail.can_send ? '寄送资料' : '查看清单'}
          </Button>
        </div>
        {mail.missing ? <p className="order-muted">缺件待补寄：{mail.missing.note}</p> : null}
        {mail.applicants.map((applicant) => (
          <div key={applicant.applicant_id} className="detail-mail-applicant">
            <strong>{applicant.name}</strong>：
            {applicant.materials.map((m) => (
              <Tag key={m.material_id}>{m.name}</Tag>
            ))}
          </div>
        ))}
      </section>
      {shipments.length > 0 ? (
        <section className="order-section" data-testid="detail-express" aria-labelledby="detail-express-title">
          <h2 className="order-section-title" id="detail-express-title">
            快递信息
          </h2>
          {shipments.map((shipment) => (
            <ShipmentCard key={shipment.shipment_id} shipment={shipment} compact />
          ))}
        </section>
      ) : null}
    </>
  );
}
