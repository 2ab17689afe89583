import { describe, expect, it } from 'vitest';
import {
  CREATE_ORDER_MESSAGES as M,
  type ApplicantValues,
  createOrderPayload,
  departureError,
  emailError,
  isDuplicateApplicant,
  mobileError,
  nameError,
  orderDateError,
} from './create-order-rules';

const TODAY = '2026-12-01';

describe('applicant checks mirror the server', () => {
  it('name: trimmed, 1–30 characters counted as code points', () => {
    expect(nameError(undefined)).toBe(M.nameRequired);
    expect(nameError('\u3000 ')).toBe(M.nameRequired);
    expect(nameError('张三')).toBeNull();
    expect(nameError('𠀀'.repeat(30))).toBeNull(); // 60 UTF-16 units, 30 characters
    expect(nameError('李'.repeat(31))).toBe(M.nameLength);
  });
  it('mobile: spaces and hyphens removed, then 1[3-9] and 9 digits', () => {
    expect(mobileError('')).toBe(M.mobileRequired);
    expect(mobileError('138 0013-8000')).toBeNull();
    expect(mobileError('12800138000')).toBe(M.mobile);
    expect(mobileError('1380013800')).toBe(M.mobile);
  });
  it('e-mail: optional, spec §5 pattern', () => {
    expect(emailError(undefined)).toBeNull();
    expect(emailError('  ')).toBeNull();
    expect(emailError('a.b@example.com')).toBeNull();
    expect(emailError('a@b')).toBe(M.email);
  });
  it('marks the later of two applicants with the same name and mobile', () => {
    const list = [
      { name: '张三', mobile_phone: '13800138000' },
      { name: '李四', mobile_phone: '13800138000' },
      { name: ' 张三 ', mobile_phone: '138-0013-8000' },
    ];
    expect(isDuplicateApplicant(list, 0)).toBe(false);
    expect(isDuplicateApplicant(list, 1)).toBe(false);
    expect(isDuplicateApplicant(list, 2)).toBe(true);
    expect(
      isDuplicateApplicant(
        [
          { name: '', mobile_phone: '' },
          { name: '', mobile_phone: '' },
        ],
        1,
      ),
    ).toBe(false);
  });
});

describe('dates (China time)', () => {
  it('departure: today up to 366 days ahead', () => {
    expect(departureError(null, TODAY)).toBe(M.departureRequired);
    expect(departureError('2026-11-30', TODAY)).toBe(M.departurePast);
    expect(departureError(TODAY, TODAY)).toBeNull();
    expect(departureError('2027-12-02', TODAY)).toBeNull(); // 366 days
    expect(departureError('2027-12-03', TODAY)).toBe(M.departureTooFar);
  });
  it('order date: today up to the departure date', () => {
    expect(orderDateError(null, null, TODAY)).toBe(M.orderDateRequired);
    expect(orderDateError('2026-11-30', null, TODAY)).toBe(M.orderDatePast);
    expect(orderDateError('2026-12-05', '2026-12-04', TODAY)).toBe(M.orderDateAfterDeparture);
    expect(orderDateError('2026-12-04', '2026-12-04', TODAY)).toBeNull();
  });
});

describe('createOrderPayload', () => {
  it('sends trimmed names, mobile digits, and no empty e-mail', () => {
    expect(
      createOrderPayload(12, {
        consular_district_id: 3,
        departure_date: '2026-12-20',
        order_date: TODAY,
        applicants: [
          { name: ' 张三 ', identity_id: 0, mobile_phone: '138 0013 8000', email: '' },
          {
            name: '李四',
            identity_id: 3,
            mobile_phone: '13900139000',
            email: ' li@example.com ',
            passport_no: 'e1234567',
            passport_expiry: '2030-01-31',
            // The saved traveller's fields stay on the page: not the order's.
            pinyin: 'LI SI',
            save_traveller: true,
          } as ApplicantValues,
        ],
      }),
    ).toEqual({
      visa_product_id: 12,
      consular_district_id: 3,
      departure_date: '2026-12-20',
      order_date: TODAY,
      applicants: [
        { name: '张三', identity_id: 0, mobile_phone: '13800138000' },
        { name: '李四', identity_id: 3, mobile_phone: '13900139000', email: 'li@example.com', passport_no: 'E1234567', passport_expiry: '2030-01-31' },
      ],
    });
  });
});
