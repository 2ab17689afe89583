// Visa results per applicant (issue 11): what an operator records once the
// order is at the embassy (processing · submitted) — issued, with the visa's
// details and for e-visas the e-visa file, or refused, with common reasons
// and/or free text and the embassy's letter. Shared by the server, the
// customer's order detail and list, and the back office's results panel.
// Rules: docs/order-rules.md, "Results"; decision 0025.

/** The entries a visa allows, as written on it. */
export const VISA_ENTRIES = ['单次', '两次', '多次'] as const;
export type VisaEntries = (typeof VISA_ENTRIES)[number];

/** Common refusal reasons (the operator ticks any; free text may add to them). */
export const REJECT_REASONS = {
  funds: '资金证明不足',
  ties: '国内约束力不足（工作、家庭或资产）',
  purpose: '旅行目的或行程不明确',
  documents: '材料不完整或不符合使馆要求',
  authenticity: '材料真实性存疑',
  history: '既往出入境或签证记录问题',
  interview: '面试/录指纹未通过',
  unstated: '使馆未说明原因',
} as const;
export type RejectReason = keyof typeof REJECT_REASONS;
export const REJECT_REASON_VALUES = Object.keys(REJECT_REASONS) as [RejectReason, ...RejectReason[]];

export const VISA_RESULT_FILE_KINDS = { evisa: '电子签证', letter: '使馆拒签信' } as const;
export type VisaResultFileKind = keyof typeof VISA_RESULT_FILE_KINDS;
export const VISA_RESULT_FILE_KIND_VALUES = Object.keys(VISA_RESULT_FILE_KINDS) as [VisaResultFileKind, ...VisaResultFileKind[]];

export const VISA_RESULT_LIMITS = {
  /** Letters, digits and '-', 4–30 characters. */
  visaNoPattern: /^[A-Za-z0-9-]{4,30}$/,
  stayDaysMax: 3650,
  rejectNoteMaxLength: 500,
} as const;

/** The product tag that makes a product an e-visa (the e-visa file is then required). */
export const EVISA_TAG = '电子签';

/** The order detail's anchor of the visa infos section (the result notices link to it). */
export const VISA_INFOS_ANCHOR = 'visa-infos';

/** The refusal in words: the ticked reasons, then the operator's text. */
export function rejectReasonText(reasons: readonly string[], note: string | null): string {
  const labels = reasons.map((code) => REJECT_REASONS[code as RejectReason] ?? code);
  return [...labels, ...(note?.trim() ? [note.trim()] : [])].join('；');
}
