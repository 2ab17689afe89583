// The guest catalogue pages paint before their JavaScript loads
// (app/lib/paint-first.ts): nothing the visitor does before hydration is lost.
// The app's entry module is held back here so that the visitor surely acts first.
import { expect, type Page, test } from '@playwright/test';

/** Holds back the app's entry module until `release()`; reports CSP violations. */
async function slowHydration(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  const hydrated = () => page.waitForFunction(() => (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined);
  return { release, violations, hydrated };
}

test('a guest page carries no module preloads and runs its code after the first paint, within the CSP', async ({ page }) => {
  const { release, violations, hydrated } = await slowHydration(page);
  const response = await page.goto('/');
  const html = await response!.text();
  expect(html).not.toContain('modulepreload');
  expect(html).not.toContain('type="module"');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  release();
  await hydrated();
  expect(violations).toEqual([]);
});

test('a logged-in screen and the back office keep their scripts as they were', async ({ page }) => {
  for (const path of ['/admin/login', '/about']) {
    const html = await (await page.request.get(path)).text();
    expect(html, path).toContain('modulepreload');
    expect(html, path).not.toContain('paint-first-app');
  }
});

test('a click on a button before hydration is clicked again once the page has hydrated', async ({ page }) => {
  const { release, hydrated } = await slowHydration(page);
  await page.goto('/');
  await page.getByTestId('header-login').click();
  await page.waitForTimeout(300);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  release();
  await hydrated();
  await expect(page.getByRole('dialog').getByText('欢迎使用易签通')).toBeVisible();
});

test('a field filled before hydration reaches React once the page has hydrated', async ({ page }) => {
  const { release, hydrated } = await slowHydration(page);
  await page.goto('/visa/continent');
  const cards = page.getByTestId('country-card');
  const before = await cards.count();
  await page.getByLabel('搜索国家').fill('不存在的国家xyz');
  release();
  await hydrated();
  await expect(page.getByText('没有找到匹配的国家')).toBeVisible();
  await expect(cards).toHaveCount(0);
  expect(before).toBeGreaterThan(0);
});

test('a click before hydration on a part hydrated after the rest of the page (a HydrationBoundary) is not lost', async ({ page }) => {
  // The product page's materials section hydrates after the page around it
  // (app/components/hydration-boundary.tsx); the click is replayed outside
  // React's effects, where React can hydrate that part at once and deliver it.
  const { release, hydrated } = await slowHydration(page);
  await page.goto('/visa/product/1');
  const tab = page.getByRole('tab', { name: '退休人员' });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'false');
  release();
  await hydrated();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  // The panel below shows the retired's materials (identity 2), not the employed's (0).
  await expect(page.locator('.pd-identity')).toHaveAttribute('data-identity', '2');
});
