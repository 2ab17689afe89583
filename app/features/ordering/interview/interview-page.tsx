// Choose interview time (spec 2.4, footer hidden): the consulate, then per
// applicant a date and a half-hour time from the consulate's free places;
// '确认' shows the choices in a dialog, confirming books them all at once and
// goes on to the confirm page. A time that filled up meanwhile reloads the
// places and says so. The route's loader reads the places on the server (a
// product without an interview goes on to the confirm page from there).
import { EnvironmentOutlined, LeftOutlined } from '@ant-design/icons';
import { Alert, Button, Result } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import type { InterviewSlotListResult } from '../../../../common/contracts/interview';
import { ErrorCode } from '../../../../common/error-codes';
import { eventAllowed } from '../../../../common/order';
import { LoadingOverlay } from '../../../components/loading-overlay';
import { OrderingSteps } from '../../../components/ordering-steps';
import { ApiError, api } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { ApplicantTimePicker } from './applicant-time-picker';
import { InterviewConfirmDialog } from './interview-confirm-dialog';
import { initialDate, initialSelection, keepFitting, missingApplicants, type Selection, shortDate, slotIndex, unchanged } from './interview-model';
import '../ordering-page.css';
import './interview.css';

/** Refusals after which the page shows the places as they are now. */
const RELOAD_ON = new Set<number>([
  ErrorCode.INTERVIEW_SLOT_FULL,
  ErrorCode.INTERVIEW_SLOT_UNAVAILABLE,
  ErrorCode.INTERVIEW_SLOT_NOT_FOUND,
  ErrorCode.ORDER_CONFLICT,
]);

/** Each applicant's open date: the one shown if the list still has it, else the date of their choice or the first. */
function openDates(list: InterviewSlotListResult, selection: Selection, shown: Record<number, string | null>): Record<number, string | null> {
  return Object.fromEntries(
    list.applicants.map((a) => {
      const date = shown[a.applicant_id];
      return [a.applicant_id, date && list.dates.some((d) => d.date === date) ? date : initialDate(list, selection, a.applicant_id)];
    }),
  );
}

export function InterviewPage({ userOrderId, list }: { userOrderId: number; list: InterviewSlotListResult }) {
  const [selection, setSelection] = useState<Selection>(() => initialSelection(list));
  const [dates, setDates] = useState<Record<number, string | null>>(() => openDates(list, initialSelection(list), {}));
  // A revalidation (after a refusal) brings the places as they are now: the form keeps what still fits.
  const [shownList, setShownList] = useState(list);
  if (list !== shownList) {
    const kept = keepFitting(list, selection);
    setShownList(list);
    setSelection(kept);
    setDates(openDates(list, kept, dates));
  }
  const [refusal, setRefusal] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const reload = () => void revalidator.revalidate();
  const confirmPath = `/ordering/order-confirm/${userOrderId}`;

  const choose = (applicantId: number, slotId: number) => {
    setRefusal(null);
    setSelection((current) => ({ ...current, [applicantId]: slotId }));
  };

  /** Gives every applicant the same time, as far as the places go (the form counts them). */
  const applyToAll = (fromApplicantId: number) => {
    const slotId = selection[fromApplicantId];
    if (slotId == null) return;
    const ref = slotIndex(list).get(slotId)!;
    const next: Selection = { ...selection };
    let left =
      ref.slot.remaining +
      list.applicants.filter((a) => a.choice?.interview_slot_id === slotId).length -
      list.applicants.filter((a) => next[a.applicant_id] === slotId).length;
    let skipped = 0;
    for (const applicant of list.applicants) {
      if (next[applicant.applicant_id] === slotId) continue;
      if (left > 0) {
        next[applicant.applicant_id] = slotId;
        left -= 1;
      } else skipped += 1;
    }
    setSelection(next);
    setDates((open) => ({
      ...open,
      ...Object.fromEntries(list.applicants.filter((a) => next[a.applicant_id] === slotId).map((a) => [a.applicant_id, ref.date.date])),
    }));
    if (skipped > 0) toast.warning(`该时段名额不足，还有 ${skipped} 位申请人请另选时间`);
  };

  const openConfirm = () => {
    const missing = missingApplicants(list, selection);
    if (missing.length > 0) {
      toast.warning(`请为${missing.join('、')}选择面试时间`);
      return;
    }
    setConfirming(true);
  };

  const submit = async () => {
    if (unchanged(list, selection)) {
      navigate(confirmPath);
      return;
    }
    setSubmitting(true);
    try {
      await api(
        '/www/order/interview_time_choose',
        { user_order_id: userOrderId, choices: list.applicants.map((a) => ({ applicant_id: a.applicant_id, interview_slot_id: selection[a.applicant_id]! })) },
        { toast: false },
      );
      toast.success('面试时间预约成功');
      navigate(confirmPath);
    } catch (error) {
      setConfirming(false);
      if (error instanceof ApiError && error.httpStatus === 401) return;
      const message = error instanceof ApiError ? error.message : '预约失败，请稍后重试';
      if (error instanceof ApiError && RELOAD_ON.has(error.ret)) {
        setRefusal(`${message}。可预约时间已刷新，请重新选择。`);
        toast.error(message);
        // The notice sits above the applicants: bring it into view.
        window.scrollTo({ top: 0, behavior: 'smooth' });
        reload();
      } else {
        toast.error(message);
        if (error instanceof ApiError && error.ret > 0) reload();
      }
    } finally {
      setSubmitting(false);
    }
  };

  const chosenCount = list.applicants.length - missingApplicants(list, selection).length;

  return (
    <div className="ordering-page ci-page" data-testid="interview-page">
      <Link to={`/ordering/upload/${userOrderId}`} className="ordering-back">
        <LeftOutlined /> 上传资料
      </Link>
      <LoadingOverlay loading={revalidator.state === 'loading'} loadingText="正在加载可预约时间">
        {!eventAllowed(list, 'interview_choose') ? (
          <Result
            status="info"
            title="订单已确认，面试时间不能再修改"
            subTitle="如需改期，请联系客服。"
            extra={
              <Button type="primary" onClick={() => navigate(`/order/order-detail/${userOrderId}`)}>
                查看订单详情
              </Button>
            }
            data-testid="interview-locked"
          />
        ) : (
          <>
            <h1 className="ci-title">选择面试/录指纹时间</h1>
            <div className="ci-section ci-steps">
              <OrderingSteps current="interview" needInterview />
            </div>
            <section className="ci-section ci-consulate" data-testid="interview-consulate">
              <EnvironmentOutlined className="ci-consulate-icon" />
              <div className="ci-consulate-text">
                <div className="ci-consulate-name">{list.consulate.consulate_name}</div>
                <div className="ci-muted">
                  {list.consulate.city} · {list.consulate.address}
                </div>
                {list.dates.length > 0 ? (
                  <div className="ci-window">
                    可预约日期：{shortDate(list.dates[0]!.date)} – {shortDate(list.dates.at(-1)!.date)}（仅工作日，已避开中国法定节假日、调休和领馆闭馆日）
                  </div>
                ) : null}
              </div>
            </section>
            {refusal ? (
              <Alert
                type="error"
                showIcon
                className="ci-alert"
                title={refusal}
                closable={{ onClose: () => setRefusal(null) }}
                data-testid="interview-refusal"
              />
            ) : null}
            {list.notice && list.dates.length > 0 ? (
              <Alert type="warning" showIcon className="ci-alert" title={list.notice} data-testid="interview-notice" />
            ) : null}
            {list.dates.length === 0 ? (
              <Result
                status="warning"
                title="暂无可预约的面试时间"
                subTitle={list.notice ?? undefined}
                extra={
                  <Button type="primary" onClick={() => navigate(`/order/order-detail/${userOrderId}`)}>
                    查看订单
                  </Button>
                }
              />
            ) : (
              list.applicants.map((applicant, index) => (
                <ApplicantTimePicker
                  key={applicant.applicant_id}
                  list={list}
                  selection={selection}
                  applicantId={applicant.applicant_id}
                  index={index}
                  date={dates[applicant.applicant_id] ?? null}
                  onDateChange={(date) => setDates((open) => ({ ...open, [applicant.applicant_id]: date }))}
                  onChoose={(slotId) => choose(applicant.applicant_id, slotId)}
                  onApplyToAll={list.applicants.length > 1 ? () => applyToAll(applicant.applicant_id) : undefined}
                />
              ))
            )}
            {list.dates.length > 0 ? (
              <footer className="ordering-footer ci-footer" data-testid="interview-footer">
                <div className="ordering-footer-inner ci-footer-inner">
                  <div className="ci-footer-text">
                    已选 <strong>{chosenCount}</strong> / {list.applicants.length} 位申请人
                  </div>
                  <Button type="primary" size="large" className="ci-footer-button" onClick={openConfirm} data-testid="interview-confirm">
                    确认
                  </Button>
                </div>
              </footer>
            ) : null}
            <InterviewConfirmDialog
              open={confirming}
              list={list}
              selection={selection}
              submitting={submitting}
              onClose={() => setConfirming(false)}
              onConfirm={() => void submit()}
            />
          </>
        )}
      </LoadingOverlay>
    </div>
  );
}
