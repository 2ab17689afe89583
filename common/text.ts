// Trimmed text input rule of spec §5: unicode space variants become a normal
// space, then leading and trailing whitespace is removed.
const UNICODE_SPACES = /[\u2000-\u200A\u202F\u205F\u3000]/g;

export function normalizeInputText(value: string): string {
  return value.replace(UNICODE_SPACES, ' ').trim();
}

/** Hides the middle of a mainland mobile number: 13800138000 → 138****8000. */
export function maskMobilePhone(phone: string): string {
  if (phone.length < 7) return phone;
  return `${phone.slice(0, 3)}****${phone.slice(-4)}`;
}
