// The price difference (补差价) end to end with two browser contexts (the
// test's own customer and operator): an order of the customer is paid through the real payment path (payment_create
// → the sandbox's pay page → its signed notification) so it is processing;
// an operator asks for ¥50 with a reason in the workbench's panel; the
// customer finds the order under 需要处理 with 补差价, pays it in the payment
// dialog on the sandbox's page; both sides see it paid and the order's
// payment section shows both payments and the paid total. Screenshots of the
// detail's repay section (1280 and 390 px) and of the operator's panel.
import { expect, type Page } from '@playwright/test';
import { formatPrice } from '../../common/format';
import { paidOrder } from './results-support';
import { animationsSettled, loggedInTest, openWorkbenchFold, snap, staffPage } from './support';

async function repaySection(page: Page) {
  const section = page.getByTestId('order-price-difference');
  await section.scrollIntoViewIfNeeded();
  return section;
}

loggedInTest(
  'operator asks ¥50 → customer sees 需要处理 + 补差价, pays in the sandbox → both sides see it paid; totals show both payments',
  async ({ page, browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(180_000);
    const { userOrderId, total } = await paidOrder(baseURL!, customer, [{ name: '韩补差', mobile_phone: '13600136050' }]);

    // The operator: the workbench's panel, ¥50 with a reason.
    const staff = await staffPage(browser, operator, baseURL!);
    await staff.goto(`/admin/orders/${userOrderId}`);
    await openWorkbenchFold(staff, 'price-difference');
    const panel = staff.getByTestId('workbench-price-difference');
    await expect(panel.getByTestId('price-difference-form')).toBeVisible();
    await panel.getByLabel('金额（元）').fill('50');
    await panel.getByLabel('原因').fill('使馆签证费上调，需补交差额');
    await panel.getByTestId('price-difference-request').click();
    await expect(panel.getByTestId('price-difference-row')).toContainText('待支付');
    await expect(panel.getByTestId('price-difference-summary')).toContainText(`待支付 ${formatPrice(5_000)}`);
    await expect(panel.getByTestId('price-difference-form')).toHaveCount(0);
    await panel.scrollIntoViewIfNeeded();
    await snap(staff, 'price-difference/workbench-open');

    // The customer: 需要处理 holds the order, its card offers 补差价.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/order/order-list');
    await page.getByTestId('order-tab-action').click();
    const card = page.locator(`[data-testid="order-card"][data-order-id="${userOrderId}"]`);
    await expect(card).toBeVisible();
    await card.getByTestId('order-action-pay_price_difference').click();
    await expect(page).toHaveURL(new RegExp(`/order/order-detail/${userOrderId}#repay-price-difference$`));
    let section = await repaySection(page);
    await expect(section.getByTestId('price-difference-open')).toContainText(formatPrice(5_000));
    await expect(section).toContainText('使馆签证费上调，需补交差额');
    await snap(page, 'price-difference/detail-open-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await section.scrollIntoViewIfNeeded();
    await snap(page, 'price-difference/detail-open-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Pays it in the payment dialog: the sandbox's pay page on a "phone".
    await section.getByTestId('price-difference-pay').click();
    const dialog = page.getByRole('dialog').filter({ hasText: '支付补差价' });
    await expect(dialog.getByTestId('pay-amount')).toContainText('50.00');
    await expect(dialog.getByTestId('pay-qrcode')).toBeVisible();
    // The dialog's opening animation has ended (a screenshot mid-zoom shows only the mask).
    await animationsSettled(page);
    await snap(page, 'price-difference/pay-dialog-1280');
    const phone = await page.context().newPage();
    await phone.goto((await dialog.getByTestId('pay-sandbox-link').getAttribute('href'))!);
    await phone.getByRole('button', { name: '确认支付' }).click();
    await expect(phone.getByText('支付成功', { exact: true })).toBeVisible();
    await phone.close();
    await expect(dialog.getByTestId('pay-outcome-success')).toBeVisible({ timeout: 20_000 });
    await expect(dialog).toBeHidden({ timeout: 10_000 });

    // Paid: the section shows it, the payment section both payments and the sum.
    section = await repaySection(page);
    await expect(section.getByTestId('price-difference-open')).toHaveCount(0);
    await expect(section.getByTestId('price-difference-record')).toContainText('已支付');
    const payments = page.getByTestId('order-payment');
    await expect(payments.getByTestId('order-payment-record')).toHaveCount(2);
    await expect(payments.getByTestId('order-payment-record').nth(1)).toContainText('补差价');
    await expect(payments.getByTestId('order-payment-record').nth(1)).toContainText('已支付');
    await expect(payments.getByTestId('order-detail-difference-paid')).toHaveText(formatPrice(5_000));
    await expect(payments.getByTestId('order-detail-paid-total')).toHaveText(formatPrice(total + 5_000));
    await payments.scrollIntoViewIfNeeded();
    await snap(page, 'price-difference/detail-paid-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await payments.scrollIntoViewIfNeeded();
    await snap(page, 'price-difference/detail-paid-390');

    // No longer 需要处理.
    await page.goto('/order/order-list');
    await page.getByTestId('order-tab-action').click();
    await expect(page.getByTestId('order-list-page')).toBeVisible();
    await expect(page.locator(`[data-testid="order-card"][data-order-id="${userOrderId}"]`)).toHaveCount(0);

    // The operator sees it paid.
    await staff.reload();
    await expect(panel.getByTestId('price-difference-row')).toContainText('已支付');
    await expect(panel.getByTestId('price-difference-summary')).toContainText(`已补 ${formatPrice(5_000)}`);
    await expect(panel.getByTestId('price-difference-form')).toBeVisible();
    await snap(staff, 'price-difference/workbench-paid');
    await staff.context().close();
  },
);
