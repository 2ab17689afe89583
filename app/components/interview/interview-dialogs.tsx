// The interview notice's two dialogs (spec 2.1, 2.4), shared by the
// notification page and the order detail: the update-date dialog (the free
// times of the consulate, one applicant at a time; the operator accepts or
// declines the request) and the interview video dialog (the consulate's guide
// video, with the browser's controls to pause and seek).
import { Alert, Button, Empty, Input, Modal, Radio, Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import type { InterviewChangeSlots, InterviewNoticeDetail } from '../../../common/contracts/interview-notice';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import './interview.css';

export function InterviewVideoDialog({ open, onClose, video }: { open: boolean; onClose: () => void; video: InterviewNoticeDetail['video'] }) {
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={video.title} width={720} destroyOnHidden centered>
      <div className="iv-video-box">
        {/* A new element each time the dialog opens: closing it stops the video. */}
        <video className="iv-video" src={video.url} controls preload="metadata" playsInline data-testid="interview-video" aria-label={video.title}>
          您的浏览器不支持视频播放，请<a href={video.url}>下载视频</a>观看。
        </video>
      </div>
      <p className="iv-muted">视频约 15 秒：到达领馆、递交资料、录指纹与面谈。可拖动进度条跳转。</p>
    </Modal>
  );
}

interface UpdateDateDialogProps {
  open: boolean;
  onClose: () => void;
  /** After the request was sent: reload the page's data. */
  onDone: () => void;
  userOrderId: number;
  applicants: Array<{ applicant_id: number; name: string; current: string | null; currentSlotId: number | null }>;
  /** The applicant to start with (the card's button). */
  applicantId?: number;
}

export function UpdateDateDialog({ open, onClose, onDone, userOrderId, applicants, applicantId }: UpdateDateDialogProps) {
  const [slots, setSlots] = useState<InterviewChangeSlots | null>(null);
  const [loading, setLoading] = useState(false);
  const [who, setWho] = useState<number | undefined>(applicantId ?? applicants[0]?.applicant_id);
  const [date, setDate] = useState<string | null>(null);
  const [slotId, setSlotId] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (!open) return;
    setWho(applicantId ?? applicants[0]?.applicant_id);
    setSlotId(null);
    setReason('');
    let live = true;
    setLoading(true);
    api('/www/order/interview_change_slots', { user_order_id: userOrderId })
      .then((answer) => {
        if (!live) return;
        setSlots(answer);
        setDate(answer.dates.find((d) => d.slots.some((s) => !s.full))?.date ?? null);
      })
      .catch(() => onClose())
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
    // Loaded each time the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, userOrderId]);

  const day = slots?.dates.find((d) => d.date === date) ?? null;
  const current = applicants.find((a) => a.applicant_id === who)?.current ?? null;
  const currentSlotId = applicants.find((a) => a.applicant_id === who)?.currentSlotId ?? null;

  const submit = async () => {
    if (!who || !slotId) return;
    setSending(true);
    try {
      await api('/www/order/interview_change_request', {
        user_order_id: userOrderId,
        applicant_id: who,
        interview_slot_id: slotId,
        reason: reason.trim() || undefined,
      });
      toast.success('改期申请已提交，办理人员处理后会通知您');
      onDone();
      onClose();
    } catch {
      // api has shown the server's message (e.g. 已约满).
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title="修改面试/录指纹时间"
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="ok" type="primary" disabled={!slotId} loading={sending} onClick={() => void submit()} data-testid="update-date-submit">
          提交申请
        </Button>,
      ]}
    >
      <Spin spinning={loading}>
        <div className="iv-dialog" data-testid="update-date-dialog">
          {applicants.length > 1 ? (
            <label className="iv-field">
              <span className="iv-field-label">申请人</span>
              <Select
                value={who}
                onChange={(value) => setWho(value)}
                options={applicants.map((a) => ({ value: a.applicant_id, label: a.name }))}
                aria-label="申请人"
                style={{ width: '100%' }}
              />
            </label>
          ) : null}
          {current ? <p className="iv-muted">当前时间：{current}</p> : null}
          {slots?.notice ? <Alert type="warning" showIcon title={slots.notice} /> : null}
          {slots && slots.dates.length === 0 && !slots.notice ? <Empty description="出发日期前暂无可预约的时间" /> : null}
          {slots && slots.dates.length > 0 ? (
            <>
              <div className="iv-field-label">选择日期</div>
              <div className="iv-dates" role="radiogroup" aria-label="日期">
                {slots.dates.map((d) => {
                  const free = d.slots.some((s) => !s.full);
                  return (
                    <button
                      key={d.date}
                      type="button"
                      role="radio"
                      aria-checked={d.date === date}
                      className={d.date === date ? 'iv-date iv-date-on' : 'iv-date'}
                      disabled={!free}
                      onClick={() => {
                        setDate(d.date);
                        setSlotId(null);
                      }}
                      data-testid="update-date-day"
                    >
                      <span>{d.date.slice(5)}</span>
                      <span className="iv-date-week">{free ? d.weekday : '已约满'}</span>
                    </button>
                  );
                })}
              </div>
              {day ? (
                <>
                  <div className="iv-field-label">选择时段</div>
                  <Radio.Group value={slotId} onChange={(e) => setSlotId(e.target.value as number)} className="iv-slots" aria-label="时段">
                    {day.slots.map((s) => (
                      <Radio.Button
                        key={s.interview_slot_id}
                        value={s.interview_slot_id}
                        disabled={s.full || s.interview_slot_id === currentSlotId}
                        data-testid="update-date-slot"
                      >
                        {s.start_time}–{s.end_time}
                        <span className="iv-slot-left">{s.interview_slot_id === currentSlotId ? '当前' : s.full ? '约满' : `余${s.remaining}`}</span>
                      </Radio.Button>
                    ))}
                  </Radio.Group>
                </>
              ) : null}
              <label className="iv-field">
                <span className="iv-field-label">原因（选填）</span>
                <Input.TextArea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} rows={2} placeholder="例如：行程调整" />
              </label>
            </>
          ) : null}
        </div>
      </Spin>
    </Modal>
  );
}
