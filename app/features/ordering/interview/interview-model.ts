// What the choose-interview-time page decides without React: the initial
// choice per applicant, how many places a time still has for this order's
// form (the order's own bookings come back when an applicant moves), the
// labels, and what is missing before confirming.
import type { InterviewDateView, InterviewSlotListResult, InterviewSlotView } from '../../../../common/contracts/interview';

/** applicant_id → chosen interview_slot_id (null: not chosen yet). */
export type Selection = Record<number, number | null>;

export interface SlotRef {
  date: InterviewDateView;
  slot: InterviewSlotView;
}

export function slotIndex(list: InterviewSlotListResult): Map<number, SlotRef> {
  const index = new Map<number, SlotRef>();
  for (const date of list.dates) for (const slot of date.slots) index.set(slot.interview_slot_id, { date, slot });
  return index;
}

/** The current choices that can still be kept; the others must be chosen again. */
export function initialSelection(list: InterviewSlotListResult): Selection {
  const index = slotIndex(list);
  const selection: Selection = {};
  for (const applicant of list.applicants) {
    const current = applicant.choice;
    selection[applicant.applicant_id] = current && current.bookable && index.has(current.interview_slot_id) ? current.interview_slot_id : null;
  }
  return selection;
}

/**
 * Places of a time still open to this applicant: the free places, plus the
 * ones this order already holds there (they are given back when its
 * applicants move), minus the ones the form gives to the order's other applicants.
 */
export function placesFor(list: InterviewSlotListResult, selection: Selection, slot: InterviewSlotView, applicantId: number): number {
  const held = list.applicants.filter((a) => a.choice?.interview_slot_id === slot.interview_slot_id).length;
  const takenByOthers = list.applicants.filter((a) => a.applicant_id !== applicantId && selection[a.applicant_id] === slot.interview_slot_id).length;
  return Math.max(0, slot.remaining + held - takenByOthers);
}

export function selectable(list: InterviewSlotListResult, selection: Selection, slot: InterviewSlotView, applicantId: number): boolean {
  return selection[applicantId] === slot.interview_slot_id || placesFor(list, selection, slot, applicantId) > 0;
}

export function dayHasRoom(list: InterviewSlotListResult, selection: Selection, date: InterviewDateView, applicantId: number): boolean {
  return date.slots.some((slot) => selectable(list, selection, slot, applicantId));
}

/** The date a picker opens on: the chosen one, else the first day with room. */
export function initialDate(list: InterviewSlotListResult, selection: Selection, applicantId: number): string | null {
  const chosen = selection[applicantId];
  if (chosen != null) {
    const ref = slotIndex(list).get(chosen);
    if (ref) return ref.date.date;
  }
  return (list.dates.find((date) => dayHasRoom(list, selection, date, applicantId)) ?? list.dates[0])?.date ?? null;
}

/** '12月2日' */
export function shortDate(date: string): string {
  return `${Number(date.slice(5, 7))}月${Number(date.slice(8, 10))}日`;
}

/** '2026年12月2日 周三 09:00–09:30' */
export function slotLabel(ref: SlotRef): string {
  return `${ref.date.date.slice(0, 4)}年${shortDate(ref.date.date)} ${ref.date.weekday} ${ref.slot.start_time}–${ref.slot.end_time}`;
}

export function missingApplicants(list: InterviewSlotListResult, selection: Selection): string[] {
  return list.applicants.filter((a) => selection[a.applicant_id] == null).map((a) => a.name);
}

/** Every applicant keeps the time already booked: nothing to send. */
export function unchanged(list: InterviewSlotListResult, selection: Selection): boolean {
  return list.applicants.every((a) => a.choice !== null && a.choice.bookable && selection[a.applicant_id] === a.choice.interview_slot_id);
}

/** After a refusal (a time filled up meanwhile): keep only the choices that still fit the new list. */
export function keepFitting(list: InterviewSlotListResult, previous: Selection): Selection {
  const index = slotIndex(list);
  const next: Selection = {};
  for (const applicant of list.applicants) next[applicant.applicant_id] = null;
  for (const applicant of list.applicants) {
    const wanted = previous[applicant.applicant_id];
    const ref = wanted == null ? undefined : index.get(wanted);
    if (ref && placesFor(list, next, ref.slot, applicant.applicant_id) > 0) next[applicant.applicant_id] = wanted!;
  }
  return next;
}
