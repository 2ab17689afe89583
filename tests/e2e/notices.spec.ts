// Notices from the customer's side: an operator fails the materials review of
// an order (fired through the order lifecycle on the e2e database) → the
// header's bell counts it, /notice lists it with the page to act on, opening
// it marks it read and lands on the re-upload page, the e-mail arrives at the
// test SMTP server once; mark one read, mark all read; the order detail's
// schedule shows each step reached; phone width without overflow.
import { expect, type Page, test } from '@playwright/test';
import { fire, newCustomer, orderInReview } from './notice-support';
import { createOperator, logIn, mailbox, mailSubject, mailText, snap } from './support';

const bell = (page: Page) => page.getByTestId('header-notice-bell');

test('a failed review reaches the customer: bell, list, link, e-mail once, mark read', async ({ page, baseURL }) => {
  const address = `notice.${Date.now()}@example.com`;
  const customer = await newCustomer(address);
  const { principal: operator } = await createOperator();
  const userOrderId = await orderInReview(baseURL!, customer.account, customer.password);

  await page.goto('/');
  await logIn(page, customer.account, customer.password);
  await expect(bell(page)).toHaveAttribute('aria-label', '消息通知');

  await fire(userOrderId, 'material_review_failed', operator);
  // The bell is read again on the next page move.
  await page.getByRole('link', { name: '签证办理' }).first().click();
  await expect(bell(page)).toHaveAttribute('aria-label', '消息通知，1 条未读');
  await expect(bell(page).locator('sup')).toHaveText('1');

  await bell(page).click();
  await expect(page).toHaveURL(/\/notice$/);
  const item = page.getByTestId('notice-item');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('需要重新上传资料');
  // The readable order number (YD + date + id), not the raw id.
  await expect(item).toContainText(new RegExp(`订单号 YD\\d{8}0*${userOrderId}\\b`));
  await expect(item).toHaveClass(/notice-item--unread/);
  await snap(page, 'notices-list');

  // Opening it marks it read and leads to the page to act on.
  await item.getByTestId('notice-go').click();
  await expect(page).toHaveURL(new RegExp(`/order/order-reupload/${userOrderId}$`));
  await expect(bell(page)).toHaveAttribute('aria-label', '消息通知');

  // The e-mail arrived once, with the link to the re-upload page.
  await expect.poll(() => mailbox().filter((m) => m.to === address).length, { timeout: 15_000 }).toBe(1);
  const message = mailbox().find((m) => m.to === address)!;
  expect(mailSubject(message.raw)).toBe('【易签通】需要重新上传资料');
  expect(mailText(message.raw)).toContain(`${baseURL}/order/order-reupload/${userOrderId}`);

  // Two more: the customer re-submits (the assignee is told, not the customer), the review passes.
  await fire(userOrderId, 'reupload_submit', { kind: 'customer', accountId: customer.accountId, enterpriseId: customer.enterpriseId });
  await fire(userOrderId, { event: 'material_review_passed', to: 'processing:page_check' }, operator);
  await page.goto('/notice');
  await expect(page.getByTestId('notice-item')).toHaveCount(2);
  await expect(page.getByTestId('notice-item').first()).toContainText('资料审核通过');
  await expect(bell(page)).toHaveAttribute('aria-label', '消息通知，1 条未读');
  await page.getByTestId('notice-mark-read').click();
  await expect(page.getByTestId('notice-item').first()).not.toHaveClass(/notice-item--unread/);
  await expect(bell(page)).toHaveAttribute('aria-label', '消息通知');
  await expect(page.getByTestId('notice-read-all')).toBeDisabled();
  await expect.poll(() => mailbox().filter((m) => m.to === address).length, { timeout: 15_000 }).toBe(2);

  // 全部标为已读: two page checks published (issue 10's kind, its template is ready).
  await fire(userOrderId, 'page_check_publish', operator);
  await fire(userOrderId, 'page_check_publish', operator);
  await page.reload();
  await expect(bell(page)).toHaveAttribute('aria-label', '消息通知，2 条未读');
  await expect(page.getByTestId('notice-item').first()).toContainText('请确认核对页');
  await page.getByTestId('notice-read-all').click();
  await expect(page.locator('.notice-item--unread')).toHaveCount(0);
  await expect(bell(page)).toHaveAttribute('aria-label', '消息通知');
  await expect.poll(() => mailbox().filter((m) => m.to === address).length, { timeout: 15_000 }).toBe(4);

  // The order detail's schedule: each step reached and when.
  await page.goto(`/order/order-detail/${userOrderId}`);
  const steps = page.getByTestId('order-schedule');
  for (const label of ['提交订单', '支付成功', '资料审核', '重新上传资料', '确认核对页'])
    await expect(steps.getByText(label, { exact: true }).first()).toBeVisible();
  await steps.scrollIntoViewIfNeeded();
  await snap(page, 'notices-order-schedule');

  // Phone width: the header with its bell and the list fit.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/notice');
  await expect(bell(page)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, 'notices-phone');
  await page.goto(`/order/order-detail/${userOrderId}`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByTestId('order-schedule').scrollIntoViewIfNeeded();
  await snap(page, 'notices-order-schedule-phone');
});

test('another account sees none of these notices, and a guest is asked to log in', async ({ page, baseURL }) => {
  const owner = await newCustomer(null);
  const { principal: operator } = await createOperator();
  const userOrderId = await orderInReview(baseURL!, owner.account, owner.password);
  await fire(userOrderId, 'material_review_failed', operator);
  const other = await newCustomer(null);

  await page.goto('/notice');
  await expect(page.getByRole('dialog').getByText('欢迎使用易签通')).toBeVisible();
  await page.goto('/');
  await logIn(page, other.account, other.password);
  await page.goto('/notice');
  await expect(page.getByText('暂无消息')).toBeVisible();
  await expect(bell(page)).toHaveAttribute('aria-label', '消息通知');
  await snap(page, 'notices-empty');
});
