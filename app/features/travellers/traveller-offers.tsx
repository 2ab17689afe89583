// The upload step's offers (常用出行人): for each applicant who is a saved
// traveller, their saved documents that fit a checklist item (or the visa
// photo). The customer looks at each and takes it with 使用 — the same stored
// file, nothing uploaded again. Expired documents and photos taken over six
// months ago are not offered; the list says which and why.
import { CheckCircleOutlined, TeamOutlined } from '@ant-design/icons';
import { Button, Card, Tag } from 'antd';
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import type { TravellerOffersResult } from '../../../common/contracts/traveller';
import { REUSED_FROM_TRAVELLER_TAG } from '../../../common/traveller';
import { ApiError, api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import './travellers.css';

type Offer = TravellerOffersResult['applicants'][number]['offers'][number];

export function TravellerOffers({ userOrderId, offers }: { userOrderId: number; offers: TravellerOffersResult }) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);
  const people = offers.applicants.filter((a) => a.offers.length > 0 || a.skipped.length > 0);
  if (people.length === 0) return null;

  const take = async (applicantId: number, offer: Offer) => {
    const key = `${applicantId}:${offer.material_id}:${offer.document_id}`;
    setBusy(key);
    try {
      await api('/www/traveller/offer_accept', {
        user_order_id: userOrderId,
        applicant_id: applicantId,
        document_id: offer.document_id,
        material_id: offer.material_id,
      });
      toast.success(`已使用保存的${offer.doc_type_label}作为“${offer.material_name}”`);
    } catch (error) {
      if (!(error instanceof ApiError)) toast.error('操作失败，请重试');
    }
    setBusy(null);
    // The checklist and the offers as they are now (the taken file, what is still missing).
    void revalidator.revalidate();
  };

  return (
    <Card
      className="up-section tv-offers"
      data-testid="traveller-offers"
      title={
        <span>
          <TeamOutlined /> 常用出行人的证件
        </span>
      }
    >
      <p className="tv-muted">以下证件已在常用出行人中保存，请逐一查看确认后点“使用”，无需重新上传。</p>
      {people.map((person) => (
        <div key={person.applicant_id} className="tv-offer-person" data-testid="traveller-offer-person">
          <h3>{person.applicant_name}</h3>
          {person.offers.map((offer) => {
            const key = `${person.applicant_id}:${offer.material_id}:${offer.document_id}`;
            return (
              <div key={key} className="tv-offer" data-testid="traveller-offer" data-material-name={offer.material_name}>
                <span className="tv-offer-text">
                  <a href={offer.url} target="_blank" rel="noreferrer">
                    {offer.doc_type_label}
                  </a>{' '}
                  → {offer.material_name}
                  <span className="tv-muted">
                    {offer.taken_date ? ` · 拍摄 ${offer.taken_date}` : ''}
                    {offer.expiry_date ? ` · 有效期至 ${offer.expiry_date}` : ''}
                  </span>
                </span>
                {offer.used ? (
                  <Tag icon={<CheckCircleOutlined />} color="green" data-testid="traveller-offer-used">
                    已使用 · {REUSED_FROM_TRAVELLER_TAG}
                  </Tag>
                ) : (
                  <Button
                    size="small"
                    type="primary"
                    ghost
                    loading={busy === key}
                    disabled={busy !== null || revalidator.state === 'loading'}
                    onClick={() => void take(person.applicant_id, offer)}
                    data-testid="traveller-offer-accept"
                  >
                    使用
                  </Button>
                )}
              </div>
            );
          })}
          {person.skipped.map((skip) => (
            <div key={skip.document_id} className="tv-offer tv-muted" data-testid="traveller-offer-skipped">
              {skip.doc_type_label}：{skip.reason}，不能使用，请重新上传
            </div>
          ))}
        </div>
      ))}
    </Card>
  );
}
