// How long a passport must last for a visa application (issue 28): most
// consulates refuse a passport that runs out less than six months after the
// departure date. Shared by the server (the order detail's warning, the
// create call's date check) and the pages (the same words everywhere).
// docs/order-rules.md "Passport validity".

export const PASSPORT_VALIDITY_MONTHS = 6;

/** The words visa services use; shown on the confirm page and the order detail. */
export const PASSPORT_SHORT_VALIDITY_TEXT = '护照有效期不足6个月（出发日期起算），可能被拒签，请尽快更换护照';

/** YYYY-MM-DD plus whole months (the 31st of a shorter month becomes its last day). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** The first expiry date that is enough for this departure (departure + 6 months). */
export function passportNeededUntil(departure: string): string {
  return addMonths(departure, PASSPORT_VALIDITY_MONTHS);
}

/** The warning for an applicant's passport, or null when it lasts long enough (or its expiry is not known). */
export function passportValidityWarning(expiry: string | null | undefined, departure: string): string | null {
  if (!expiry) return null;
  return expiry < passportNeededUntil(departure) ? PASSPORT_SHORT_VALIDITY_TEXT : null;
}
