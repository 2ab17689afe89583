// Issue 10's "done when", end to end with an operator context and a customer
// context (the test's own operator and customer): a paid order of a product with mailed paper materials and an
// interview goes material review → 待邮寄资料 (self-express) → 待确认核对页 →
// 待面试/录指纹 (notice published) → 已递交使馆, with a price difference asked
// and paid in the sandbox on the way (submit is refused while it is open).
// Setup through the API (the customer's order, interview time, materials,
// confirm, payment on the sandbox); every stage's transition through the UI of
// the side that makes it. The stage specs cover each stage's details.
import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { FIXTURES } from '../fixtures/index';
import { e2eCall } from './interview-support';
import { e2eDatabase, hydrated, loggedInTest, openWorkbenchFold, signedApiHeaders, staffPage } from './support';

interface SlotList {
  dates: Array<{ date: string; slots: Array<{ interview_slot_id: number; full: boolean }> }>;
  applicants: Array<{ applicant_id: number }>;
}

/** A paid order (processing · material_review) of the customer, of a product with mailed materials and an interview; the customer's steps through the API. */
async function paidInterviewOrder(baseURL: string, token: string, name: string): Promise<number> {
  const db = e2eDatabase();
  const product = db
    .prepare(
      `select p.visa_product_id as id from visa_product p
       where p.status = 0 and p.channel = 0 and p.offline = 1 and p.need_interview = 1 and p.consular_district_id is not null
         and exists (select 1 from visa_product_material m where m.visa_product_id = p.visa_product_id and m.attr = 1 and m.identity_id = 0)
       order by p.visa_product_id limit 1`,
    )
    .get() as { id: number };
  db.close();
  const departure = new Date(Date.now() + 60 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id: id } = await e2eCall<{ user_order_id: number }>(
    baseURL,
    '/www/order/order_create',
    { visa_product_id: product.id, departure_date: departure, applicants: [{ name, identity_id: 0, mobile_phone: '13600136088' }] },
    token,
  );
  const list = await e2eCall<SlotList>(baseURL, '/www/order/interview_slot_list', { user_order_id: id }, token);
  const slot = list.dates.flatMap((d) => d.slots).find((s) => !s.full)!;
  await e2eCall(
    baseURL,
    '/www/order/interview_time_choose',
    { user_order_id: id, choices: [{ applicant_id: list.applicants[0]!.applicant_id, interview_slot_id: slot.interview_slot_id }] },
    token,
  );
  const detail = await e2eCall<{ missing_materials: Array<{ applicant_id: number; material_id: number | null }> }>(
    baseURL,
    '/www/order/order_detail_get',
    { user_order_id: id },
    token,
  );
  for (const item of detail.missing_materials) {
    const form = new FormData();
    form.append('user_order_id', String(id));
    form.append('applicant_id', String(item.applicant_id));
    if (item.material_id === null) form.append('kind', 'photo');
    else form.append('material_id', String(item.material_id));
    form.append('file', new Blob([new Uint8Array(readFileSync(FIXTURES.photo))], { type: 'image/jpeg' }), 'scan.jpg');
    const response = await fetch(`${baseURL}/www/order/material_upload`, { method: 'POST', headers: signedApiHeaders(token), body: form });
    const envelope = (await response.json()) as { ret: number; msg: string };
    expect(envelope.ret, envelope.msg).toBe(0);
  }
  const address = await e2eCall<{ address_id: number }>(
    baseURL,
    '/www/address/address_save',
    { kind: 'return', name, mobile_phone: '13600136088', province_code: '440000', city_code: '440300', county_code: '440305', detail: '科技园南区 2 号' },
    token,
  );
  await e2eCall(baseURL, '/www/order/order_confirm', { user_order_id: id, address_id: address.address_id, insurance_plan_id: null }, token);
  const payment = await e2eCall<{ out_trade_no: string }>(baseURL, '/www/payment/payment_create', { user_order_id: id, channel: 'wechat' }, token);
  const confirmed = await fetch(`${baseURL}/sandbox/pay/${payment.out_trade_no}/confirm`, { method: 'POST', redirect: 'manual' });
  expect(confirmed.status).toBeLessThan(400);
  await expect
    .poll(async () => (await e2eCall<{ status: string }>(baseURL, '/www/order/order_detail_get', { user_order_id: id }, token)).status, { timeout: 15_000 })
    .toBe('processing');
  return id;
}

loggedInTest(
  'paid order → review → self-express mailing → page check → interview notice, price difference paid → submitted',
  async ({ page, browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(240_000);
    const name = '贺连环';
    const id = await paidInterviewOrder(baseURL!, customer.token, name);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/order/order-detail/${id}`);
    await expect(page.getByTestId('order-detail-page')).toContainText('资料审核中');

    // Operator: take the order from the queue, pass every file → 待邮寄资料.
    const staff = await staffPage(browser, operator, baseURL!, { locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    await staff.goto(`/admin/orders?q=${id}`);
    // 领取 is a button of the hydrated page: a click before React has hydrated it does nothing.
    await hydrated(staff);
    const row = staff.locator('tr', { has: staff.getByRole('link', { name: new RegExp(`^YD\\d{8}0*${id}$`) }) });
    await expect(row).toContainText('资料审核中');
    await row.getByTestId('queue-take').click();
    await expect(staff).toHaveURL(new RegExp(`/admin/orders/${id}$`));
    const files = staff.getByTestId('review-file');
    await expect(files.first()).toBeVisible();
    const count = await files.count();
    for (let i = 0; i < count; i += 1) {
      await files.nth(i).click();
      await staff.getByTestId('review-pass').click();
      if (i < count - 1) await expect(files.nth(i)).toHaveAttribute('data-review-status', 'passed');
    }
    // The round ended by itself and the workbench moved on (the next order of the queue, or the queue).
    await expect(staff).not.toHaveURL(new RegExp(`/admin/orders/${id}$`));
    await staff.goto(`/admin/orders/${id}`);
    await expect(staff.getByTestId('workbench-step')).toHaveText('待邮寄资料');

    // Customer: self-express from the mail list.
    await page.goto('/order/order-list');
    const card = page.locator(`[data-testid="order-card"][data-order-id="${id}"]`);
    await card.getByRole('button', { name: '寄送资料' }).click();
    await expect(page).toHaveURL(new RegExp(`/order/order-mail-list/${id}$`));
    const mail = page.getByTestId('mail-list-page');
    await mail.getByTestId('mail-self-express').click();
    const expressDialog = page.getByRole('dialog').filter({ hasText: '自行寄送' });
    await expressDialog.getByTestId('self-express-waybill').fill('SF1234567890123');
    await expressDialog.getByTestId('self-express-submit').click();
    await expect(mail.getByTestId('shipment-waybill')).toHaveText('SF1234567890123');

    // Operator: received → 待确认核对页.
    await staff.reload();
    await staff.getByTestId('workbench-mail').getByTestId('mail-receive').click();
    await staff.getByTestId('mail-receive-confirm').click();
    await expect(staff.getByTestId('workbench-step')).toHaveText('待确认核对页');

    // Operator: upload and publish the applicant's pages.
    const pageCheck = staff.getByTestId('page-check-panel-applicant').filter({ hasText: name });
    await pageCheck.locator('input[type=file]').setInputFiles(FIXTURES.pdf);
    await expect(pageCheck.getByTestId('page-check-panel-page')).toHaveCount(1);
    await pageCheck.getByTestId('page-check-publish').click();
    await expect(pageCheck).toHaveAttribute('data-status', 'published');

    // Customer: confirms the pages → 待面试/录指纹.
    await page.goto('/order/order-list');
    await card.getByRole('button', { name: '确认核对页' }).click();
    await expect(page).toHaveURL(new RegExp(`/order/order-page-check/${id}$`));
    const section = page.getByTestId('page-check-applicant').filter({ hasText: name });
    await section.getByTestId('page-check-confirm').click();
    await page.getByRole('dialog').getByRole('button', { name: '确认无误' }).click();
    await expect(section).toHaveAttribute('data-status', 'confirmed');
    await page.goto(`/order/order-detail/${id}`);
    await expect(page.getByTestId('order-detail-page')).toContainText('待面试/录指纹');

    // Operator: a price difference, then the interview notice.
    await staff.reload();
    await expect(staff.getByTestId('workbench-step')).toHaveText('待面试/录指纹');
    await openWorkbenchFold(staff, 'price-difference');
    const difference = staff.getByTestId('workbench-price-difference');
    await difference.getByLabel('金额（元）').fill('50');
    await difference.getByLabel('原因').fill('加急面试预约费');
    await difference.getByTestId('price-difference-request').click();
    await expect(difference.getByTestId('price-difference-row')).toContainText('待支付');
    // (A fresh page: the panels load the order's version on their own; the request just changed it.)
    await staff.reload();
    const interview = staff.getByTestId('interview-panel');
    await interview.getByTestId('interview-publish').click();
    await expect(interview.getByText('已发布')).toBeVisible();

    // Submit is not offered while the price difference is unpaid: its reason is shown instead (issue 27).
    await staff.reload();
    await openWorkbenchFold(staff, 'events');
    await expect(staff.getByTestId('workbench-events')).toContainText('发布面试');
    await expect(staff.getByTestId('workbench-blocked')).toContainText('该订单有未支付的补差价，客户支付后才能递交');
    await expect(staff.getByTestId('page-check-submit-blocked')).toContainText('该订单有未支付的补差价，客户支付后才能递交');
    await expect(staff.getByTestId('page-check-submit')).toHaveCount(0);
    await expect(staff.getByTestId('workbench-step')).toHaveText('待面试/录指纹');

    // Customer: reads the notice, pays the price difference in the sandbox.
    await page.goto('/order/order-list');
    await card.getByTestId('order-action-view_interview_notice').click();
    await expect(page).toHaveURL(new RegExp(`/order/order-interview-notification/${id}$`));
    await expect(page.getByTestId('interview-notice-page').getByTestId('interview-info')).toBeVisible();
    await page.goto('/order/order-list');
    await card.getByTestId('order-action-pay_price_difference').click();
    const repay = page.getByTestId('order-price-difference');
    await repay.getByTestId('price-difference-pay').click();
    const payDialog = page.getByRole('dialog').filter({ hasText: '支付补差价' });
    await expect(payDialog.getByTestId('pay-qrcode')).toBeVisible();
    const phone = await page.context().newPage();
    await phone.goto((await payDialog.getByTestId('pay-sandbox-link').getAttribute('href'))!);
    await phone.getByRole('button', { name: '确认支付' }).click();
    await expect(phone.getByText('支付成功', { exact: true })).toBeVisible();
    await phone.close();
    await expect(payDialog.getByTestId('pay-outcome-success')).toBeVisible({ timeout: 20_000 });
    await expect(repay.getByTestId('price-difference-record')).toContainText('已支付');

    // Operator: sees it paid and submits → 已递交使馆.
    await staff.reload();
    await expect(difference.getByTestId('price-difference-row')).toContainText('已支付');
    await staff.getByTestId('page-check-submit').click();
    await staff.getByRole('button', { name: '确认递交' }).click();
    await expect(staff.getByTestId('page-check-submitted')).toBeVisible();
    await expect(staff.getByTestId('workbench-step')).toHaveText('已递交使馆');

    // Customer: the order detail says so.
    await page.goto(`/order/order-detail/${id}`);
    await expect(page.getByTestId('order-detail-page')).toContainText('已递交使馆');
    await expect(page.getByTestId('order-submitted-date')).toBeVisible();

    const db = e2eDatabase();
    const events = db.prepare('select event from order_event where user_order_id = ? order by event_id').all(id) as Array<{ event: string }>;
    db.close();
    const names = events.map((e) => e.event);
    for (const event of [
      'pay',
      'material_review_passed',
      'mail_send',
      'mail_receive',
      'page_check_publish',
      'page_check_done',
      'price_difference_request',
      'interview_notice_publish',
      'price_difference_pay',
      'submit',
    ]) {
      expect(names).toContain(event);
    }
    expect(names.indexOf('submit')).toBeGreaterThan(names.indexOf('price_difference_pay'));
    await staff.context().close();
  },
);
