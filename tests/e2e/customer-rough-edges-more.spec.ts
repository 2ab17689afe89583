// Issue 27, the customer's side, continued: the header bell's count sits
// beside the bell (two digits and 99+ included) instead of covering it; a
// finished order keeps its page check section and 递交使馆日期; the interview
// place is the visa centre the product names, not the consulate.
import { expect, type Page } from '@playwright/test';
import { fire } from './notice-support';
import { orderAt } from './order-factories';
import { chinaToday, orderWithResults } from './results-support';
import { createProduct, e2eDatabase, hydrated, loggedInTest as test } from './support';

const WIDTHS = [1280, 390] as const;

/** `count` unread notices for the account, written where the bell reads them. */
function unreadNotices(accountId: number, count: number): void {
  const db = e2eDatabase();
  const insert = db.prepare(
    `insert into notice (recipient_kind, recipient_id, kind, user_order_id, title, body, link, order_event_id, read_at, created_at)
     values ('customer', ?, 'test', null, ?, '', '/notice', null, null, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(accountId, `通知 ${i + 1}`, Date.now());
  })();
  db.close();
}

/** How much of the bell icon the count covers (0–1). */
async function coveredShare(page: Page): Promise<number> {
  const bell = page.getByTestId('header-notice-bell');
  const icon = (await bell.locator('.site-header-bell-icon').boundingBox())!;
  const count = (await bell.locator('sup').boundingBox())!;
  const width = Math.max(0, Math.min(icon.x + icon.width, count.x + count.width) - Math.max(icon.x, count.x));
  const height = Math.max(0, Math.min(icon.y + icon.height, count.y + count.height) - Math.max(icon.y, count.y));
  return (width * height) / (icon.width * icon.height);
}

test('the bell’s count, two digits or 99+, sits beside the bell’s corner and leaves the bell visible', async ({ page, customer }) => {
  for (const [total, text] of [
    [12, '12'],
    [120, '99+'],
  ] as const) {
    const db = e2eDatabase();
    const have = (
      db.prepare(`select count(*) as n from notice where recipient_kind = 'customer' and recipient_id = ?`).get(customer.accountId) as { n: number }
    ).n;
    db.close();
    unreadNotices(customer.accountId, total - have);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/user/personal-center');
      await hydrated(page);
      const bell = page.getByTestId('header-notice-bell');
      await expect(bell).toHaveAttribute('aria-label', `消息通知，${total} 条未读`);
      // antd's Badge (loaded lazily) shows the count once its zoom-in is over.
      await expect(bell.locator('.ant-badge-count')).toHaveText(text);
      await expect(bell.locator('.ant-badge-count')).not.toHaveClass(/zoom/);
      await page.locator('header.site-header').screenshot({ path: `screenshots/tmp/bell-${text}-${width}.png` });
      expect(await coveredShare(page)).toBeLessThan(0.15);
      // The count stays inside the bell's link (its target), not over the account menu beside it.
      const link = (await bell.boundingBox())!;
      const count = (await bell.locator('sup').boundingBox())!;
      expect(count.x + count.width).toBeLessThanOrEqual(link.x + link.width + 1);
    }
  }
});

test('a completed order keeps its page check section and 递交使馆日期, read-only', async ({ page, baseURL, customer, operator }) => {
  // An e-visa order (nothing mailed) with its result, its page check confirmed, then completed by the operator.
  const id = await orderWithResults(baseURL!, { customer, operator }, '林核对', ['issued'], { mailed: false });
  const db = e2eDatabase();
  const { applicant_id: applicantId } = db.prepare('select applicant_id from order_applicant where user_order_id = ?').get(id) as { applicant_id: number };
  db.prepare(
    `insert into page_check_applicant (applicant_id, user_order_id, status, round, published_at, confirmed_at, updated_at) values (?, ?, 'confirmed', 1, ?, ?, ?)`,
  ).run(applicantId, id, Date.now(), Date.now(), Date.now());
  db.close();
  await fire(id, { event: 'complete', to: 'completed' }, operator.principal);

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/order/order-detail/${id}`);
    await expect(page.getByTestId('order-status').first()).toHaveAttribute('data-status', 'completed');
    const section = page.getByTestId('order-page-check-section');
    await expect(section).toBeVisible();
    await expect(section.getByTestId('order-page-check-applicant')).toContainText('林核对');
    await expect(section.getByTestId('order-submitted-date')).toHaveText(`递交使馆日期：${chinaToday()}`);
    // Read-only: the way to the pages, no confirming.
    await expect(section.getByRole('button', { name: '查看核对页' })).toBeVisible();
    await expect(section.getByRole('button', { name: '确认核对页' })).toHaveCount(0);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `screenshots/tmp/completed-page-check-${width}.png` });
  }
});

test('the interview place is the visa centre the product names, on the notification page and the order detail', async ({
  page,
  baseURL,
  customer,
  operator,
}) => {
  test.slow();
  const product = await createProduct({ interview: true, district: 'own', mailed: false, photo: true });
  const db = e2eDatabase();
  db.prepare(`insert into visa_product_basic_info (visa_product_id, sort, title, content) values (?, 1, '是否面试', '需本人前往签证中心录入指纹')`).run(
    product.visa_product_id,
  );
  const place = db
    .prepare(
      `select c.name as country, d.city, d.consulate_name from visa_product p join visa_country c on c.visa_country_id = p.visa_country_id
       join consular_district d on d.consular_district_id = p.consular_district_id where p.visa_product_id = ?`,
    )
    .get(product.visa_product_id) as { country: string; city: string; consulate_name: string };
  db.close();
  const centre = `${place.country}签证申请中心（${place.city}）`;
  const { userOrderId } = await orderAt({ baseURL: baseURL!, customer, operator }, 'interview', { product });

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/order/order-interview-notification/${userOrderId}`);
    const notice = page.getByTestId('interview-notice-page');
    await expect(page.getByLabel('面试/录指纹通知')).toContainText(centre);
    await expect(notice.getByTestId('interview-applicant').first()).toContainText(centre);
    await expect(notice).not.toContainText(place.consulate_name);
    await page.screenshot({ path: `screenshots/tmp/interview-place-${width}.png`, fullPage: true });
    await page.goto(`/order/order-detail/${userOrderId}`);
    await expect(page.getByTestId('order-interview-date-section')).toContainText(centre);
  }
});
