// One applicant's choice: a date select (days without room say 已约满) and
// the day's half-hour times as a radio group; a full time is disabled unless
// it is already this applicant's.
import { CheckCircleFilled } from '@ant-design/icons';
import { Button, Radio, Select } from 'antd';
import type { InterviewSlotListResult } from '../../../../common/contracts/interview';
import { dayHasRoom, placesFor, type Selection, selectable, shortDate, slotIndex, slotLabel } from './interview-model';

export interface ApplicantTimePickerProps {
  list: InterviewSlotListResult;
  selection: Selection;
  applicantId: number;
  index: number;
  date: string | null;
  onDateChange: (date: string) => void;
  onChoose: (interviewSlotId: number) => void;
  /** Offered when the order has several applicants and this one has a time. */
  onApplyToAll?: () => void;
}

export function ApplicantTimePicker({ list, selection, applicantId, index, date, onDateChange, onChoose, onApplyToAll }: ApplicantTimePickerProps) {
  const applicant = list.applicants.find((a) => a.applicant_id === applicantId)!;
  const day = list.dates.find((d) => d.date === date) ?? null;
  const chosen = selection[applicantId];
  const chosenRef = chosen == null ? undefined : slotIndex(list).get(chosen);
  const stale = applicant.choice !== null && !applicant.choice.bookable;

  return (
    <section className="ci-section ci-applicant" data-testid="interview-applicant" aria-label={`${applicant.name}的面试时间`}>
      <header className="ci-applicant-head">
        <span className="ci-applicant-index">{index + 1}</span>
        <span className="ci-applicant-name">{applicant.name}</span>
        {chosenRef ? (
          <span className="ci-applicant-chosen" data-testid="interview-chosen">
            <CheckCircleFilled /> {slotLabel(chosenRef)}
          </span>
        ) : (
          <span className="ci-applicant-todo">请选择面试时间</span>
        )}
        {onApplyToAll && chosenRef ? (
          <Button type="link" size="small" className="ci-apply-all" onClick={onApplyToAll}>
            其他申请人也选此时间
          </Button>
        ) : null}
      </header>
      {stale ? (
        <p className="ci-stale">
          原预约 {applicant.choice!.slot_date} {applicant.choice!.start_time}–{applicant.choice!.end_time} 已不可用，请重新选择
        </p>
      ) : null}
      <div className="ci-picker">
        <label className="ci-date">
          <span className="ci-label">日期</span>
          <Select
            className="ci-date-select"
            value={date ?? undefined}
            onChange={onDateChange}
            aria-label={`${applicant.name}的面试日期`}
            data-testid="interview-date"
            options={list.dates.map((d) => {
              const room = dayHasRoom(list, selection, d, applicantId);
              return {
                value: d.date,
                disabled: !room,
                label: (
                  <span className="ci-date-option">
                    {shortDate(d.date)} {d.weekday}
                    {d.provisional ? <span className="ci-date-note">待定</span> : null}
                    {!room ? <span className="ci-date-note">已约满</span> : null}
                  </span>
                ),
              };
            })}
          />
        </label>
        {day ? (
          <Radio.Group
            className="ci-times"
            value={chosen != null && day.slots.some((s) => s.interview_slot_id === chosen) ? chosen : null}
            onChange={(event) => onChoose(event.target.value as number)}
            aria-label={`${applicant.name} ${shortDate(day.date)}的面试时段`}
          >
            {day.slots.map((slot) => {
              const places = placesFor(list, selection, slot, applicantId);
              const open = selectable(list, selection, slot, applicantId);
              return (
                <Radio key={slot.interview_slot_id} value={slot.interview_slot_id} disabled={!open} className="ci-time" data-testid="interview-time">
                  <span className="ci-time-range">
                    {slot.start_time}–{slot.end_time}
                  </span>
                  {chosen === slot.interview_slot_id ? (
                    <span className="ci-time-mine">已选</span>
                  ) : (
                    <span className={open ? 'ci-time-left' : 'ci-time-full'}>{open ? `余 ${places}` : '已约满'}</span>
                  )}
                </Radio>
              );
            })}
          </Radio.Group>
        ) : null}
      </div>
    </section>
  );
}
