// The price difference (补差价) end to end with two browser contexts: an order
// of the demo enterprise is paid through the real payment path (payment_create
// → the sandbox's pay page → its signed notification) so it is processing;
// an operator asks for ¥50 with a reason in the workbench's panel; the
// customer finds the order under 需要处理 with 补差价, pays it in the payment
// dialog on the sandbox's page; both sides see it paid and the order's
// payment section shows both payments and the paid total. Screenshots of the
// detail's repay section (1280 and 390 px) and of the operator's panel.
import { expect, type Page, test } from '@playwright/test';
import { formatPrice } from '../../common/format';
import { sha256Hex } from '../../common/signing';
import { asOperator, DEMO, DEMO_STAFF, e2eDatabase, logIn, signedApiHeaders, snap } from './support';

async function call<T>(baseURL: string, path: string, payload: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { ...signedApiHeaders(token), 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
}

/**
 * A processing order of the demo enterprise, paid through the payment module: created through the API, marked
 * confirmed in the database (the confirm step is the confirm spec's), then a real QR code paid on the sandbox's page.
 */
async function paidOrder(baseURL: string): Promise<{ userOrderId: number; total: number }> {
  const { token } = await call<{ token: string }>(baseURL, '/www/account_login', { account: DEMO.account, password: sha256Hex(DEMO.password) });
  const db = e2eDatabase();
  const product = db
    .prepare(
      `select visa_product_id from visa_product where status = 0 and channel = 0 and offline = 1 and need_interview = 0 order by visa_product_id limit 1`,
    )
    .get() as { visa_product_id: number };
  const departure = new Date(Date.now() + 50 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id: userOrderId } = await call<{ user_order_id: number }>(
    baseURL,
    '/www/order/order_create',
    { visa_product_id: product.visa_product_id, departure_date: departure, applicants: [{ name: '韩补差', identity_id: 0, mobile_phone: '13600136050' }] },
    token,
  );
  db.prepare(`update user_order set status = 'pending_payment', confirmed_at = ?, version = version + 1 where user_order_id = ?`).run(Date.now(), userOrderId);
  db.close();
  const payment = await call<{ out_trade_no: string; amount: number }>(
    baseURL,
    '/www/payment/payment_create',
    { user_order_id: userOrderId, channel: 'wechat' },
    token,
  );
  const confirmed = await fetch(`${baseURL}/sandbox/pay/${payment.out_trade_no}/confirm`, { method: 'POST', redirect: 'manual' });
  expect(confirmed.status).toBeLessThan(400);
  await expect
    .poll(async () => (await call<{ status: string }>(baseURL, '/www/order/order_detail_get', { user_order_id: userOrderId }, token)).status, {
      timeout: 15_000,
    })
    .toBe('processing');
  return { userOrderId, total: payment.amount };
}

async function repaySection(page: Page) {
  const section = page.getByTestId('order-price-difference');
  await section.scrollIntoViewIfNeeded();
  return section;
}

test('operator asks ¥50 → customer sees 需要处理 + 补差价, pays in the sandbox → both sides see it paid; totals show both payments', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const { userOrderId, total } = await paidOrder(baseURL!);

  // The operator: the workbench's panel, ¥50 with a reason.
  const staffContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const staff = await staffContext.newPage();
  await asOperator(staff, DEMO_STAFF.operator.account, baseURL!);
  await staff.goto(`/admin/orders/${userOrderId}`);
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
  await page.goto('/');
  await logIn(page);
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
  await dialog.evaluate((element) => Promise.all(element.ownerDocument.getAnimations().map((animation) => animation.finished)));
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
  await staffContext.close();
});
