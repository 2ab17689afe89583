// The create-order form's checks: the order_create contract's rules
// (common/contracts/rules.ts, which the server enforces too; docs/order-rules.md
// "Creating an order") so the customer sees the same Chinese messages next to
// the field before anything is sent. The server still decides.
import type { OrderCreatePayload } from '../../../../common/contracts/order';
import { EMAIL_PATTERN, MOBILE_PHONE_PATTERN, ORDER_LIMITS } from '../../../../common/contracts/rules';
import { addDays } from '../../../../common/order';
import { normalizeInputText } from '../../../../common/text';

export const CREATE_ORDER_MESSAGES = {
  district: '请选择领区',
  departureRequired: '请选择出发日期',
  departurePast: '出发日期不能早于今天',
  departureTooFar: '出发日期不能晚于一年后',
  orderDateRequired: '请选择办理日期',
  orderDatePast: '办理日期不能早于今天',
  orderDateAfterDeparture: '办理日期不能晚于出发日期',
  nameRequired: '请输入申请人姓名',
  nameLength: `申请人姓名最多 ${ORDER_LIMITS.applicantNameMaxLength} 个字`,
  identity: '请选择申请人身份',
  mobileRequired: '请输入手机号',
  mobile: '请输入正确的手机号',
  email: '请输入正确的邮箱',
  duplicate: '与前面的申请人重复（姓名和手机号都相同）',
} as const;

export interface ApplicantValues {
  name?: string;
  identity_id?: number;
  mobile_phone?: string;
  email?: string;
  /** Typed, or filled from a passport read the customer confirmed (app/features/passport-scan). */
  passport_no?: string;
  /** YYYY-MM-DD: checked against the trip here, kept on the order (the confirm page and the detail warn when short). */
  passport_expiry?: string;
  machine_read?: boolean;
}

/** Names count characters as people see them (code points), like the server. */
export function nameError(value: string | undefined): string | null {
  const name = normalizeInputText(value ?? '');
  if (name === '') return CREATE_ORDER_MESSAGES.nameRequired;
  if ([...name].length > ORDER_LIMITS.applicantNameMaxLength) return CREATE_ORDER_MESSAGES.nameLength;
  return null;
}

/** "138 0013 8000" and "138-0013-8000" are the same number (server rule). */
export function mobileDigits(value: string | undefined): string {
  return normalizeInputText(value ?? '').replace(/[\s-]/g, '');
}

export function mobileError(value: string | undefined): string | null {
  const mobile = mobileDigits(value);
  if (mobile === '') return CREATE_ORDER_MESSAGES.mobileRequired;
  return MOBILE_PHONE_PATTERN.test(mobile) ? null : CREATE_ORDER_MESSAGES.mobile;
}

export function emailError(value: string | undefined): string | null {
  const email = normalizeInputText(value ?? '');
  return email === '' || EMAIL_PATTERN.test(email) ? null : CREATE_ORDER_MESSAGES.email;
}

/** The latest departure date accepted (a later one is taken for a typo). */
export function lastDepartureDate(today: string): string {
  return addDays(today, ORDER_LIMITS.maxDepartureDaysAhead);
}

export function departureError(date: string | null, today: string): string | null {
  if (!date) return CREATE_ORDER_MESSAGES.departureRequired;
  if (date < today) return CREATE_ORDER_MESSAGES.departurePast;
  if (date > lastDepartureDate(today)) return CREATE_ORDER_MESSAGES.departureTooFar;
  return null;
}

export function orderDateError(date: string | null, departure: string | null, today: string): string | null {
  if (!date) return CREATE_ORDER_MESSAGES.orderDateRequired;
  if (date < today) return CREATE_ORDER_MESSAGES.orderDatePast;
  if (departure && date > departure) return CREATE_ORDER_MESSAGES.orderDateAfterDeparture;
  return null;
}

/** Whether applicant `index` repeats an earlier one (same name and mobile): the later one is marked. */
export function isDuplicateApplicant(applicants: ApplicantValues[], index: number): boolean {
  const key = (a: ApplicantValues | undefined) => `${normalizeInputText(a?.name ?? '')}\n${mobileDigits(a?.mobile_phone)}`;
  const mine = applicants[index];
  if (!mine || normalizeInputText(mine.name ?? '') === '' || mobileDigits(mine.mobile_phone) === '') return false;
  return applicants.slice(0, index).some((other) => key(other) === key(mine));
}

export interface CreateOrderFormValues {
  consular_district_id?: number | null;
  departure_date: string;
  order_date: string;
  applicants: ApplicantValues[];
}

/** The call's payload: names trimmed, mobile numbers as digits, an empty e-mail left out. */
export function createOrderPayload(visaProductId: number, values: CreateOrderFormValues): OrderCreatePayload {
  return {
    visa_product_id: visaProductId,
    consular_district_id: values.consular_district_id ?? null,
    departure_date: values.departure_date,
    order_date: values.order_date,
    applicants: values.applicants.map((applicant) => {
      const email = normalizeInputText(applicant.email ?? '');
      const passportNo = normalizeInputText(applicant.passport_no ?? '').toUpperCase();
      return {
        name: normalizeInputText(applicant.name ?? ''),
        identity_id: applicant.identity_id ?? 0,
        mobile_phone: mobileDigits(applicant.mobile_phone),
        ...(email ? { email } : {}),
        ...(passportNo ? { passport_no: passportNo } : {}),
        ...(applicant.passport_expiry ? { passport_expiry: applicant.passport_expiry } : {}),
      };
    }),
  };
}
