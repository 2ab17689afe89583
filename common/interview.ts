// Interview / fingerprint appointments: the shapes of the two calls and the
// slot plan shared by the server and the page. The rules are in
// docs/order-rules.md ("Interview slots").

export const INTERVIEW_LIMITS = {
  /** The last bookable day is at most this many days after today (China time). */
  maxDaysAhead: 60,
} as const;

/** Half-hour appointments of a consulate's working day (China time): mornings 09:00–12:00, afternoons 14:00–16:00. */
export const INTERVIEW_TIMES: ReadonlyArray<{ start: string; end: string }> = [
  { start: '09:00', end: '09:30' },
  { start: '09:30', end: '10:00' },
  { start: '10:00', end: '10:30' },
  { start: '10:30', end: '11:00' },
  { start: '11:00', end: '11:30' },
  { start: '11:30', end: '12:00' },
  { start: '14:00', end: '14:30' },
  { start: '14:30', end: '15:00' },
  { start: '15:00', end: '15:30' },
  { start: '15:30', end: '16:00' },
];

export const WEEKDAY_LABELS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'] as const;

/** '周一' … for a 'YYYY-MM-DD' date (the weekday does not depend on a time zone). */
export function weekdayLabel(date: string): string {
  return WEEKDAY_LABELS[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
}

export interface InterviewSlotView {
  interview_slot_id: number;
  /** 'HH:MM', China time */
  start_time: string;
  end_time: string;
  capacity: number;
  /** Places still free (0 when full). */
  remaining: number;
  full: boolean;
}

export interface InterviewDateView {
  /** 'YYYY-MM-DD' */
  date: string;
  /** '周一' … '周五' */
  weekday: string;
  /**
   * The official holiday arrangement of this date's year is not known yet
   * (chinese-days has no data for it): the date is offered from the statutory
   * holidays alone and may still become a holiday or a day in lieu.
   */
  provisional: boolean;
  slots: InterviewSlotView[];
}

export interface ApplicantInterviewChoice {
  interview_slot_id: number;
  slot_date: string;
  start_time: string;
  end_time: string;
  /** false when the chosen date is no longer bookable (passed, outside the window, or now a closed day): choose again. */
  bookable: boolean;
}

export interface InterviewSlotListResult {
  user_order_id: number;
  /** 'draft' only can choose; other states read their choices. */
  status: string;
  editable: boolean;
  consulate: {
    consular_district_id: number;
    /** The district's name, e.g. '上海领区'. */
    district_name: string;
    consulate_name: string;
    city: string;
    address: string;
  };
  /** The bookable dates 'YYYY-MM-DD' (inclusive); null when no day is left before departure. */
  window: { from: string; to: string } | null;
  /** Something the customer should know (no days left, dates that may change); null when nothing. */
  notice: string | null;
  dates: InterviewDateView[];
  applicants: Array<{ applicant_id: number; name: string; choice: ApplicantInterviewChoice | null }>;
}

export interface InterviewChooseInput {
  user_order_id: number;
  /** One per applicant of the order, every applicant exactly once. */
  choices: Array<{ applicant_id: number; interview_slot_id: number }>;
}

export interface InterviewChooseResult {
  user_order_id: number;
  applicants: Array<{ applicant_id: number; interview_slot_id: number; slot_date: string; start_time: string; end_time: string }>;
}
