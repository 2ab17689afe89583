// Travellers saved for next time (常用出行人, issue 28 part 3): the document
// types, which checklist items each may fill, and when a saved document may
// still be offered. Shared by the server (it decides) and the pages (they
// explain). docs/order-rules.md "Travellers saved for next time".
import { addDays } from './order.ts';

export const TRAVELLER_DOCUMENT_TYPES = { passport: '护照首页', id_card: '身份证', hukou: '户口本', photo: '证件照片' } as const;
export type TravellerDocumentType = keyof typeof TRAVELLER_DOCUMENT_TYPES;
export const TRAVELLER_DOCUMENT_TYPE_VALUES = Object.keys(TRAVELLER_DOCUMENT_TYPES) as [TravellerDocumentType, ...TravellerDocumentType[]];

export const TRAVELLER_SEXES = { M: '男', F: '女' } as const;
export type TravellerSex = keyof typeof TRAVELLER_SEXES;

export const TRAVELLER_LIMITS = {
  /** Saved travellers per enterprise. */
  maxTravellers: 200,
  /** Saved documents of one type per traveller (a newer scan beside an older one). */
  maxDocumentsPerType: 3,
  nameMaxLength: 30,
  pinyinMaxLength: 60,
  /** A photo taken longer ago than this is not offered (embassies want a recent one). */
  photoMaxAgeMonths: 6,
} as const;

/** The tag on a file reused from a saved traveller (the customer's and the operator's views). */
export const REUSED_FROM_TRAVELLER_TAG = '来自常用出行人';

/** Items of someone else (parents, the inviter) or of an old passport are never filled from the traveller's own documents. */
const NOT_OWN = /父母|邀请人|配偶|子女|旧护照|担保人|同行人/;

/**
 * Which document type may fill an electronic checklist item, by its name
 * (护照首页扫描件 → passport, 身份证正反面 → id_card, 户口本 → hukou); null: none.
 * The visa photo slot takes a `photo`.
 */
export function documentTypeForItem(itemName: string): Exclude<TravellerDocumentType, 'photo'> | null {
  if (NOT_OWN.test(itemName)) return null;
  if (/护照/.test(itemName) && /首页|资料页|扫描|信息页/.test(itemName)) return 'passport';
  if (/身份证/.test(itemName)) return 'id_card';
  if (/户口/.test(itemName)) return 'hukou';
  return null;
}

/** 'YYYY-MM-DD' naming a day that exists, any year from 1900 (a birth date; isCalendarDate of common/order.ts is for trips, from 2000). */
export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1900;
}

/** The same calendar day `months` months earlier (clamped to the month's end: 08-31 − 6 → 02-28). */
export function monthsBefore(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) - months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** Why a saved document may not be offered on `today` (China date), or null when it may. */
export function documentUnusableReason(
  doc: { doc_type: TravellerDocumentType; taken_date: string | null; expiry_date: string | null },
  today: string,
): string | null {
  if (doc.expiry_date !== null && doc.expiry_date < today) return `已于 ${doc.expiry_date} 过期`;
  if (doc.doc_type === 'photo') {
    if (doc.taken_date === null) return '未填写拍摄日期';
    if (doc.taken_date < monthsBefore(today, TRAVELLER_LIMITS.photoMaxAgeMonths)) return '拍摄已超过六个月';
  }
  return null;
}

/** The last day a document is usable (its expiry, or a photo's six months), null when it does not end. */
export function documentUsableUntil(doc: { doc_type: TravellerDocumentType; taken_date: string | null; expiry_date: string | null }): string | null {
  const ends: string[] = [];
  if (doc.expiry_date !== null) ends.push(doc.expiry_date);
  if (doc.doc_type === 'photo' && doc.taken_date !== null) {
    // The day before the photo turns six months old … plus the months: monthsBefore inverted.
    const [y, m, d] = doc.taken_date.split('-').map(Number) as [number, number, number];
    const total = y * 12 + (m - 1) + TRAVELLER_LIMITS.photoMaxAgeMonths;
    const year = Math.floor(total / 12);
    const month = (total % 12) + 1;
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    ends.push(`${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`);
  }
  if (ends.length === 0) return null;
  return ends.sort()[0]!;
}

/** Retention of a saved document: deleted this many days after it stopped being usable (RETENTION_DAYS). */
export function documentPurgeDate(doc: Parameters<typeof documentUsableUntil>[0], retentionDays: number): string | null {
  const until = documentUsableUntil(doc);
  return until === null ? null : addDays(until, retentionDays);
}
