// Teams (issue 29): an administrator invites a colleague from 成员管理, the
// invitation e-mail reaches the test SMTP server, the colleague sets a password
// from its link, logs in and sees the enterprise's orders (and none under 我的
// 订单); the administrator disables them and their next page asks for a login.
import { type Page, expect } from '@playwright/test';
import { apiCall, createProduct, headerUser, logIn, loggedInTest as test, mailbox, mailText } from './support';

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/s4-shots/${name}.png`, fullPage: true });
}

test('an administrator invites a colleague who sets a password, sees the orders and is disabled', async ({ page, customer, baseURL, browser }) => {
  test.setTimeout(240_000);
  // One order of the enterprise, placed by the administrator.
  const product = await createProduct({ interview: false });
  const departure = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  const { user_order_id: orderId } = await apiCall<{ user_order_id: number }>(
    baseURL!,
    '/www/order/order_create',
    { visa_product_id: product.visa_product_id, departure_date: departure, applicants: [{ name: '周航', identity_id: 0, mobile_phone: '13700137001' }] },
    customer.token,
  );

  await page.goto('/user/personal-center');
  await page.getByTestId('personal-center-team').click();
  await expect(page.getByRole('heading', { name: '成员管理' })).toBeVisible();
  await expect(page.getByTestId('team-member')).toHaveCount(1);

  const address = `colleague.${Date.now()}@example.com`;
  await page.getByTestId('team-invite').click();
  await page.getByTestId('team-invite-name').fill('钱同事');
  await page.getByTestId('team-invite-contact').fill(address);
  await page.getByTestId('team-invite-role-agent').click();
  await page.getByTestId('team-invite-submit').click();
  await expect(page.getByText('邀请邮件已发送给钱同事')).toBeVisible();
  const row = page.locator(`[data-testid="team-member"][data-account="${address}"]`);
  await expect(row.getByTestId('team-member-status')).toHaveText('待接受邀请');

  // A colleague with a mobile number only: the link is shown to pass on, and the page says why.
  await page.getByTestId('team-invite').click();
  await page.getByTestId('team-invite-name').fill('孙经办');
  await page.getByTestId('team-invite-contact').fill(`139${String(Date.now()).slice(-8)}`);
  await page.getByTestId('team-invite-submit').click();
  const linkDialog = page.getByTestId('team-link-dialog');
  await expect(linkDialog).toContainText('短信通知尚未开通');
  await expect(page.getByTestId('team-link')).toContainText('/team/join#');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await shoot(page, `team-link-dialog-${width}`);
  }
  await page.getByRole('button', { name: '知道了' }).click();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await shoot(page, `team-members-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The invitation e-mail, through the outbox to the test SMTP server.
  await expect.poll(() => mailbox().filter((m) => m.to === address).length, { timeout: 15_000 }).toBe(1);
  const body = mailText(mailbox().find((m) => m.to === address)!.raw);
  const link = /https?:\/\/[^\s"<]+\/team\/join#[A-Za-z0-9_-]{43}/.exec(body)?.[0];
  expect(link, body).toBeTruthy();
  const path = link!.replace(/^https?:\/\/[^/]+/, '');

  // The colleague, in a browser of their own.
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const colleague = await context.newPage();
  await colleague.goto(path);
  await expect(colleague.getByText(`您受邀以经办人身份加入`)).toBeVisible();
  // The token left the address bar.
  expect(new URL(colleague.url()).hash).toBe('');
  for (const width of [1280, 390]) {
    await colleague.setViewportSize({ width, height: 800 });
    await shoot(colleague, `team-join-${width}`);
  }
  await colleague.getByTestId('team-join-password').fill('short');
  await colleague.getByTestId('team-join-confirm').fill('short');
  await colleague.getByTestId('team-join-submit').click();
  await expect(colleague.getByText('密码为 8–50 位')).toBeVisible();
  await colleague.getByTestId('team-join-password').fill('Colleague-2026');
  await colleague.getByTestId('team-join-confirm').fill('Colleague-2026');
  await colleague.getByTestId('team-join-submit').click();
  await expect(colleague.getByTestId('team-join-done')).toContainText(address);

  await colleague.setViewportSize({ width: 1280, height: 800 });
  await colleague.goto('/');
  await logIn(colleague, address, 'Colleague-2026');
  await colleague.goto('/order/order-list');
  await expect(colleague.getByTestId('order-title')).toHaveCount(1);
  // The administrator's order, opened by the colleague.
  await colleague.getByTestId('order-title').click();
  await expect(colleague).toHaveURL(new RegExp(`/order/order-detail/${orderId}$`));
  await expect(colleague.getByTestId('order-event').first()).toContainText(customer.name);
  await colleague.goto('/order/order-list');
  await colleague.getByTestId('order-scope-mine').click();
  await expect(colleague.getByTestId('order-empty')).toBeVisible();
  await expect(colleague).toHaveURL(/mine=1/);
  for (const width of [1280, 390]) {
    await colleague.setViewportSize({ width, height: 800 });
    await shoot(colleague, `order-list-mine-${width}`);
  }
  await colleague.setViewportSize({ width: 1280, height: 800 });
  // An agent is not an administrator: 成员管理 says so.
  await colleague.goto('/user/team');
  await expect(colleague.getByText('只有管理员可以管理成员')).toBeVisible();

  // The administrator disables the colleague: their next page asks for a login.
  await page.reload();
  await expect(row.getByTestId('team-member-status')).toHaveText('已启用');
  await row.getByTestId('team-member-disable').click();
  await page.getByTestId('team-disable-confirm').click();
  await expect(row.getByTestId('team-member-status')).toHaveText('已停用');
  await colleague.goto('/order/order-list');
  // The stored token is refused: the page says the login expired and logs out.
  await expect(colleague.getByText(/登录已过期|请先登录/).first()).toBeVisible();
  await expect(headerUser(colleague)).toHaveCount(0);
  await context.close();
});
