// Saving an order's applicant as a saved traveller (常用出行人, issue 28 part 3):
// on the create-order page each applicant may be kept for next time — a new
// one ("保存为常用出行人"), or the saved traveller it came from when the
// customer changed it ("更新常用出行人"). The order is created first; the
// ticked applicants are then saved with the same traveller_save call as the
// 常用出行人 page (same role rule, same enterprise scope, the consent recorded),
// so a refused save never loses the order, and the customer is told which
// traveller was not saved and why.
import type { TravellerView } from '../../../common/contracts/traveller';
import type { PayloadOf } from '../../../common/contracts/define';
import type { travellerSave } from '../../../common/contracts/traveller';
import { normalizeInputText } from '../../../common/text';
import { TRAVELLER_LIMITS } from '../../../common/traveller';

/** The applicant item's values this feature reads and fills (the create-order form's applicants). */
export interface ApplicantTravellerValues {
  name?: string;
  identity_id?: number;
  mobile_phone?: string;
  email?: string;
  passport_no?: string;
  passport_expiry?: string;
  /** Set by the picker: the saved traveller this applicant was filled from. */
  traveller_id?: number;
  /** Asked only to save (the order does not keep them): filled from a passport scan or the traveller. */
  pinyin?: string;
  sex?: 'M' | 'F';
  birth_date?: string;
  save_traveller?: boolean;
  traveller_consent?: boolean;
}

export const SAVE_TRAVELLER_LABELS = { new: '保存为常用出行人', update: '更新常用出行人' } as const;
export const SAVED_TRAVELLER_SAME_TEXT = '已是常用出行人';

export type SaveMode = 'new' | 'update' | 'same';

const text = (value: string | null | undefined) => normalizeInputText(value ?? '');
const digits = (value: string | null | undefined) => text(value).replace(/[\s-]/g, '');
const passportNo = (value: string | null | undefined) => text(value).toUpperCase().replace(/\s/g, '');
const pinyinOf = (value: string | null | undefined) => text(value).toUpperCase().replace(/\s+/g, ' ');

/** The saved traveller this applicant is: the one the picker filled it from, else the one with the same name and mobile (the server allows one). */
export function travellerOf(applicant: ApplicantTravellerValues, travellers: TravellerView[]): TravellerView | null {
  if (applicant.traveller_id !== undefined) {
    const picked = travellers.find((t) => t.traveller_id === applicant.traveller_id);
    if (picked) return picked;
  }
  const name = text(applicant.name);
  const mobile = digits(applicant.mobile_phone);
  if (name === '' || mobile === '') return null;
  return travellers.find((t) => t.name === name && t.mobile_phone === mobile) ?? null;
}

/** Whether the applicant differs from the saved traveller in anything the order form shows or the scan filled. */
export function differsFrom(applicant: ApplicantTravellerValues, traveller: TravellerView): boolean {
  const pairs: Array<[string, string]> = [
    [text(applicant.name), traveller.name],
    [String(applicant.identity_id ?? ''), String(traveller.identity_id)],
    [digits(applicant.mobile_phone), traveller.mobile_phone],
    [text(applicant.email), traveller.email ?? ''],
    [passportNo(applicant.passport_no), traveller.passport_no ?? ''],
    [text(applicant.passport_expiry), traveller.passport_expiry ?? ''],
  ];
  // Filled by a scan: a different pinyin, sex or birth date is a change too; not filled is not.
  if (applicant.pinyin) pairs.push([pinyinOf(applicant.pinyin), traveller.pinyin]);
  if (applicant.sex) pairs.push([applicant.sex, traveller.sex]);
  if (applicant.birth_date) pairs.push([applicant.birth_date, traveller.birth_date]);
  return pairs.some(([a, b]) => a !== b);
}

export function saveMode(applicant: ApplicantTravellerValues, travellers: TravellerView[]): SaveMode {
  const traveller = travellerOf(applicant, travellers);
  if (!traveller) return 'new';
  return differsFrom(applicant, traveller) ? 'update' : 'same';
}

/** The traveller_save payload for a ticked applicant (an update names the traveller). */
export function travellerSavePayload(applicant: ApplicantTravellerValues, traveller: TravellerView | null): PayloadOf<typeof travellerSave> {
  const email = text(applicant.email);
  const passport = passportNo(applicant.passport_no);
  return {
    ...(traveller ? { traveller_id: traveller.traveller_id } : {}),
    name: text(applicant.name),
    pinyin: pinyinOf(applicant.pinyin),
    sex: applicant.sex ?? '',
    birth_date: applicant.birth_date ?? '',
    mobile_phone: digits(applicant.mobile_phone),
    email: email === '' ? null : email,
    identity_id: applicant.identity_id ?? -1,
    passport_no: passport === '' ? null : passport,
    passport_expiry: text(applicant.passport_expiry) || null,
    consent: applicant.traveller_consent === true,
  };
}

/** The applicants to save after the order is created: ticked, consented, and not already the same as saved. */
export function travellersToSave(applicants: ApplicantTravellerValues[], travellers: TravellerView[]) {
  return applicants.flatMap((applicant) => {
    if (applicant.save_traveller !== true) return [];
    const mode = saveMode(applicant, travellers);
    if (mode === 'same') return [];
    const traveller = mode === 'update' ? travellerOf(applicant, travellers) : null;
    return [{ name: text(applicant.name), mode, payload: travellerSavePayload(applicant, traveller) }];
  });
}

/** The values the picker fills into an applicant from a saved traveller (the order's fields and those a save needs). */
export function applicantFromTraveller(t: TravellerView): ApplicantTravellerValues {
  return {
    name: t.name,
    identity_id: t.identity_id,
    mobile_phone: t.mobile_phone,
    ...(t.email ? { email: t.email } : {}),
    ...(t.passport_no ? { passport_no: t.passport_no } : {}),
    ...(t.passport_expiry ? { passport_expiry: t.passport_expiry } : {}),
    traveller_id: t.traveller_id,
    pinyin: t.pinyin,
    sex: t.sex,
    birth_date: t.birth_date,
  };
}

const PINYIN_INPUT = /^[A-Za-z]+(?: [A-Za-z]+)*$/;

/** The pinyin box's check (the server's rule: letters, words separated by one space). */
export function pinyinError(value: string | undefined): string | null {
  const pinyin = text(value).replace(/\s+/g, ' ');
  if (pinyin === '') return '请输入姓名拼音';
  if (pinyin.length > TRAVELLER_LIMITS.pinyinMaxLength || !PINYIN_INPUT.test(pinyin)) return '姓名拼音只能是字母，姓和名之间用空格分开，如 ZHANG SAN';
  return null;
}
