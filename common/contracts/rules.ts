// The rules of the calls' fields that the forms check before sending, so the
// customer sees the server's limit next to the field: the contracts build
// their payloads and descriptions from these, the services enforce them with
// their precise Chinese errors, and the forms check the same numbers and
// patterns. Plain data (no zod), so the browser bundles none of the schemas.

/** account_login: account and password as typed. */
export const LOGIN_FIELD_MAX_LENGTH = 50;

/** The e-mail pattern of spec §5: [letters digits _ . -]@labels.tld(2–4). */
export const EMAIL_PATTERN = /^[A-Za-z0-9_.-]+@([A-Za-z0-9-]+\.)+[A-Za-z0-9]{2,4}$/;
export const EMAIL_MAX_LENGTH = 100;

/** A mainland mobile number, once spaces and hyphens are removed. */
export const MOBILE_PHONE_PATTERN = /^1[3-9]\d{9}$/;
/** A passport number as order_create keeps it (upper case, no spaces). */
export const PASSPORT_NO_PATTERN = /^[A-Z0-9]{5,20}$/;
/** What a mobile-number box takes as typed ("138 0013 8000"); the payload allows 40 and the service normalizes. */
export const MOBILE_PHONE_INPUT_MAX_LENGTH = 20;

/** The order calls (create, cancel, departure date, list). */
export const ORDER_LIMITS = {
  minApplicants: 1,
  maxApplicants: 20,
  applicantNameMaxLength: 30,
  cancelReasonMaxLength: 200,
  /** An unpaid order is cancelled this long after it was created. */
  unpaidTtlMs: 24 * 3_600_000,
  /** A departure date further than this is refused as a typo. */
  maxDepartureDaysAhead: 366,
  pageSize: 10,
} as const;

/** address_save (characters as people count them). */
export const ADDRESS_LIMITS = {
  nameMaxLength: 20,
  companyMaxLength: 50,
  detailMinLength: 2,
  detailMaxLength: 100,
  /** Per kind and enterprise: an address book, not a customer database. */
  maxPerKind: 50,
} as const;

/** Operators (back office): account pattern, name length, the initial password's minimum length (checked by the form; the server only sees a digest). */
export const OPERATOR_ACCOUNT_PATTERN = /^[A-Za-z0-9_.-]{3,50}$/;
export const OPERATOR_NAME_MAX_LENGTH = 50;
export const OPERATOR_PASSWORD_MIN_LENGTH = 10;
/** The 6-digit TOTP code. */
export const TOTP_CODE_PATTERN = /^\d{6}$/;
