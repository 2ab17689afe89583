// Issue 27, the customer's side, continued: the header bell's count sits
// beside the bell (two digits and 99+ included) instead of covering it.
import { expect, type Page } from '@playwright/test';
import { e2eDatabase, hydrated, loggedInTest as test } from './support';

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
