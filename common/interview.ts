// Interview / fingerprint appointments: the slot plan shared by the server
// and the page (the calls' shapes are common/contracts/interview.ts). The
// rules are in docs/order-rules.md ("Interview slots").

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
