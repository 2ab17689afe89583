// Issue 27, the customer's side: the personal centre renders the same on the
// server and in a browser of another time zone (no hydration error #418) and
// shows the previous login; the 404 page sits in the site's layout with ways
// back and says in Chinese when a product is missing or delisted.
import { expect } from '@playwright/test';
import { apiLogin, hydrated, loggedInTest as test } from './support';

// A browser far from China: the server formats in China time, so must the page.
test.use({ timezoneId: 'America/Los_Angeles' });

const WIDTHS = [1280, 390] as const;

test('the personal centre hydrates without error in any time zone and shows the login before this one', async ({ page, baseURL, customer }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  // A second login: the page's own session is now the previous one.
  await apiLogin(baseURL!, customer.account, customer.password);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/user/personal-center');
    await hydrated(page);
    const row = page.locator('.ant-descriptions-item').filter({ hasText: '上次登录' });
    await expect(row).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await page.screenshot({ path: `screenshots/tmp/personal-center-${width}.png`, fullPage: true });
  }
  expect(errors.filter((text) => /418|hydrat/i.test(text))).toEqual([]);
});

test('a 404 keeps the spec’s text inside the site’s layout, with the catalogue and a search', async ({ page }) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const answer = await page.goto('/no/such/page');
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found: /no/such/page');
    await expect(page.locator('header.site-header')).toBeVisible();
    await expect(page.getByRole('navigation', { name: '返回' }).getByRole('link', { name: '签证办理' })).toHaveAttribute('href', '/visa/continent');
    await expect(page.getByRole('search').getByRole('searchbox', { name: '搜索国家' })).toBeVisible();
    await page.screenshot({ path: `screenshots/tmp/404-${width}.png`, fullPage: true });
  }
  const product = await page.goto('/visa/product/987654321');
  expect(product?.status()).toBe(404);
  await expect(page.getByTestId('error-page-hint')).toHaveText(/该签证产品不存在或已下架/);
  // The search goes to the catalogue's country search.
  await page.getByRole('searchbox', { name: '搜索国家' }).fill('日本');
  await page.getByRole('search').getByRole('button', { name: '搜索' }).click();
  await expect(page).toHaveURL(/\/visa\/continent\?q=/);
});
