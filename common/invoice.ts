// Invoices (发票, issue 29): the statuses, the limits of the request form and
// the unified social credit code's check (GB 32100-2015), shared by the form
// and the service. Plain data and functions: no zod reaches the browser.

export const INVOICE_STATUSES = {
  requested: '待开票',
  issued: '已开票',
  rejected: '已驳回',
} as const;
export type InvoiceStatusKey = keyof typeof INVOICE_STATUSES;
export const INVOICE_STATUS_VALUES = Object.keys(INVOICE_STATUSES) as [InvoiceStatusKey, ...InvoiceStatusKey[]];

export const INVOICE_LIMITS = {
  titleMin: 2,
  titleMax: 100,
  addressPhoneMax: 200,
  bankAccountMax: 200,
  emailMax: 254,
  maxOrders: 100,
  rejectReasonMin: 2,
  rejectReasonMax: 200,
  /** An e-invoice PDF is small; a larger file is not what the tax system issues. */
  fileMaxBytes: 5 * 1024 * 1024,
} as const;

/** The 31 characters of a unified social credit code (no I, O, Z, S, V), in their value order. */
const CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The check character of the first 17 characters of a code (null: a character outside the set). */
export function creditCodeCheckChar(first17: string): string | null {
  let sum = 0;
  for (let i = 0; i < 17; i += 1) {
    const value = CODE_CHARS.indexOf(first17[i] ?? '');
    if (value < 0) return null;
    sum += value * WEIGHTS[i]!;
  }
  return CODE_CHARS[(31 - (sum % 31)) % 31]!;
}

/** A taxpayer id as typed, normalized: spaces removed, upper case. */
export function normalizeTaxId(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

/** Is this (normalized) a unified social credit code: 18 characters of the set, the check character right. */
export function isCreditCode(code: string): boolean {
  if (!/^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/.test(code)) return false;
  return creditCodeCheckChar(code.slice(0, 17)) === code[17];
}

/** The reversal (红冲) state of an issued invoice: a refund of its orders after it was issued. */
export type InvoiceReversal = 'none' | 'due' | 'done';
export const INVOICE_REVERSAL_LABELS: Record<InvoiceReversal, string> = { none: '', due: '待红冲', done: '已红冲' };
