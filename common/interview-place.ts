// Where an applicant goes for the interview or fingerprints, in the words the
// product uses. Many products send applicants to the country's visa
// application centre (签证中心) rather than to the consulate itself; the
// consular district only knows the consulate, so the place shown everywhere
// (order detail, the interview notice, the notices and the operator's notice
// form) follows what the product says.

export type InterviewPlaceKind = 'visa_centre' | 'consulate';

/** What the place is called in running text: 签证中心 or 领馆. */
export const INTERVIEW_PLACE_LABELS: Record<InterviewPlaceKind, string> = { visa_centre: '签证中心', consulate: '领馆' };

/** A visa centre when the product's words send the applicant to one (签证中心 / 签证申请中心), else the consulate. */
export function interviewPlaceKind(productWords: string): InterviewPlaceKind {
  return /签证(申请)?中心/.test(productWords) ? 'visa_centre' : 'consulate';
}

/** The place's name: the consulate's own, or the country's visa application centre in the consulate's city. */
export function interviewPlaceName(kind: InterviewPlaceKind, district: { consulate_name: string; city: string }, country: string): string {
  return kind === 'visa_centre' ? `${country}签证申请中心（${district.city}）` : district.consulate_name;
}
