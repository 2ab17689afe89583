// A customer picks interview times for two applicants of a draft order (made
// through the API: the materials need not be complete to choose a time),
// confirms in the dialog and lands on the confirm page; a time that fills up
// meanwhile is refused and the page shows the places as they are now.
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { chinaDate, addDays } from '../../common/order';
import { createProduct, e2eDatabase, loggedInTest, signedApiHeaders, snap } from './support';

async function api<T>(request: APIRequestContext, path: string, payload: object, token?: string): Promise<T> {
  const response = await request.post(path, { data: payload, headers: signedApiHeaders(token) });
  const body = (await response.json()) as { ret: number; msg: string; body: T };
  if (body.ret !== 0) throw new Error(`${path}: ${body.ret} ${body.msg}`);
  return body.body;
}

/** A product of the test's own: with an interview at a consulate of its own (so its times are the test's alone), or without one. */
async function product(needInterview: boolean): Promise<number> {
  const created = await createProduct(needInterview ? { interview: true, district: 'own' } : { interview: false });
  return created.visa_product_id;
}

async function draftOrder(request: APIRequestContext, token: string, needInterview = true): Promise<number> {
  const created = await api<{ user_order_id: number }>(
    request,
    '/www/order/order_create',
    {
      visa_product_id: await product(needInterview),
      departure_date: addDays(chinaDate(Date.now()), 30),
      applicants: [
        { name: '林晓雨', identity_id: 0, mobile_phone: '13812345678' },
        { name: '林大山', identity_id: 2, mobile_phone: '13912345678' },
      ],
    },
    token,
  );
  return created.user_order_id;
}

async function openPage(page: Page, userOrderId: number) {
  await page.goto(`/ordering/choose-interview-time/${userOrderId}`);
  await expect(page.getByTestId('interview-consulate')).toBeVisible();
}

/** Picks the first open time of the given day (0 = first date) for the applicant card. */
async function pickTime(page: Page, applicant: number, dateIndex: number, timeIndex = 0) {
  const card = page.getByTestId('interview-applicant').nth(applicant);
  if (dateIndex > 0) {
    await card.getByTestId('interview-date').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').nth(dateIndex).click();
  }
  const time = card.getByRole('radio').and(page.locator(':enabled')).nth(timeIndex);
  await time.check();
  return card;
}

function bookings(userOrderId: number) {
  const db = e2eDatabase();
  const rows = db
    .prepare(
      `select a.name, s.slot_date, s.start_time, s.booked from order_applicant a left join interview_slot s on s.interview_slot_id = a.interview_slot_id
       where a.user_order_id = ? order by a.sort`,
    )
    .all(userOrderId) as Array<{ name: string; slot_date: string | null; start_time: string | null; booked: number | null }>;
  db.close();
  return rows;
}

loggedInTest('two applicants choose their times, confirm in the dialog and go on to the confirm page', async ({ page, request, customer }) => {
  const userOrderId = await draftOrder(request, customer.token);
  await openPage(page, userOrderId);
  await expect(page.locator('.ordering-steps .ant-steps-item-process')).toContainText('选择面试时间');
  await expect(page.getByTestId('interview-applicant')).toHaveCount(2);
  await snap(page, 'interview/e2e-page');

  // Confirming without a time for everyone names who is missing.
  await page.getByTestId('interview-confirm').click();
  await expect(page.getByText('请为林晓雨、林大山选择面试时间')).toBeVisible();

  const first = await pickTime(page, 0, 0, 1);
  await expect(first.getByTestId('interview-chosen')).toBeVisible();
  const second = await pickTime(page, 1, 2, 3);
  await expect(second.getByTestId('interview-chosen')).toBeVisible();
  const chosen = [await first.getByTestId('interview-chosen').innerText(), await second.getByTestId('interview-chosen').innerText()].map((text) => text.trim());

  await page.getByTestId('interview-confirm').click();
  const dialog = page.getByTestId('interview-confirm-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('林晓雨');
  await expect(dialog).toContainText(chosen[0]!);
  await expect(dialog).toContainText(chosen[1]!);
  await snap(page, 'interview/e2e-dialog');
  await page.getByTestId('interview-confirm-submit').click();

  await page.waitForURL(`**/ordering/order-confirm/${userOrderId}`);
  const booked = bookings(userOrderId);
  expect(booked.map((b) => b.name)).toEqual(['林晓雨', '林大山']);
  for (const [i, row] of booked.entries()) {
    expect(row.slot_date).not.toBeNull();
    expect(chosen[i]).toContain(row.start_time!);
    expect(row.booked).toBeGreaterThanOrEqual(1);
  }
});

loggedInTest('a time that filled up meanwhile is refused and the places are reloaded', async ({ page, request, customer }) => {
  const userOrderId = await draftOrder(request, customer.token);
  await openPage(page, userOrderId);
  await pickTime(page, 0, 0, 0);
  await pickTime(page, 1, 0, 0);
  // Someone else takes the last places of that time before we confirm.
  const db = e2eDatabase();
  const slot = db
    .prepare(
      `select s.interview_slot_id as id, s.slot_date, s.start_time from interview_slot s join user_order o on o.consular_district_id = s.consular_district_id
       where o.user_order_id = ? and s.booked < s.capacity order by s.slot_date, s.start_time limit 1`,
    )
    .get(userOrderId) as { id: number; slot_date: string; start_time: string };
  db.prepare('update interview_slot set booked = capacity where interview_slot_id = ?').run(slot.id);
  db.close();

  await page.getByTestId('interview-confirm').click();
  await page.getByTestId('interview-confirm-submit').click();
  await expect(page.getByTestId('interview-refusal')).toContainText('已约满');
  await expect(page.getByTestId('interview-confirm-dialog')).toBeHidden();
  // The full time is disabled now and nobody holds it.
  const card = page.getByTestId('interview-applicant').first();
  await expect(card.getByRole('radio').first()).toBeDisabled();
  await expect(card.getByText('请选择面试时间')).toBeVisible();
  expect(bookings(userOrderId).every((b) => b.slot_date === null)).toBe(true);
  expect(page.url()).toContain(`/ordering/choose-interview-time/${userOrderId}`);
});

loggedInTest('an order whose product needs no interview goes straight to the confirm page', async ({ page, request, customer }) => {
  const userOrderId = await draftOrder(request, customer.token, false);
  await page.goto(`/ordering/choose-interview-time/${userOrderId}`);
  await page.waitForURL(`**/ordering/order-confirm/${userOrderId}`);
});
