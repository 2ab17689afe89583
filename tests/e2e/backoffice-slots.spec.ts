// 产品管理 · 面试时段 end to end (issue 26): with a consulate's slots for two
// weeks generated through the API (times no standard plan has; the 批量生成
// form is in the catalogue journey, backoffice-catalogue.spec.ts), a
// supervisor closes one of the days and tries to reduce a booked slot below
// its bookings (refused with the numbers) before reducing it to what is
// allowed; a customer's interview-time picker then offers the generated
// times, not the closed day.
// The consulate is the test's own (createProduct's 'own' district), so its
// days are this test's alone. Screenshots at 1280 px under screenshots/tmp/slots/.
import { expect, test } from '@playwright/test';
import { addDays, chinaDate } from '../../common/order';
import { animationsSettled, apiCall, createProduct, e2eDatabase, hydrated, loggedInTest, operatorSessionToken, snap, staffPage, typeInPicker } from './support';

/** The days of the district that got the generated 08:15 slot, in date order. */
function generatedDays(districtId: number): string[] {
  const db = e2eDatabase();
  try {
    return (
      db.prepare(`select slot_date from interview_slot where consular_district_id = ? and start_time = '08:15' order by slot_date`).all(districtId) as Array<{
        slot_date: string;
      }>
    ).map((row) => row.slot_date);
  } finally {
    db.close();
  }
}

/** 12月8日 as the picker shows a date. */
const shortDate = (date: string) => `${Number(date.slice(5, 7))}月${Number(date.slice(8, 10))}日`;

loggedInTest(
  'a supervisor closes a day of generated slots and cannot reduce a booked slot below its bookings; the customer sees it at once',
  async ({ page, browser, baseURL, supervisor, customer }) => {
    test.setTimeout(180_000);
    const product = await createProduct({ interview: true, district: 'own' });
    const districtId = product.consular_district_id!;
    // Two weeks starting on the Monday at least a week ahead: inside every customer's booking window.
    const today = chinaDate(Date.now());
    let from = addDays(today, 7);
    while (new Date(`${from}T00:00:00Z`).getUTCDay() !== 1) from = addDays(from, 1);
    const to = addDays(from, 11);

    // The slots, generated through the call the 批量生成 form makes (the form itself is in the catalogue
    // journey, backoffice-catalogue.spec.ts): Monday to Friday, 08:15–08:45 and 13:00–13:40, two places each.
    const generated = await apiCall<{ created: number; days: number }>(
      baseURL!,
      '/admin-api/catalogue/slot_generate',
      {
        consular_district_id: districtId,
        from,
        to,
        weekdays: [1, 2, 3, 4, 5],
        times: [
          { start: '08:15', end: '08:45' },
          { start: '13:00', end: '13:40' },
        ],
        capacity: 2,
      },
      await operatorSessionToken(supervisor),
    );
    const days = generatedDays(districtId);
    // Ten weekdays, less any Chinese holiday among them (skipped).
    expect(days.length).toBeGreaterThanOrEqual(3);
    expect(generated).toMatchObject({ created: days.length * 2, days: days.length });

    const staff = await staffPage(browser, supervisor, baseURL!, { viewport: { width: 1280, height: 900 } });
    await staff.goto(`/admin/catalogue/slots?district=${districtId}&from=${from}`);
    await hydrated(staff);
    await expect(staff.getByRole('heading', { name: '面试时段' })).toBeVisible();
    await expect(staff.getByRole('link', { name: '面试时段' })).toBeVisible();
    const firstRow = staff.locator('tr', { has: staff.locator(`[data-date="${days[0]}"]`) });
    await expect(firstRow.getByTestId('slots-chip')).toHaveText(['08:15–08:45 0/2', '13:00–13:40 0/2']);
    await animationsSettled(staff);
    await snap(staff, 'tmp/slots/01-generated');

    // 闭馆日: the second generated day.
    const closed = days[1]!;
    await typeInPicker(staff, 'slots-closure-date', closed);
    await staff.getByLabel('原因').fill('领馆内部活动');
    await staff.getByTestId('slots-closure-add').click();
    await expect(staff.getByTestId('slots-closure')).toContainText([`${closed} 领馆内部活动`]);
    await expect(staff.locator('tr', { has: staff.locator(`[data-date="${closed}"]`) })).toContainText('闭馆：领馆内部活动');

    // The customer books both of an order's applicants on the third day's 08:15 (two places: now full).
    const booked = days[2]!;
    const first = await apiCall<{ user_order_id: number }>(
      baseURL!,
      '/www/order/order_create',
      {
        visa_product_id: product.visa_product_id,
        departure_date: addDays(to, 5),
        applicants: [
          { name: '周一鸣', identity_id: 0, mobile_phone: '13812345678' },
          { name: '周二鸣', identity_id: 0, mobile_phone: '13912345678' },
        ],
      },
      customer.token,
    );
    const list = await apiCall<{
      dates: Array<{ date: string; slots: Array<{ interview_slot_id: number; start_time: string }> }>;
      applicants: Array<{ applicant_id: number }>;
    }>(baseURL!, '/www/order/interview_slot_list', { user_order_id: first.user_order_id }, customer.token);
    const slot = list.dates.find((d) => d.date === booked)!.slots.find((s) => s.start_time === '08:15')!;
    await apiCall(
      baseURL!,
      '/www/order/interview_time_choose',
      {
        user_order_id: first.user_order_id,
        choices: list.applicants.map((a) => ({ applicant_id: a.applicant_id, interview_slot_id: slot.interview_slot_id })),
      },
      customer.token,
    );

    // The supervisor reduces that slot: below the bookings is refused with the numbers, down to them is not.
    await staff.reload();
    await hydrated(staff);
    const bookedRow = staff.locator('tr', { has: staff.locator(`[data-date="${booked}"]`) });
    await bookedRow.getByTestId('slots-chip').filter({ hasText: '08:15–08:45' }).click();
    const dialog = staff.getByRole('dialog');
    await expect(dialog.getByTestId('slot-booked')).toHaveText('2');
    await dialog.getByLabel('容量').fill('1');
    await dialog.getByRole('button', { name: '保存容量' }).click();
    await expect(dialog.getByTestId('slot-error')).toContainText('已有 2 人预约，容量不能少于 2（想改为 1）');
    await animationsSettled(staff);
    await snap(staff, 'tmp/slots/02-reduce-refused');
    await dialog.getByRole('button', { name: '删除时段' }).click();
    await expect(dialog.getByTestId('slot-error')).toContainText('已有 2 人预约，不能删除');
    await dialog.getByLabel('容量').fill('3');
    await dialog.getByRole('button', { name: '保存容量' }).click();
    await expect(dialog).toBeHidden();
    await expect(bookedRow.getByTestId('slots-chip').first()).toHaveText('08:15–08:45 2/3');
    await expect(staff.getByTestId('slots-changes')).toContainText(`${booked}`);
    await expect(staff.getByTestId('slots-changes')).toContainText('容量 2 → 3（已约 2）');
    await animationsSettled(staff);
    await snap(staff, 'tmp/slots/03-after');
    await staff.setViewportSize({ width: 390, height: 844 });
    await animationsSettled(staff);
    await snap(staff, 'tmp/slots/03-after-390');

    // The customer's picker, for a new order: the generated times, not the closed day.
    const second = await apiCall<{ user_order_id: number }>(
      baseURL!,
      '/www/order/order_create',
      {
        visa_product_id: product.visa_product_id,
        departure_date: addDays(to, 5),
        applicants: [{ name: '钱三多', identity_id: 0, mobile_phone: '13712345678' }],
      },
      customer.token,
    );
    await page.goto(`/ordering/choose-interview-time/${second.user_order_id}`);
    await expect(page.getByTestId('interview-consulate')).toBeVisible();
    await hydrated(page);
    await page.getByTestId('interview-date').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect(options.filter({ hasText: shortDate(days[0]!) })).toHaveCount(1);
    await expect(options.filter({ hasText: shortDate(closed) })).toHaveCount(0);
    await options.filter({ hasText: shortDate(booked) }).click();
    // Each time's label (the radio's own element carries the test id).
    const times = page.getByTestId('interview-applicant').locator('label.ci-time');
    await expect(times).toHaveCount(2);
    await expect(times.nth(0)).toContainText('08:15–08:45');
    await expect(times.nth(0)).toContainText('余 1');
    await expect(times.nth(1)).toContainText('13:00–13:40');
    await expect(times.nth(1)).toContainText('余 2');
    await snap(page, 'tmp/slots/04-customer-picker');
  },
);
