// Every public page renders in Chinese, at desktop and phone width, without
// spilling sideways. Screenshots land in screenshots/ for a person to look at.
import { expect, test } from '@playwright/test';
import { snap } from './support';

const PAGES = [
  { path: '/', name: 'home', heading: /签证/ },
  { path: '/about', name: 'about', heading: /关于易签通/ },
  { path: '/cooperation', name: 'cooperation', heading: /合作/ },
  { path: '/enterprise', name: 'enterprise', heading: /团队/ },
  { path: '/download', name: 'download', heading: /易签通/ },
  { path: '/open/ToChina', name: 'open-to-china', heading: /来华/ },
  { path: '/agreement/user', name: 'user-agreement', heading: /用户协议/ },
];

for (const { path, name, heading } of PAGES) {
  test(`${path} renders on desktop and phone`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(heading);
    await snap(page, `page-${name}-desktop`);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, `page-${name}-phone`);
  });
}

test('the header is transparent on / and /download only', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('header.site-header')).toHaveClass(/site-header--transparent/);
  await page.goto('/download');
  await expect(page.locator('header.site-header')).toHaveClass(/site-header--transparent/);
  await page.goto('/about');
  await expect(page.locator('header.site-header')).not.toHaveClass(/site-header--transparent/);
});

test('the footer is hidden on the ordering and order-detail style pages', async ({ page }) => {
  await page.goto('/about');
  await expect(page.locator('footer.site-footer')).toBeVisible();
  // Guests see the login prompt on these pages; the layout flags still apply.
  await page.goto('/ordering/create-order');
  await expect(page.locator('footer.site-footer')).toHaveCount(0);
  await page.goto('/order/order-list');
  await expect(page.locator('footer.site-footer')).toBeVisible();
});

test('pages read without JavaScript (server-rendered)', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(/关于易签通/);
  // The stylesheets come with the page: the login button has its fill (the
  // brand's text shade, decision 0015) and antd's cards their rounded border.
  const color = await page.getByTestId('header-login').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(color).toBe('rgb(209, 48, 57)');
  const radius = await page
    .locator('.ant-card')
    .first()
    .evaluate((el) => getComputedStyle(el).borderTopLeftRadius);
  expect(radius).not.toBe('0px');
  await context.close();
});
