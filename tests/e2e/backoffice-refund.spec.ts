// Refunds end to end with two browser contexts (issue 11), with the test's own
// customer, operator and supervisor: a two-applicant order of the customer is paid through the real payment path
// (payment_create → the sandbox's pay page → its signed notification); a
// supervisor refunds ¥100 by hand in the workbench's refund panel — the
// refund worker gives it to the sandbox after the commit, and the sandbox's
// signed refund notification turns it 已退款 — and the customer sees it in the
// detail's refund section. Then the supervisor closes the order with a full
// refund (before submission): the rest goes back, the order is 已退款 and
// the customer finds it under 已取消/已退款 with both refunds arrived. An
// operator (not a supervisor) sees the panel without the buttons.
// Screenshots under screenshots/issue11/.
import { expect, type Page } from '@playwright/test';
import { formatPrice } from '../../common/format';
import { paidOrder } from './results-support';
import { loggedInTest, openWorkbenchFold, snap, staffPage } from './support';

async function refundSection(page: Page) {
  const section = page.getByTestId('order-refunds');
  await section.scrollIntoViewIfNeeded();
  return section;
}

loggedInTest(
  'supervisor refunds ¥100 by hand, then closes the order with a full refund → the customer sees 退款中 → 已退款 and the order under 已取消/已退款',
  async ({ page, browser, baseURL, customer, operator, supervisor }) => {
    loggedInTest.setTimeout(180_000);
    const { userOrderId, total } = await paidOrder(baseURL!, customer, [
      { name: '韩退款', mobile_phone: '13600136061' },
      { name: '林退款', mobile_phone: '13600136062' },
    ]);

    // An operator sees the panel, not the supervisor's buttons.
    const op = await staffPage(browser, operator, baseURL!);
    await op.goto(`/admin/orders/${userOrderId}`);
    await openWorkbenchFold(op, 'refund');
    const opPanel = op.getByTestId('workbench-refund');
    await expect(opPanel.getByTestId('refund-summary')).toContainText(`可退 ${formatPrice(total)}`);
    await expect(opPanel).toContainText('手动退款和全额退款需由主管操作');
    await expect(opPanel.getByTestId('refund-form')).toHaveCount(0);
    await expect(opPanel.getByTestId('refund-close')).toHaveCount(0);
    await op.context().close();

    // The supervisor: ¥100 by hand, with a reason.
    const staff = await staffPage(browser, supervisor, baseURL!);
    await staff.goto(`/admin/orders/${userOrderId}`);
    await openWorkbenchFold(staff, 'refund');
    const panel = staff.getByTestId('workbench-refund');
    await expect(panel.getByTestId('refund-form')).toBeVisible();
    await expect(panel.getByTestId('refund-close-form')).toBeVisible();
    await panel.scrollIntoViewIfNeeded();
    await snap(staff, 'issue11/refund-panel-empty');
    await panel.getByTestId('refund-amount').fill('100');
    await panel.getByTestId('refund-reason').fill('客户取消加急服务，退回加急费');
    await panel.getByTestId('refund-submit').click();
    await expect(panel.getByTestId('refund-row')).toHaveCount(1);
    await expect(panel.getByTestId('refund-row')).toContainText(formatPrice(10_000));
    await expect(panel.getByTestId('refund-summary')).toContainText(`可退 ${formatPrice(total - 10_000)}`);
    // The worker sends it, the sandbox's bank takes its delay, its signed notification settles it.
    await expect
      .poll(
        async () => {
          await staff.reload();
          return panel.getByTestId('refund-row').first().innerText();
        },
        { timeout: 30_000, intervals: [1_000] },
      )
      .toContain('已退款');
    await panel.scrollIntoViewIfNeeded();
    await snap(staff, 'issue11/refund-panel-manual-refunded');

    // The customer: the detail's refund section, 已退款.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/order/order-detail/${userOrderId}`);
    let section = await refundSection(page);
    await expect(section.getByTestId('order-refund-record')).toHaveCount(1);
    await expect(section.getByTestId('order-refund-status')).toHaveText('已退款');
    await expect(section.getByTestId('order-refunded-total')).toHaveText(formatPrice(10_000));
    await expect(section).toContainText('客户取消加急服务，退回加急费');
    await snap(page, 'issue11/detail-refund-1280');

    // The supervisor closes the order with everything else refunded.
    await staff.reload();
    await panel.getByTestId('refund-close-reason').fill('客户取消行程，全额退款');
    await panel.getByTestId('refund-close').click();
    await staff.getByRole('button', { name: '全额退款并关闭', exact: true }).click();
    await expect(panel.getByTestId('refund-row')).toHaveCount(2);
    await expect(panel.getByTestId('refund-summary')).toContainText(`可退 ${formatPrice(0)}`);
    await expect(panel.getByTestId('refund-close-form')).toHaveCount(0);
    await expect(panel.getByTestId('refund-row').first()).toContainText(formatPrice(total - 10_000));
    await panel.scrollIntoViewIfNeeded();
    await snap(staff, 'issue11/refund-panel-closed');

    // The customer: the order is 已退款; the close refund shows 退款中 first or already 已退款, then 已退款.
    await page.reload();
    section = await refundSection(page);
    await expect(section.getByTestId('order-refund-record')).toHaveCount(2);
    await expect(section.getByTestId('order-refund-record').first()).toContainText('全额退款并关闭订单');
    await expect(section.getByTestId('order-refund-status').first()).toHaveText(/退款中|已退款/);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId('order-refund-status').allInnerTexts();
        },
        { timeout: 30_000, intervals: [1_000] },
      )
      .toEqual(['已退款', '已退款']);
    section = await refundSection(page);
    await expect(section.getByTestId('order-refunded-total')).toHaveText(formatPrice(total));
    await expect(page.getByTestId('order-detail-page').getByTestId('order-status').first()).toHaveAttribute('data-status', 'refunded');
    await snap(page, 'issue11/detail-refunds-closed-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await section.scrollIntoViewIfNeeded();
    await snap(page, 'issue11/detail-refunds-closed-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Under 已取消/已退款, marked 已退款.
    await page.goto('/order/order-list');
    await page.getByTestId('order-tab-closed').click();
    const card = page.locator(`[data-testid="order-card"][data-order-id="${userOrderId}"]`);
    await expect(card).toBeVisible();
    await expect(card).toContainText('已退款');
    await card.scrollIntoViewIfNeeded();
    await snap(page, 'issue11/order-list-refunded');
    await staff.context().close();
  },
);
