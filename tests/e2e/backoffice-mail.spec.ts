// Mailing paper materials end to end, with a customer context and an
// operator context (the test's own customer and operator). The order starts in 待邮寄资料: created through the API,
// then paid, taken and passed by the review through the order lifecycle in
// process (those stages have their own specs). First journey: the customer
// books an SF pickup on /order/order-mail-list, the sandbox courier pushes
// its tracking events (COURIER_SANDBOX_STEP_MS: 4 s apart), the page and the
// operator's mail panel show them, the operator marks the parcel received
// and the order moves to 待确认核对页. Second: self-express, the operator
// notes a missing item, the customer sends again, the operator receives.
// Screenshots at 1280 and 390 px.
import { expect } from '@playwright/test';
import { orderAwaitingMail } from './mail-support';
import { hydrated, loggedInTest, openWorkbenchFold, snap, staffPage } from './support';

loggedInTest(
  'customer books a pickup → tracking arrives → operator marks it received → 待确认核对页',
  async ({ page, browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(120_000);
    const id = await orderAwaitingMail(baseURL!, { customer, operator }, '林寄件');

    // The order list card's action leads to the mail list.
    await page.goto('/order/order-list');
    const card = page.locator(`[data-testid="order-card"][data-order-id="${id}"]`);
    await card.getByRole('button', { name: '寄送资料' }).click();
    await expect(page).toHaveURL(new RegExp(`/order/order-mail-list/${id}$`));
    const mail = page.getByTestId('mail-list-page');
    await expect(mail.getByTestId('mail-applicant')).toContainText('林寄件');
    await expect(mail.getByTestId('mail-receiving-address')).toBeVisible();
    await snap(page, 'mail/mail-list-1280');
    await mail.getByTestId('mail-send').scrollIntoViewIfNeeded();
    await snap(page, 'mail/mail-send-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'mail/mail-list-390');
    await mail.getByTestId('mail-send').scrollIntoViewIfNeeded();
    await snap(page, 'mail/mail-send-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Book the pickup with this test's address and the first window offered.
    await mail.getByTestId('mail-pickup-address').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '林寄件' }).first().click();
    await expect(mail.getByTestId('mail-pickup-address')).toContainText('林寄件');
    await mail.getByTestId('mail-pickup-submit').click();
    await expect(page.getByText(/已预约上门取件，运单号 SF\d{13}/)).toBeVisible();
    await expect(mail.getByTestId('shipment-status')).toHaveText('待揽收');
    await expect(mail.getByTestId('mail-send')).toHaveCount(0);

    // The sandbox pushes 揽收 … 签收, one event every few seconds; 刷新物流 shows what arrived.
    await expect(async () => {
      await mail.getByTestId('mail-refresh').click();
      await expect(mail.getByTestId('shipment-status')).toHaveText('已签收', { timeout: 2_000 });
    }).toPass({ timeout: 60_000, intervals: [2_000] });
    await expect(mail.getByTestId('shipment-routes')).toContainText('顺丰速运 已收取快件');
    await mail.getByTestId('mail-shipments').scrollIntoViewIfNeeded();
    await snap(page, 'mail/mail-tracking-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await mail.getByTestId('shipment-routes').scrollIntoViewIfNeeded();
    await snap(page, 'mail/mail-tracking-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The order detail shows the mail list and the courier info.
    await page.goto(`/order/order-detail/${id}`);
    await expect(page.getByTestId('detail-mail-list')).toContainText('林寄件');
    await expect(page.getByTestId('detail-express')).toContainText('已签收');
    await page.getByTestId('detail-mail-list').scrollIntoViewIfNeeded();
    await snap(page, 'mail/detail-mail-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('detail-express').scrollIntoViewIfNeeded();
    await snap(page, 'mail/detail-mail-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The operator: the workbench's mail panel, 已收到.
    const staff = await staffPage(browser, operator, baseURL!);
    await staff.goto(`/admin/orders/${id}`);
    const panel = staff.getByTestId('workbench-mail');
    await expect(panel.getByTestId('shipment-status')).toHaveText('已签收');
    await snap(staff, 'mail/workbench-mail');
    await panel.getByTestId('mail-receive').click();
    await staff.getByTestId('mail-receive-confirm').click();
    await expect(staff.getByTestId('workbench-step')).toHaveText('待确认核对页');
    // No longer the current task: the parcel is kept in the collapsed 邮寄资料 panel, without its actions.
    await expect(staff.getByTestId('fold-mail')).toContainText('1 个快递');
    await openWorkbenchFold(staff, 'mail');
    await expect(staff.getByTestId('workbench-mail').getByTestId('shipment-status')).toHaveText('已签收');
    await expect(staff.getByTestId('workbench-mail').getByTestId('mail-receive')).toHaveCount(0);

    // The customer sees it moved on.
    await page.goto(`/order/order-mail-list/${id}`);
    await expect(page.getByTestId('mail-state')).toContainText('纸质资料已收到');
    await page.goto(`/order/order-detail/${id}`);
    await expect(page.getByTestId('order-detail-page')).toContainText('待确认核对页');
    await staff.context().close();
  },
);

loggedInTest('self-express → operator notes a missing item → customer sends again → received', async ({ page, browser, baseURL, customer, operator }) => {
  loggedInTest.setTimeout(120_000);
  const id = await orderAwaitingMail(baseURL!, { customer, operator }, '苏自寄');
  await page.goto(`/order/order-mail-list/${id}`);
  const mail = page.getByTestId('mail-list-page');

  // The self-express dialog: company and waybill number.
  await mail.getByTestId('mail-self-express').click();
  const dialog = page.getByRole('dialog').filter({ hasText: '自行寄送' });
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('self-express-waybill').fill('1234567890');
  await dialog.getByTestId('self-express-submit').click();
  await expect(page.getByText('顺丰单号应为 SF 加 13 位数字（或 12 位数字）')).toBeVisible();
  await snap(page, 'mail/self-express-dialog-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'mail/self-express-dialog-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByTestId('self-express-waybill').fill('SF1234567890123');
  await dialog.getByTestId('self-express-submit').click();
  await expect(page.getByText('已提交快递信息')).toBeVisible();
  await expect(mail.getByTestId('shipment-waybill')).toHaveText('SF1234567890123');
  await expect(mail.getByTestId('shipment-status')).toHaveText('已揽收');

  // The operator: 缺少资料 with a note.
  const staff = await staffPage(browser, operator, baseURL!);
  await staff.goto(`/admin/orders/${id}`);
  // 缺少资料 opens a dialog of the hydrated page: a click before React has hydrated it does nothing.
  await hydrated(staff);
  const panel = staff.getByTestId('workbench-mail');
  await panel.getByTestId('mail-missing').click();
  await staff.getByTestId('mail-missing-note').fill('缺少林寄件的在职证明原件');
  await staff.getByTestId('mail-missing-confirm').click();
  await expect(panel).toContainText('已要求补寄：缺少林寄件的在职证明原件');

  // The customer is asked again and sends the rest.
  await page.reload();
  await expect(mail.getByTestId('mail-missing')).toContainText('缺少林寄件的在职证明原件');
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, 'mail/mail-missing-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await mail.getByTestId('mail-missing').scrollIntoViewIfNeeded();
  await snap(page, 'mail/mail-missing-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await mail.getByTestId('mail-self-express').click();
  await dialog.getByTestId('self-express-company').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '中通快递' }).click();
  await dialog.getByTestId('self-express-waybill').fill('731234567890');
  await dialog.getByTestId('self-express-submit').click();
  await expect(mail.getByTestId('shipment-card')).toHaveCount(2);
  await expect(mail.getByTestId('mail-missing')).toHaveCount(0);

  await staff.reload();
  await panel.getByTestId('mail-receive').click();
  await staff.getByTestId('mail-receive-confirm').click();
  await expect(staff.getByTestId('workbench-step')).toHaveText('待确认核对页');
  await staff.context().close();
});
