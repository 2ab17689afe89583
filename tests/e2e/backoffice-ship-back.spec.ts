// Sending the passports home, end to end, with an operator context and a
// customer context (the test's own operator and customer). The order starts at the embassy with its result
// recorded (tests/e2e/results-support.ts: the customer's real
// self-express of the paper materials, then the operator's steps fired
// through the lifecycle). The operator opens the workbench's ship-back
// panel, previews the return address and ships the passports back (an SF
// pickup booked with the sandbox courier); the sandbox pushes 揽收 … 签收
// (COURIER_SANDBOX_STEP_MS: 4 s apart); the customer follows the parcel in
// the order detail's 护照寄回 section with 刷新物流 until it is delivered and
// the order is 已完成, finds it under the 已完成 tab, and — its departure date
// long past — is never asked for a new one. Screenshots under
// screenshots/issue11/.
import { expect } from '@playwright/test';
import { orderWithResults, RETURN_SNAPSHOT } from './results-support';
import { e2eDatabase, loggedInTest, snap, staffPage } from './support';

loggedInTest(
  'results recorded → operator ships the passports back → delivered → customer finds the order under 已完成',
  async ({ page, browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(150_000);
    const id = await orderWithResults(baseURL!, { customer, operator }, '林寄回', ['issued']);

    // The operator: the ship-back panel with the result, the address and 寄回护照.
    const staff = await staffPage(browser, operator, baseURL!);
    await staff.goto(`/admin/orders/${id}`);
    const panel = staff.getByTestId('ship-back-panel');
    await expect(panel.getByTestId('ship-back-results')).toContainText('林寄回');
    await expect(panel.getByTestId('ship-back-results')).toContainText('已出签');
    await expect(panel.getByTestId('ship-back-address')).toContainText(RETURN_SNAPSHOT.detail);
    await expect(panel.getByTestId('ship-back-complete')).toHaveCount(0);
    await panel.scrollIntoViewIfNeeded();
    await snap(staff, 'issue11/workbench-ship-back-panel');
    await panel.getByTestId('ship-back-open').click();
    const dialog = staff.getByRole('dialog').filter({ hasText: '寄回护照' });
    await expect(dialog.getByTestId('ship-back-modal-address')).toContainText('回寄地址');
    await snap(staff, 'issue11/workbench-ship-back-dialog');
    await staff.getByTestId('ship-back-confirm').click();
    await expect(staff.getByText(/已预约快递上门取件，运单号 SF\d{13}/)).toBeVisible();
    await expect(staff.getByTestId('workbench-step')).toHaveText('护照寄回中');
    await expect(panel.getByTestId('shipment-card')).toHaveCount(1);
    await expect(panel.getByTestId('ship-back-open')).toHaveCount(0);
    await panel.scrollIntoViewIfNeeded();
    await snap(staff, 'issue11/workbench-ship-back-sent');

    // The customer: the order detail's 护照寄回 section, followed with 刷新物流 until delivered.
    await page.goto(`/order/order-detail/${id}`);
    const section = page.getByTestId('detail-return-parcel');
    await expect(section.getByTestId('return-address')).toContainText(RETURN_SNAPSHOT.detail);
    await expect(section.getByTestId('shipment-waybill')).toHaveText(/^SF\d{13}$/);
    await expect(async () => {
      await section
        .getByTestId('return-refresh')
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      await expect(section.getByTestId('shipment-status')).toHaveText('已签收', { timeout: 2_000 });
    }).toPass({ timeout: 90_000, intervals: [2_000] });
    await expect(section.getByTestId('shipment-routes')).toContainText('已签收');
    // The delivery finished the order (return_delivered, fired by the server when the push arrived).
    await page.reload();
    await expect(page.getByTestId('order-detail-page')).toContainText('已完成');
    await page.getByTestId('detail-return-parcel').scrollIntoViewIfNeeded();
    await snap(page, 'issue11/detail-return-parcel-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('detail-return-parcel').scrollIntoViewIfNeeded();
    await snap(page, 'issue11/detail-return-parcel-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Under 已完成, not under 办理中.
    await page.goto('/order/order-list?tab=completed');
    await expect(page.locator(`[data-testid="order-card"][data-order-id="${id}"]`)).toBeVisible();
    await expect(page.locator(`[data-testid="order-card"][data-order-id="${id}"]`)).toContainText('已完成');
    await snap(page, 'issue11/order-list-completed-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'issue11/order-list-completed-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/order/order-list?tab=processing');
    await expect(page.getByTestId('order-tab-processing')).toBeVisible();
    await expect(page.locator(`[data-testid="order-card"][data-order-id="${id}"]`)).toHaveCount(0);

    // Its departure date long past: a completed order is never asked for a new one (no dialog, not under 需要处理).
    const db = e2eDatabase();
    db.prepare(`update user_order set departure_date = '2026-01-05' where user_order_id = ?`).run(id);
    db.close();
    await page.goto(`/order/order-detail/${id}`);
    await expect(page.getByTestId('detail-return-parcel')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /出发日期/ })).toHaveCount(0);
    await page.goto('/order/order-list?tab=action');
    await expect(page.getByTestId('order-tab-action')).toBeVisible();
    await expect(page.locator(`[data-testid="order-card"][data-order-id="${id}"]`)).toHaveCount(0);

    // The operator's panel shows the delivered parcel; the order is done.
    await staff.reload();
    await expect(staff.getByTestId('ship-back-panel').getByTestId('shipment-status')).toHaveText('已签收');
    await expect(staff.getByTestId('workbench-step')).toHaveText('已完成');
    await staff.context().close();
  },
);

loggedInTest(
  'nothing to send back, every applicant refused with 拒签退全款: 办理完成 → 已退款 under 已取消/已退款',
  async ({ page, browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(90_000);
    const id = await orderWithResults(baseURL!, { customer, operator }, '周拒签', ['rejected'], { mailed: false, rejectRefund: 1 });
    const staff = await staffPage(browser, operator, baseURL!);
    await staff.goto(`/admin/orders/${id}`);
    const panel = staff.getByTestId('ship-back-panel');
    await expect(panel.getByTestId('ship-back-results')).toContainText('已拒签');
    await expect(panel).toContainText('没有需要寄回的物品');
    await expect(panel.getByTestId('ship-back-open')).toHaveCount(0);
    await panel.scrollIntoViewIfNeeded();
    await snap(staff, 'issue11/workbench-complete-panel');
    await panel.getByTestId('ship-back-complete').click();
    await expect(staff.getByRole('dialog')).toContainText('已退款');
    await staff.getByTestId('ship-back-complete-confirm').click();
    await expect(staff.getByTestId('workbench-step')).toHaveText('已退款');
    await staff.context().close();

    await page.goto('/order/order-list?tab=closed');
    const card = page.locator(`[data-testid="order-card"][data-order-id="${id}"]`);
    await expect(card).toContainText('已退款');
    await card.scrollIntoViewIfNeeded();
    await snap(page, 'issue11/order-list-refunded-1280');
    await page.goto('/order/order-list?tab=completed');
    await expect(page.getByTestId('order-tab-completed')).toBeVisible();
    await expect(page.locator(`[data-testid="order-card"][data-order-id="${id}"]`)).toHaveCount(0);
  },
);
