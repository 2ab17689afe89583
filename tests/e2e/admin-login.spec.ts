// The back office's door: an operator of the test's own logs in at
// /admin/login with password and TOTP code (computed here from its secret, as
// an authenticator app would), sees the admin layout, logs out; a supervisor
// creates a 产品编辑 (catalogue_editor, issue 26), who logs in with the secret
// shown once, lands on 产品管理, sees its entries only and gets the 403 page
// for the order queue. No /admin page
// without a session; never indexed; no CSP violation. (The README's demo staff
// logins are demo-accounts.spec.ts's.)
import { expect, type Page, test } from '@playwright/test';
import { totpCode } from '../../server/modules/operator/totp';
import { asOperator, createOperator, freshTotpCode, hydrated, snap, watchCsp } from './support';

async function logInAsStaff(page: Page, account: string, password: string, code: string) {
  await hydrated(page);
  await page.getByLabel('账号').fill(account);
  await page.getByLabel('密码').fill(password);
  await page.getByLabel('动态验证码').fill(code);
  await expect(page.getByLabel('账号')).toHaveValue(account);
  await page.getByRole('button', { name: '登录' }).click();
}

test('no /admin page without a session: redirected to /admin/login, never indexed', async ({ page, request }) => {
  await page.goto('/admin/operators');
  await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Foperators$/);
  await expect(page.getByRole('heading', { name: '易签通后台' })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');

  const home = await request.get('/admin', { maxRedirects: 0 });
  expect(home.status()).toBe(302);
  expect(home.headers()['location']).toBe('/admin/login');
  const login = await request.get('/admin/login');
  expect(login.headers()['x-robots-tag']).toBe('noindex, nofollow');
  expect(login.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-/);
  // The customer site is indexable as before.
  expect((await request.get('/about')).headers()['x-robots-tag']).toBeUndefined();
});

test('an operator logs in with password and TOTP code, sees the admin layout, logs out', async ({ page }) => {
  const csp = watchCsp(page);
  const { account, password, totpSecret, name } = await createOperator({ role: 'operator' });
  await page.goto('/admin/login');
  await snap(page, 'admin-login');

  // A wrong code: refused, in Chinese, on the page.
  const code = await freshTotpCode(account, totpSecret);
  await logInAsStaff(page, account, password, code === '000000' ? '111111' : '000000');
  await expect(page.getByTestId('admin-login-error')).toContainText('账号、密码或动态验证码错误');
  await snap(page, 'admin-login-error');

  await page.getByLabel('动态验证码').fill(await freshTotpCode(account, totpSecret));
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('admin-operator')).toContainText(name);
  await expect(page.getByTestId('admin-operator')).toContainText('操作员');
  await expect(page.getByRole('heading', { name: '工作台' })).toBeVisible();
  // An operator's menu has no supervisor entries, and the page refuses them.
  await expect(page.getByRole('link', { name: '操作员管理' })).toHaveCount(0);
  const refused = await page.goto('/admin/operators');
  expect(refused?.status()).toBe(403);
  await expect(page.getByText('没有权限访问此页面')).toBeVisible();
  await page.goto('/admin');
  await snap(page, 'admin-home');

  // The login answer set the session cookie itself: HttpOnly and SameSite=Strict, so no script holds the token (decision 0032).
  const session = (await page.context().cookies()).find((c) => c.name === 'admin_token');
  expect(session).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Strict' });
  expect(await page.evaluate(() => document.cookie)).not.toContain(session!.value);

  await page.getByRole('button', { name: '退出' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  // The logout answer cleared the cookie, and the session is over on the server too: the old cookie put back opens nothing.
  expect((await page.context().cookies()).find((c) => c.name === 'admin_token')).toBeUndefined();
  await page.context().addCookies([{ ...session! }]);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect(csp).toEqual([]);
});

test('a supervisor creates a 产品编辑, who logs in with the secret shown once and opens 产品管理 only; a reset makes them enrol a new one', async ({
  page,
  browser,
  baseURL,
}) => {
  const csp = watchCsp(page);
  const colleague = await createOperator({ role: 'operator' });
  const { account, password, totpSecret } = await createOperator({ role: 'supervisor' });
  await page.goto('/admin/login?next=%2Fadmin%2Foperators');
  await logInAsStaff(page, account, password, await freshTotpCode(account, totpSecret));
  await expect(page).toHaveURL(/\/admin\/operators$/);
  await expect(page.getByRole('heading', { name: '操作员管理' })).toBeVisible();
  await expect(page.getByRole('cell', { name: colleague.account })).toBeVisible();
  await snap(page, 'admin-operators');

  const newAccount = `e2e_${Date.now().toString(36)}`;
  // 新建操作员 opens its dialog once React has hydrated the page: a click before that is lost (a CI run lost one).
  await hydrated(page);
  await page.getByRole('button', { name: '新建操作员' }).click();
  const dialog = page.getByRole('dialog', { name: '新建操作员' });
  await dialog.getByLabel('账号').fill(newAccount);
  await dialog.getByLabel('姓名').fill('钱多多');
  await dialog.getByLabel('初始密码').fill('Welcome@2026!');
  await dialog.getByLabel('确认密码').fill('Welcome@2026!');
  await dialog.getByRole('radio', { name: '产品编辑' }).check();
  await expect(dialog.getByRole('radio', { name: '产品编辑' })).toBeChecked();
  await expect(dialog.getByText('产品编辑：只能使用产品管理')).toBeVisible();
  await snap(page, 'admin-operator-create');
  await dialog.getByRole('button', { name: '创建' }).click();

  const shown = page.getByTestId('created-secret-dialog');
  await expect(shown.getByRole('img', { name: '动态验证码二维码' })).toBeVisible();
  const secret = (await page.getByTestId('created-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await snap(page, 'admin-operator-secret');
  await page.getByRole('button', { name: '我已保存，关闭' }).click();
  await expect(page.getByRole('cell', { name: newAccount })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: newAccount }).getByRole('cell', { name: '产品编辑', exact: true })).toBeVisible();
  expect(csp).toEqual([]);

  // The new operator, in a browser of their own.
  const other = await browser.newContext({ baseURL });
  const theirs = await other.newPage();
  await theirs.goto('/admin/login');
  await logInAsStaff(theirs, newAccount, 'Welcome@2026!', totpCode(secret));
  await expect(theirs.getByTestId('admin-operator')).toContainText('钱多多');
  // A 产品编辑 has no 工作台 (it shows order work): /admin lands on 产品管理, and the menu holds its entries only.
  await expect(theirs).toHaveURL(/\/admin\/catalogue$/);
  await expect(theirs.getByTestId('admin-operator')).toContainText('产品编辑');
  await expect(theirs.getByRole('heading', { name: '产品管理' })).toBeVisible();
  await expect(theirs.getByRole('navigation', { name: '后台菜单' }).getByRole('link')).toHaveText(['产品管理', '面试时段', '国家与领区']);
  await snap(theirs, 'admin-catalogue-editor-menu');
  const refused = await theirs.goto('/admin/orders');
  expect(refused?.status()).toBe(403);
  await expect(theirs.getByTestId('admin-forbidden')).toContainText('产品编辑只能使用产品管理');
  await expect(theirs.getByTestId('admin-forbidden').getByRole('link')).toHaveAttribute('href', '/admin/catalogue');
  await snap(theirs, 'admin-catalogue-editor-403');

  // Their phone is lost: the supervisor resets the second factor.
  const row = page.getByRole('row').filter({ hasText: newAccount });
  await row.getByRole('button', { name: '重置动态验证码' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
  await expect(row.getByText('待下次登录绑定')).toBeVisible();

  // Their session has ended; the password alone shows a new secret to enrol, confirmed by a code from it.
  await theirs.reload();
  await expect(theirs).toHaveURL(/\/admin\/login/);
  await theirs.getByLabel('账号').fill(newAccount);
  await theirs.getByLabel('密码').fill('Welcome@2026!');
  await theirs.getByRole('button', { name: '登录' }).click();
  await expect(theirs.getByRole('img', { name: '动态验证码绑定二维码' })).toBeVisible();
  const enrolled = (await theirs.getByTestId('enrol-secret').textContent())!.trim();
  expect(enrolled).toMatch(/^[A-Z2-7]{32}$/);
  expect(enrolled).not.toBe(secret);
  await snap(theirs, 'admin-enrol');
  await theirs.getByLabel('验证码').fill(totpCode(secret));
  await theirs.getByRole('button', { name: '确认绑定并登录' }).click();
  await expect(theirs.getByTestId('admin-login-error')).toContainText('验证码错误');
  await theirs.getByLabel('验证码').fill(totpCode(enrolled));
  await theirs.getByRole('button', { name: '确认绑定并登录' }).click();
  await expect(theirs.getByTestId('admin-operator')).toContainText('钱多多');
  await other.close();
});

test("a workbench whose loader is refused shows the server's message and the way back to the queue", async ({ page, baseURL }) => {
  await asOperator(page, await createOperator({ role: 'operator' }), baseURL!);
  await page.goto('/admin/orders/99999999');
  await expect(page.getByText('订单不存在')).toBeVisible();
  await page.getByRole('link', { name: '返回订单队列' }).click();
  await expect(page).toHaveURL(/\/admin\/orders$/);
  await expect(page.getByRole('heading', { name: '订单队列' })).toBeVisible();
});
