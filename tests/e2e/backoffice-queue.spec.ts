// Issue 27's queue and back-office shell, in the browser: at 1280 px the
// queue's 操作 column is on screen without scrolling; two orders selected and
// taken at once, one of them taken by a colleague meanwhile — the page lists
// that order's refusal in Chinese by its order number (YD…) and the other is
// the operator's; the search's clear icon is a 24 px target; 我的待办
// chosen, the queue opened again without a filter shows it (kept on the
// server). An operator opening 访问日志 gets the 403 page inside the back
// office (HTTP 403, no menu entry highlighted, a way back); on a phone the
// side menu opens from the header. Screenshots at 1280, 768 and 390 px.
import { expect, type Page } from '@playwright/test';
import { orderAt } from './order-factories';
import { apiCall, createOperator, e2eDatabase, hydrated, loggedInTest as test, operatorSessionToken, snap, staffPage } from './support';

const WIDTHS = [1280, 768, 390] as const;

async function shots(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.waitForTimeout(300);
    await snap(page, `tmp/${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the queue: 操作 on screen at 1280 px, bulk take with a per-order refusal, the saved view restored', async ({ browser, baseURL, customer, operator }) => {
  // Two paid orders made through the real calls (uploads, sandbox payment): slow on a busy machine.
  test.setTimeout(180_000);
  // One phone for both orders' applicants: the queue's search by phone lists exactly these two.
  const phone = `139${String(Date.now()).slice(-8)}`;
  const applicants = [{ name: '沈清和', identity_id: 0, mobile_phone: phone }];
  const parties = { baseURL: baseURL!, customer, operator };
  const { userOrderId: mine } = await orderAt(parties, 'material_review', { applicants });
  const { userOrderId: theirs } = await orderAt(parties, 'material_review', { applicants });

  const page = await staffPage(browser, operator, baseURL!, { viewport: { width: 1280, height: 800 } });
  await page.goto(`/admin/orders?view=all&q=${phone}`);
  await hydrated(page);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole('columnheader', { name: '本步已用时' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '停留时长' })).toHaveCount(0);
  // The action column: each row's 领取 inside the window, not behind a horizontal scroll.
  for (const take of await page.getByTestId('queue-take').all()) {
    await expect(take).toBeInViewport({ ratio: 1 });
    const box = (await take.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
  }

  // Orders are named by their number (YD…) wherever a person reads one: the checkboxes and the failure list.
  const db = e2eDatabase();
  const numberOf = (id: number) => (db.prepare('select order_no from user_order where user_order_id = ?').get(id) as { order_no: string }).order_no;
  const [mineNo, theirsNo] = [numberOf(mine), numberOf(theirs)];
  db.close();
  await page.getByRole('checkbox', { name: `选择订单 ${mineNo}` }).check();
  await page.getByRole('checkbox', { name: `选择订单 ${theirsNo}` }).check();
  await expect(page.getByTestId('queue-bulk')).toContainText('已选 2 个订单');
  // A colleague takes one of them meanwhile.
  const colleague = await createOperator();
  await apiCall(baseURL!, '/admin-api/order/take', { user_order_id: theirs }, await operatorSessionToken(colleague));
  await page.getByTestId('queue-bulk-take').click();
  const outcome = page.getByTestId('queue-bulk-outcome');
  await expect(outcome).toContainText('批量领取：成功 1 单，失败 1 单');
  await expect(page.getByTestId('queue-bulk-failures')).toContainText(`订单 ${theirsNo}：`);
  await expect(page.getByTestId('queue-bulk-failures')).toContainText(/[\u4e00-\u9fff]/);
  await expect(rows.filter({ hasText: operator.name })).toHaveCount(1);
  await expect(rows.filter({ hasText: colleague.name })).toHaveCount(1);
  await shots(page, 'queue-bulk');

  // The search's clear icon is a target of at least 24 × 24 px (WCAG 2.2 target size), and clears.
  const clear = page.locator('.aq-search .ant-input-clear-icon');
  await expect(clear).toBeVisible();
  const target = (await clear.boundingBox())!;
  expect(target.width).toBeGreaterThanOrEqual(24);
  expect(target.height).toBeGreaterThanOrEqual(24);
  await page.locator('.aq-search').first().screenshot({ path: 'screenshots/tmp/queue-search-clear-1280.png' });
  await clear.click();
  await expect(page.getByLabel('搜索订单号、申请人姓名或手机号')).toHaveValue('');

  // 我的待办, chosen once, is what the queue shows when opened again without a filter.
  await page.getByTestId('queue-views').getByText('我的待办').click();
  await expect(page).toHaveURL(/view=mine/);
  await page.goto('/admin/orders');
  await hydrated(page);
  await expect(page.locator('.ant-segmented-item-selected')).toHaveText('我的待办');
  await expect(page.getByRole('link', { name: new RegExp(`^YD\\d{8}0*${mine}$`) })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`^YD\\d{8}0*${theirs}$`) })).toHaveCount(0);
  await shots(page, 'queue-mine');
  // Back to 全部 for the next visit (the operator is this test's own; nothing else reads it).
  await page.getByTestId('queue-views').getByText('全部').click();
  await expect(page).toHaveURL(/view=all/);
  await page.close();
});

test('an operator opening 访问日志 gets the 403 page inside the back office, with a way back', async ({ browser, baseURL, operator }) => {
  const page = await staffPage(browser, operator, baseURL!, { viewport: { width: 1280, height: 800 } });
  const response = await page.goto('/admin/access-log');
  expect(response!.status()).toBe(403);
  await hydrated(page);
  await expect(page.getByTestId('admin-forbidden')).toContainText('没有权限访问此页面');
  await expect(page.getByRole('navigation', { name: '后台菜单' })).toBeVisible();
  await expect(page.locator('.admin-sider .ant-menu-item-selected')).toHaveCount(0);
  await shots(page, 'admin-403');

  // A phone: the menu opens from the header; the page is not cut off.
  await page.setViewportSize({ width: 390, height: 844 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await page.getByTestId('admin-menu-button').click();
  await expect(page.locator('.admin-drawer').getByRole('link', { name: '订单队列' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: '返回工作台' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.locator('.admin-sider .ant-menu-item-selected')).toHaveText('工作台');
  await page.goto('/admin/orders');
  await expect(page.locator('.admin-sider .ant-menu-item-selected')).toHaveText('订单队列');
  await page.close();
});
