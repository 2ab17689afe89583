// The edge, as the browser meets it: every page answer (guest, cached, logged
// in, error) carries the security headers with a fresh CSP nonce that its
// inline scripts carry too; an inline script without the nonce does not run;
// hashed build files are cached for a year. (API answers: server/web/security-headers.test.ts.)
import { expect, type APIResponse, test } from '@playwright/test';
import SQLite from 'better-sqlite3';
import { hydrated, loggedInTest, watchCsp } from './support';

/** A listed product: its page is kept in the guest page cache. */
function productPath(): string {
  const db = new SQLite(process.env.E2E_DB_FILE!, { readonly: true });
  try {
    const row = db
      .prepare('select visa_product_id as id from visa_product where status = 0 and channel = 0 and offline = 1 order by visa_product_id limit 1')
      .get() as {
      id: number;
    };
    return `/visa/product/${row.id}`;
  } finally {
    db.close();
  }
}

function nonceOf(csp: string): string {
  const nonce = /'nonce-([A-Za-z0-9_-]+)'/.exec(csp)?.[1];
  expect(nonce, csp).toBeTruthy();
  return nonce!;
}

async function expectHardenedPage(response: APIResponse | null, label: string): Promise<string> {
  expect(response, label).not.toBeNull();
  const headers = response!.headers();
  expect(headers['x-content-type-options'], label).toBe('nosniff');
  expect(headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy'], label).toContain('camera=()');
  expect(headers['x-frame-options'], label).toBe('DENY');
  const csp = headers['content-security-policy'] ?? '';
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  // Not production here: no analytics origin, no HSTS.
  expect(csp, label).not.toContain('analytics.example');
  expect(headers['strict-transport-security'], label).toBeUndefined();
  const nonce = nonceOf(csp);
  // Every inline script of the page carries this response's nonce, and only it.
  const html = await response!.text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
  expect(scripts.length, label).toBeGreaterThan(0);
  for (const attributes of scripts) {
    if (/\bsrc=/.test(attributes)) continue;
    expect(attributes, `${label}: ${attributes}`).toContain(`nonce="${nonce}"`);
  }
  return nonce;
}

test('every page answer carries the headers and its own nonce, the cached product page too', async ({ request }) => {
  const product = productPath();
  const nonces = new Set<string>();
  for (const path of ['/', '/visa/continent', '/visa/country/1', product, product, product, '/about', '/order/order-list', '/no/such/page']) {
    const response = await request.get(path);
    nonces.add(await expectHardenedPage(response, path));
  }
  // The product page answered from the cache (x-page-cache: hit) still got fresh nonces.
  const again = await request.get(product, { headers: { 'accept-encoding': 'gzip' } });
  expect(again.headers()['x-page-cache']).toBe('hit');
  expect(again.headers()['content-encoding']).toBe('gzip');
  nonces.add(await expectHardenedPage(again, `${product} (gzip hit)`));
  expect(nonces.size).toBe(10);
});

loggedInTest('a logged-in page carries the headers too, and no cache may keep it', async ({ page }) => {
  const response = await page.goto('/order/order-list');
  const headers = await response!.allHeaders();
  expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-/);
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['cache-control']).toBe('private, no-store');
  // A public page rendered for this session (its header names the user) is personal too.
  expect((await (await page.goto('/about'))!.allHeaders())['cache-control']).toBe('private, no-store');
});

test("a guest's public pages keep their caching; personal paths never are cached", async ({ request }) => {
  for (const path of ['/', '/visa/country/1', productPath(), '/about']) {
    expect((await request.get(path)).headers()['cache-control'], path).toBeUndefined();
  }
  for (const path of ['/order/order-list', '/notice', '/user/personal-center', '/admin/login', '/admin']) {
    expect((await request.get(path, { maxRedirects: 0 })).headers()['cache-control'], path).toBe('private, no-store');
  }
});

test('an injected inline script without the nonce does not run; one with it does', async ({ page }) => {
  const violations = watchCsp(page);
  // The page as the server sent it (headers included), with two scripts added
  // the way an injection would add them: one without a nonce, one with it.
  await page.route('**/about', async (route) => {
    const response = await route.fetch();
    const nonce = nonceOf(response.headers()['content-security-policy'] ?? '');
    const body = (await response.text()).replace(
      '</body>',
      `<script>window.__injected = 'ran';</script><script nonce="${nonce}">window.__withNonce = 'ran';</script></body>`,
    );
    await route.fulfill({ response, body });
  });
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __withNonce?: string }).__withNonce)).toBe('ran');
  expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined();
  expect(violations.some((text) => /script/i.test(text))).toBe(true);
  // The page itself still works (hydrated, interactive): the login dialog opens.
  await page.getByTestId('header-login').click();
  await expect(page.getByRole('dialog').getByText('欢迎使用易签通')).toBeVisible();
  // Nothing of the app itself was refused.
  expect(violations.filter((text) => !/inline script/i.test(text))).toEqual([]);
});

test('no public page has anything of its own refused by the policy', async ({ page }) => {
  // The enterprise page's login icon carried an empty <style> (antd's icon
  // source) that the policy refused on every visit; each page is opened and
  // hydrated, and the browser's reports are read.
  const violations = watchCsp(page);
  for (const path of [
    '/',
    '/about',
    '/cooperation',
    '/enterprise',
    '/download',
    '/open/ToChina',
    '/agreement/user',
    '/visa/continent',
    '/visa/country/1',
    productPath(),
  ]) {
    await page.goto(path);
    await hydrated(page);
  }
  expect(violations).toEqual([]);
});

test('hashed build files are cached for a year; other static files revalidate', async ({ page, request }) => {
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (/\/assets\/.+\.(js|css)$/.test(new URL(response.url()).pathname)) scripts.push(new URL(response.url()).pathname);
  });
  await page.goto('/');
  expect(scripts.length).toBeGreaterThan(0);
  for (const path of scripts.slice(0, 5)) {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await request.get(path, { headers: { 'accept-encoding': encoding } });
      expect(response.headers()['cache-control'], `${path} ${encoding}`).toBe('public, max-age=31536000, immutable');
      expect(response.headers()['x-content-type-options']).toBe('nosniff');
    }
  }
  const favicon = await request.get('/favicon.svg');
  expect(favicon.headers()['cache-control']).toBe('public, max-age=0');
  // HTML keeps today's rule: no caching header of its own (revalidated).
  expect((await request.get('/about')).headers()['cache-control']).toBeUndefined();
});

test('in production the analytics origin is allowed, and only there', async ({ request }) => {
  const prod = `http://127.0.0.1:${process.env.E2E_PROD_PORT}`;
  const response = await request.get(`${prod}/about`);
  const csp = response.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self' 'nonce-");
  expect(csp).toContain('https://analytics.example');
  // Plain HTTP: no HSTS even in production (browsers ignore it there).
  expect(response.headers()['strict-transport-security']).toBeUndefined();
});
