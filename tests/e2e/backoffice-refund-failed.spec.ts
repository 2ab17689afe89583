// A refund the payment company refuses, end to end (decision 0026, "A failed
// refund still to redo"), with the test's own customer and supervisor: the
// order's trade was already given back at the sandbox outside this system (as
// from its merchant console), so the supervisor's ¥100 refund is refused for
// good (NOT_ENOUGH) and fails. The 工作台 warns 有 1 笔退款失败…; its link
// opens the queue's 退款失败 filter with the order; once the console's refund
// is undone, the supervisor refunds again from the workbench, it arrives, and
// the warning is gone. The 工作台 with the warning passes axe (WCAG 2.2 AA)
// and fits 1280 px. Screenshots under screenshots/refund-failed/.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { formatPrice } from '../../common/format';
import { paidOrder } from './results-support';
import { animationsSettled, asOperator, createOperator, e2eDatabase, loggedInCustomer, openWorkbenchFold, snap } from './support';

/** Gives the order's whole trade back at the sandbox, as a refund made outside the system would. */
function refundedAtTheProvider(userOrderId: number, amount: number): string {
  const db = e2eDatabase();
  try {
    const { out_trade_no: outTradeNo } = db
      .prepare(`select out_trade_no from payment where user_order_id = ? and status = 'paid' and price_difference_id is null`)
      .get(userOrderId) as { out_trade_no: string };
    const outRefundNo = `RFCONSOLE${userOrderId}`;
    const now = Date.now();
    db.prepare(
      `insert into payment_sandbox_refund (out_refund_no, out_trade_no, provider_refund_no, amount, reason, state, notify_id, created_at, succeeds_at, success_at)
       values (?, ?, ?, ?, '商户平台退款', 'SUCCESS', ?, ?, ?, ?)`,
    ).run(outRefundNo, outTradeNo, `5030CONSOLE${userOrderId}`, amount, `NC${userOrderId}`, now, now, now);
    return outRefundNo;
  } finally {
    db.close();
  }
}

/** The sandbox's refund made outside the system is undone (closed): the trade can give its money back again. */
function undoneAtTheProvider(outRefundNo: string): void {
  const db = e2eDatabase();
  try {
    db.prepare(`update payment_sandbox_refund set state = 'CLOSED' where out_refund_no = ?`).run(outRefundNo);
  } finally {
    db.close();
  }
}

test('the provider refuses a refund → the 工作台 warns, its link lists the order under 退款失败, a new refund from the workbench clears it', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // The page is the supervisor's only: the test's own customer pays through the API.
  const customer = await loggedInCustomer(baseURL!);
  const supervisor = await createOperator({ role: 'supervisor' });
  const { userOrderId, total } = await paidOrder(baseURL!, customer, [{ name: '苏退款', mobile_phone: '13600136071' }]);
  const outside = refundedAtTheProvider(userOrderId, total);

  await page.setViewportSize({ width: 1440, height: 900 });
  await asOperator(page, supervisor, baseURL!);
  // No failed refund yet: the 工作台 shows no warning.
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: '工作台' })).toBeVisible();
  await expect(page.getByTestId('home-refund-failed')).toHaveCount(0);

  // ¥100 by hand; the worker gives it to the sandbox, which refuses it for good.
  await page.goto(`/admin/orders/${userOrderId}`);
  await openWorkbenchFold(page, 'refund');
  const panel = page.getByTestId('workbench-refund');
  /** ¥100 by hand in the workbench's panel; waits (reloading) until the provider's last word shows on the newest row. */
  const refundHundred = async (reason: string, rows: number, outcome: '退款失败' | '已退款') => {
    await panel.getByTestId('refund-amount').fill('100');
    await panel.getByTestId('refund-reason').fill(reason);
    await panel.getByTestId('refund-submit').click();
    await expect(panel.getByTestId('refund-row')).toHaveCount(rows);
    await expect
      .poll(
        async () => {
          await page.reload();
          return panel.getByTestId('refund-row').first().innerText();
        },
        { timeout: 30_000, intervals: [1_000] },
      )
      .toContain(outcome);
  };
  await refundHundred('客户取消加急服务，退回加急费', 1, '退款失败');
  // The money is refundable again.
  await expect(panel.getByTestId('refund-summary')).toContainText(`可退 ${formatPrice(total)}`);

  // The 工作台 warns, with the way to the orders.
  await page.goto('/admin');
  const alert = page.getByTestId('home-refund-failed');
  await expect(alert).toBeVisible();
  await expect(alert).toHaveText(/有 \d+ 笔退款失败，款项尚未退回，请重新发起退款/);
  await expect(alert).toHaveAttribute('role', 'alert');
  await animationsSettled(page);
  await snap(page, 'refund-failed/home-alert-1440');
  // Readable (axe, WCAG 2.2 AA), and nothing overflows sideways down to the back office's narrowest (1280, admin.css).
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await animationsSettled(page);
  await snap(page, 'refund-failed/home-alert-1280');
  await page.setViewportSize({ width: 1440, height: 900 });

  await alert.getByRole('link', { name: '查看退款失败的订单' }).click();
  await expect(page).toHaveURL(/\/admin\/orders\?refund=failed$/);
  const queue = page.getByTestId('admin-queue');
  await expect(queue.getByTestId('queue-refund-filter')).toContainText('退款失败');
  const link = queue.getByTestId('queue-order-link').filter({ hasText: new RegExp(`^YD\\d{8}0*${userOrderId}$`) });
  await expect(link).toBeVisible();
  await animationsSettled(page);
  await snap(page, 'refund-failed/queue-filtered-1440');

  // The console's refund is undone at the provider; the supervisor refunds again from the workbench.
  undoneAtTheProvider(outside);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${userOrderId}$`));
  await refundHundred('退款失败，重新发起退款', 2, '已退款');

  // The warning is gone, and the order has left 退款失败.
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: '工作台' })).toBeVisible();
  await expect(page.getByTestId('home-refund-failed')).toHaveCount(0);
  await page.goto('/admin/orders?refund=failed');
  await expect(
    page
      .getByTestId('admin-queue')
      .getByTestId('queue-order-link')
      .filter({ hasText: new RegExp(`^YD\\d{8}0*${userOrderId}$`) }),
  ).toHaveCount(0);
});
