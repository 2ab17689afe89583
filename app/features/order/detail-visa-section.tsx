// Order detail (spec 2.4): the visa infos section, with its send-e-mail
// dialog. Shown once the application is at the embassy: per applicant the
// result — for an issued visa its number, validity, entries, stay and the
// e-visa to download (an owner-only link), for a refusal the button that opens
// the visa-reject-reason dialog. 发送到邮箱 e-mails the issued visas' details
// (e-visas attached) to an address the user types (spec §5: '请输入正确的邮箱';
// '发送成功' for 1 s, then the dialog closes and clears). Rules: docs/order-rules.md, "Results".
import { DownloadOutlined, MailOutlined } from '@ant-design/icons';
import { Button, Descriptions, Tag } from 'antd';
import { useState } from 'react';
import type { OrderDetail } from '../../../common/contracts/order';
import type { VisaResultView } from '../../../common/contracts/visa-result';
import { RESULT_SHOWN_STEPS, isProcessingIn } from '../../../common/order';
import { VISA_INFOS_ANCHOR } from '../../../common/visa-result';
import { EmailSendDialog } from '../../components/email-send-dialog';
import { api } from '../../lib/api-client';
import { DetailSection } from './detail-info-sections';
import { VisaRejectReasonDialog } from './visa-reject-reason-dialog';
import './visa.css';

const STATUS_COLORS = { pending: 'processing', issued: 'success', rejected: 'error' } as const;

export function VisaInfosSection({ order }: { order: OrderDetail }) {
  const [emailOpen, setEmailOpen] = useState(false);
  const [reasonOf, setReasonOf] = useState<VisaResultView | null>(null);
  const results = order.visa_results;
  const anyResult = results.some((r) => r.status !== 'pending');
  if (!anyResult && !isProcessingIn(order, RESULT_SHOWN_STEPS)) return null;
  const issued = results.filter((r) => r.status === 'issued');

  return (
    <div id={VISA_INFOS_ANCHOR} className="order-anchor">
      <DetailSection
        title="签证信息"
        testId="order-visa-infos"
        extra={
          issued.length > 0 ? (
            <Button icon={<MailOutlined />} onClick={() => setEmailOpen(true)} data-testid="visa-email-open">
              发送到邮箱
            </Button>
          ) : null
        }
      >
        <ul className="visa-list">
          {results.map((r) => (
            <li key={r.applicant_id} className="visa-item" data-testid="visa-info">
              <div className="visa-item-head">
                <span>{r.applicant_name}</span>
                <Tag color={STATUS_COLORS[r.status]} data-testid="visa-status">
                  {r.status_label}
                </Tag>
                {r.status === 'rejected' ? (
                  <span className="visa-item-actions">
                    <Button size="small" danger onClick={() => setReasonOf(r)} data-testid="visa-reject-reason-open">
                      查看拒签原因
                    </Button>
                  </span>
                ) : null}
              </div>
              {r.status === 'issued' ? (
                <Descriptions
                  size="small"
                  column={{ xs: 1, sm: 2, lg: 3 }}
                  items={[
                    { key: 'no', label: '签证号码', children: <span data-testid="visa-no">{r.visa_no}</span> },
                    { key: 'valid', label: '有效期', children: <span data-testid="visa-validity">{`${r.valid_from} 至 ${r.valid_to}`}</span> },
                    { key: 'entries', label: '入境次数', children: r.entries },
                    { key: 'stay', label: '停留天数', children: r.stay_days === null ? '—' : `${r.stay_days} 天` },
                    ...(r.evisa
                      ? [
                          {
                            key: 'evisa',
                            label: '电子签证',
                            children: (
                              <a href={r.evisa.url} download={r.evisa.file_name} data-testid="visa-evisa-download">
                                <DownloadOutlined /> 下载电子签证
                              </a>
                            ),
                          },
                        ]
                      : []),
                  ]}
                />
              ) : r.status === 'pending' ? (
                <p className="visa-pending">等待使馆审理结果，出签后会第一时间通知您。</p>
              ) : null}
            </li>
          ))}
        </ul>
      </DetailSection>
      <VisaEmailDialog open={emailOpen} onClose={() => setEmailOpen(false)} userOrderId={order.user_order_id} names={issued.map((r) => r.applicant_name)} />
      <VisaRejectReasonDialog
        open={reasonOf !== null}
        onClose={() => setReasonOf(null)}
        applicantName={reasonOf?.applicant_name ?? ''}
        reason={reasonOf?.reject_reason ?? ''}
        rejectRefund={order.reject_refund}
        refund={reasonOf ? (order.refunds.find((refund) => refund.applicant_id === reasonOf.applicant_id && refund.kind === 'rejection') ?? null) : null}
        letterUrl={reasonOf?.letter?.url ?? null}
      />
    </div>
  );
}

/** 发送到邮箱: the issued visas' details, e-visas attached. */
function VisaEmailDialog({ open, onClose, userOrderId, names }: { open: boolean; onClose: () => void; userOrderId: number; names: string[] }) {
  return (
    <EmailSendDialog
      open={open}
      onClose={onClose}
      title="发送签证信息到邮箱"
      intro={
        <>
          我们会把 <strong>{names.join('、')}</strong> 的签证信息（签证号码、有效期、入境次数、停留天数）发送到您的邮箱，电子签证以附件发送。
        </>
      }
      send={(email) => api('/www/order/visa_info_send', { user_order_id: userOrderId, email })}
      testIds={{ body: 'visa-email-dialog', input: 'visa-email-input', send: 'visa-email-send' }}
    />
  );
}
