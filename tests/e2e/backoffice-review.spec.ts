// The back office's first stage, end to end with two browser contexts (the
// test's own customer and operator): the customer pays with the sandbox; the
// operator logs in at /admin/login (password + TOTP), finds
// the order in the queue, takes it and fails one file with a memo; the
// customer finds it under 需要处理, re-uploads that file on
// /order/order-reupload and submits; the operator passes it and the order
// moves on, which the customer's order detail shows. Screenshots of the
// queue, the workbench and the re-upload page.
import { type Browser, expect, type Page } from '@playwright/test';
import jpeg from 'jpeg-js';
import { FIXTURES } from '../fixtures/index';
import { e2eDatabase, freshTotpCode, hydrated, loggedInTest, NO_SESSION, signedApiHeaders, snap, type StaffMember } from './support';

async function call<T>(baseURL: string, path: string, payload: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { ...signedApiHeaders(token), 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
}

/** A real (small) JPEG: uploads are checked by content. */
function scan(shade: number): Blob {
  const width = 120;
  const height = 160;
  return new Blob([Buffer.from(jpeg.encode({ data: Buffer.alloc(width * height * 4, shade), width, height }, 80).data)], { type: 'image/jpeg' });
}

/** A confirmed (pending_payment) order of the customer (its session token): created, every material uploaded, return address, confirmed. */
async function confirmedOrder(baseURL: string, token: string): Promise<number> {
  const db = e2eDatabase();
  const product = db
    .prepare(
      `select visa_product_id from visa_product where status = 0 and channel = 0 and offline = 1 and need_interview = 0 order by visa_product_id limit 1`,
    )
    .get() as { visa_product_id: number };
  db.close();
  const departure = new Date(Date.now() + 60 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id: userOrderId } = await call<{ user_order_id: number }>(
    baseURL,
    '/www/order/order_create',
    { visa_product_id: product.visa_product_id, departure_date: departure, applicants: [{ name: '林书瑶', identity_id: 0, mobile_phone: '13600136001' }] },
    token,
  );
  const detail = await call<{ missing_materials: Array<{ applicant_id: number; material_id: number | null }> }>(
    baseURL,
    '/www/order/order_detail_get',
    { user_order_id: userOrderId },
    token,
  );
  for (const [index, item] of detail.missing_materials.entries()) {
    const form = new FormData();
    form.append('user_order_id', String(userOrderId));
    form.append('applicant_id', String(item.applicant_id));
    if (item.material_id === null) form.append('kind', 'photo');
    else form.append('material_id', String(item.material_id));
    form.append('file', scan(120 + index * 20), `scan-${index + 1}.jpg`);
    const response = await fetch(`${baseURL}/www/order/material_upload`, { method: 'POST', headers: signedApiHeaders(token), body: form });
    const envelope = (await response.json()) as { ret: number; msg: string };
    expect(envelope.ret, envelope.msg).toBe(0);
  }
  const address = await call<{ address_id: number }>(
    baseURL,
    '/www/address/address_save',
    {
      kind: 'return',
      name: '林书瑶',
      mobile_phone: '13600136001',
      province_code: '440000',
      city_code: '440300',
      county_code: '440305',
      detail: '科技园南区 2 号',
    },
    token,
  );
  await call(baseURL, '/www/order/order_confirm', { user_order_id: userOrderId, address_id: address.address_id, insurance_plan_id: null }, token);
  return userOrderId;
}

/** The customer pays with the sandbox: 去支付 on the confirm page, the QR code's pay page on a "phone", back to the detail. */
async function pay(page: Page, userOrderId: number) {
  await page.goto(`/ordering/order-confirm/${userOrderId}`);
  await page.getByTestId('confirm-submit').click();
  const dialog = page.getByRole('dialog').filter({ hasText: '支付订单' });
  await expect(dialog.getByTestId('pay-qrcode')).toBeVisible();
  const phone = await page.context().newPage();
  await phone.goto((await dialog.getByTestId('pay-sandbox-link').getAttribute('href'))!);
  await phone.getByRole('button', { name: '确认支付' }).click();
  await expect(phone.getByText('支付成功', { exact: true })).toBeVisible();
  await phone.close();
  await page.waitForURL(`**/order/order-detail/${userOrderId}`, { timeout: 20_000 });
}

/** The operator logs in at /admin/login with password and the authenticator's code, in a browser context of its own. */
async function operatorPage(browser: Browser, { account, password, totpSecret }: StaffMember): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: NO_SESSION });
  const page = await context.newPage();
  await page.goto('/admin/login');
  await hydrated(page);
  await page.getByLabel('账号').fill(account);
  await page.getByLabel('密码').fill(password);
  await page.getByLabel('动态验证码').fill(await freshTotpCode(account, totpSecret));
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  return page;
}

const files = (page: Page) => page.getByTestId('review-file');

loggedInTest(
  'customer pays → operator takes and fails a file → customer re-uploads → operator passes → the order moves on',
  async ({ page, browser, baseURL, customer, operator }) => {
    loggedInTest.setTimeout(180_000);
    // The customer.
    const userOrderId = await confirmedOrder(baseURL!, customer.token);
    await pay(page, userOrderId);
    await expect(page.getByTestId('order-detail-page')).toContainText('资料审核中');

    // The operator: logs in with the TOTP code, finds the order in the queue, takes it.
    const staff = await operatorPage(browser, operator);
    await staff.getByRole('link', { name: '订单队列' }).click();
    await expect(staff.getByTestId('admin-queue')).toBeVisible();
    await staff.getByTestId('queue-search').locator('input').fill(String(userOrderId));
    await staff.getByTestId('queue-search').locator('input').press('Enter');
    await expect(staff).toHaveURL(new RegExp(`q=${userOrderId}`));
    const row = staff.locator('tr', { has: staff.getByRole('link', { name: new RegExp(`^YD\\d{8}0*${userOrderId}$`) }) });
    await expect(row).toContainText('资料审核中');
    await expect(row).toContainText('未分配');
    await staff.goto('/admin/orders');
    await snap(staff, 'backoffice/queue');
    await staff.goto(`/admin/orders?q=${userOrderId}`);
    // 领取 is a button of the hydrated page: a click before React has hydrated it does nothing.
    await hydrated(staff);
    await row.getByTestId('queue-take').click();
    await expect(staff).toHaveURL(new RegExp(`/admin/orders/${userOrderId}$`));

    // The workbench: every file pending; fail the first with a reason and a memo, pass the others.
    await expect(staff.getByTestId('workbench-review-hint')).toContainText('待审核');
    const count = await files(staff).count();
    expect(count).toBeGreaterThan(1);
    const viewer = staff.getByTestId('review-view').locator('img');
    await expect(viewer).toBeVisible();
    await snap(staff, 'backoffice/workbench');
    // A click on a file shows it in the review's one viewer (zoom, rotate), beside its checklist item.
    const secondId = (await files(staff).nth(1).getAttribute('data-file-id'))!;
    await files(staff).nth(1).click();
    await expect(viewer).toHaveAttribute('src', new RegExp(`/${secondId}(\\b|/|\\?|$)`));
    await expect(viewer).toBeVisible();
    const failedId = await files(staff).first().getAttribute('data-file-id');
    await files(staff).first().click();
    await staff.getByTestId('review-no-pass').click();
    const dialog = staff.getByRole('dialog');
    await dialog.getByRole('checkbox', { name: '模糊不清' }).check();
    await dialog.getByTestId('review-memo').fill('请上传清晰的彩色扫描件');
    await dialog.getByRole('button', { name: '确定不通过' }).click();
    await expect(staff.locator(`[data-file-id="${failedId}"]`)).toHaveAttribute('data-review-status', 'no_pass');
    for (let i = 1; i < count; i += 1) {
      const file = files(staff).nth(i);
      await file.click();
      await staff.getByTestId('review-pass').click();
      if (i < count - 1) await expect(file).toHaveAttribute('data-review-status', 'passed');
    }
    // The round ended by itself, and the workbench moved on to the next order of the queue (or the queue).
    await expect(staff).not.toHaveURL(new RegExp(`/admin/orders/${userOrderId}$`));
    await staff.goto(`/admin/orders/${userOrderId}`);
    await expect(staff.getByTestId('workbench-step')).toHaveText('待重新上传资料');
    await staff.getByTestId('fold-events-toggle').click();
    await expect(staff.getByTestId('workbench-events')).toContainText('资料审核未通过，待重新上传');
    await staff.screenshot({ path: 'screenshots/backoffice/workbench-after-round.png', fullPage: true });

    // The customer: 需要处理 → 重新上传.
    await page.goto('/order/order-list');
    await page.getByTestId('order-tab-action').click();
    const card = page.locator(`[data-testid="order-card"][data-order-id="${userOrderId}"]`);
    await expect(card).toContainText('待重新上传资料');
    await card.getByTestId('order-action-reupload').click();
    await expect(page).toHaveURL(new RegExp(`/order/order-reupload/${userOrderId}$`));
    const reupload = page.getByTestId('reupload-page');
    await expect(reupload.getByTestId('upload-file')).toHaveCount(1);
    await expect(reupload).toContainText('模糊不清；请上传清晰的彩色扫描件');
    // Issue 27: the failed item says so (not a green 已上传), its reason in full width under the name.
    await expect(reupload.getByTestId('upload-item-failed')).toHaveText(/未通过 · 请替换/);
    await expect(reupload.getByTestId('upload-item-review')).toContainText('审核意见：模糊不清；请上传清晰的彩色扫描件');
    await expect(page.getByTestId('reupload-submit')).toBeDisabled();
    await snap(page, 'backoffice/reupload');
    const tile = reupload.locator(`[data-testid="upload-file"][data-file-id="${failedId}"]`);
    await tile.locator('input[type=file]').setInputFiles(FIXTURES.photo);
    await expect(tile).toContainText('visa-photo.jpg');
    await expect(tile).not.toContainText('未通过');
    await expect(page.getByTestId('reupload-left')).toContainText('已全部处理');
    // The reason stays after the replacement (the server keeps it until the operator reviews again).
    await expect(reupload.getByTestId('upload-item-review')).toContainText('模糊不清；请上传清晰的彩色扫描件');
    await expect(reupload.getByTestId('upload-item-review')).toContainText('已替换，待重新审核');
    await expect(reupload.getByTestId('upload-item-failed')).toHaveCount(0);
    await snap(page, 'backoffice/reupload-replaced');
    await page.getByTestId('reupload-submit').click();
    await expect(page).toHaveURL(new RegExp(`/order/order-detail/${userOrderId}$`));
    await expect(page.getByTestId('order-detail-page')).toContainText('资料审核中');
    await expect(page.getByTestId('order-review-section')).toContainText('待审核');

    // The operator: round 2 has the replaced file only; passing it moves the order on.
    await staff.reload();
    await expect(staff.getByTestId('workbench-review-hint')).toContainText('第 2 轮');
    const again = staff.locator(`[data-testid="review-file"][data-file-id="${failedId}"]`);
    await expect(again).toHaveAttribute('data-review-status', 'pending');
    await again.click();
    await staff.getByTestId('review-pass').click();
    await expect(staff).not.toHaveURL(new RegExp(`/admin/orders/${userOrderId}$`));
    await staff.goto(`/admin/orders/${userOrderId}`);
    await expect(staff.getByTestId('workbench-step')).not.toHaveText(/资料审核中|待重新上传资料/);
    const next = (await staff.getByTestId('workbench-step').textContent())!;
    expect(['待邮寄资料', '待确认核对页']).toContain(next);

    // The customer's detail shows the new step and every file passed.
    await page.reload();
    await expect(page.getByTestId('order-detail-page')).toContainText(next);
    await expect(page.getByTestId('order-review-file').filter({ hasText: '未通过' })).toHaveCount(0);
    await snap(page, 'backoffice/detail-after-review');

    // The opens were logged.
    const db = e2eDatabase();
    const logged = db.prepare('select count(*) as n from file_access_log where user_order_id = ?').get(userOrderId) as { n: number };
    const events = db.prepare('select event from order_event where user_order_id = ? order by event_id').all(userOrderId) as Array<{ event: string }>;
    db.close();
    expect(logged.n).toBeGreaterThan(0);
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['pay', 'assign', 'material_review_failed', 'reupload_submit', 'material_review_passed']),
    );
    await staff.context().close();
  },
);
