// Ordering from the customer's side (spec 2.1, 2.4): 立即办理 → the
// create-order page with two applicants → the upload step; the order list's
// tabs, card, total and cancel; the detail page's sections, 继续办理 and the
// 'departure date past' dialog; the create page's validation and its messages
// for a missing, delisted or online-only product; phone width. Products come
// from the seeded e2e database, never hard-coded ids.
import { expect, type Page, test } from '@playwright/test';
import { DELISTED_CHANNEL } from '../../common/catalogue';
import { formatPrice } from '../../common/format';
import { addDays, chinaDate } from '../../common/order';
import { createCustomer, e2eDatabase, hydrated, loggedInTest, pickDate, snap } from './support';

const LISTED = `p.status <> 1 AND p.channel <> ${DELISTED_CHANNEL}`;

interface ProductRow {
  id: number;
  countryId: number;
  unitPrice: number;
  needDays: number;
}

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = e2eDatabase();
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

function run(sql: string, ...params: unknown[]): void {
  const db = e2eDatabase();
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

/** Listed and offline-capable, for all districts of a country that has several: the district is chosen on the page. */
function orderableProduct(): ProductRow {
  const row = query<ProductRow>(
    `SELECT p.visa_product_id AS id, p.visa_country_id AS countryId, p.need_days AS needDays,
            CASE WHEN p.distributor_discount_desc IS NOT NULL AND p.distributor_discount_price IS NOT NULL
                 THEN p.distributor_discount_price ELSE p.sell_price END AS unitPrice
       FROM visa_product p
      WHERE ${LISTED} AND p.offline = 1 AND p.consular_district_id IS NULL
        AND (SELECT COUNT(*) FROM consular_district d WHERE d.visa_country_id = p.visa_country_id) > 1
        AND p.need_days > 1
      ORDER BY p.visa_product_id LIMIT 1`,
  )[0];
  if (!row) throw new Error('the seed has no listed offline product without its own district in a country of several districts');
  return row;
}

function productId(where: string): number {
  const row = query<{ id: number }>(`SELECT p.visa_product_id AS id FROM visa_product p WHERE ${where} ORDER BY p.visa_product_id LIMIT 1`)[0];
  if (!row) throw new Error(`the seed has no product where ${where}`);
  return row.id;
}

/** antd Select without search: open it and choose the option `index` places down with the keyboard. */
async function chooseOption(page: Page, select: ReturnType<Page['getByTestId']>, index: number) {
  await select.click();
  for (let i = 0; i < index; i += 1) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

async function fillApplicant(page: Page, index: number, name: string, identityIndex: number, mobile: string) {
  const item = page.getByTestId('applicant-item').nth(index);
  await item.getByTestId('applicant-name').fill(name);
  await chooseOption(page, item.getByTestId('applicant-identity'), identityIndex);
  await item.getByTestId('applicant-mobile').fill(mobile);
}

/** Through the product page's 立即办理 to a created order with two applicants; returns its id. */
async function createOrder(page: Page, product: ProductRow, departure: string): Promise<number> {
  await page.goto(`/visa/product/${product.id}`);
  await hydrated(page);
  await page.getByTestId('product-apply').click();
  await expect(page).toHaveURL(new RegExp(`/ordering/create-order\\?visa_product_id=${product.id}&visa_country_id=${product.countryId}$`));
  await hydrated(page);
  await page.getByTestId('applicant-add').click();
  await fillApplicant(page, 0, '张伟', 0, '138 0013 8000');
  await fillApplicant(page, 1, '李娜', 2, '13900139000');
  await page.getByTestId('applicant-item').nth(0).getByTestId('applicant-email').fill('zhangwei@example.com');
  await chooseOption(page, page.getByTestId('district-select'), 0);
  await pickDate(page, 'departure-date', departure);
  await expect(page.getByTestId('create-order-total')).toHaveText(formatPrice(product.unitPrice * 2));
  await page.getByTestId('create-order-submit').click();
  await page.waitForURL(/\/ordering\/upload\/\d+$/);
  return Number(/\/ordering\/upload\/(\d+)$/.exec(page.url())![1]);
}

const today = () => chinaDate(Date.now());

// Each test logs its own new customer in (loggedInTest), so its orders are the only ones listed.
loggedInTest.describe('ordering', () => {
  loggedInTest.beforeEach(async ({ page }) => {
    await page.goto('/about');
  });

  loggedInTest('立即办理 → two applicants → the order is listed under 全部 and 待支付, shown in detail, and cancelled from the list', async ({ page }) => {
    test.slow(); // one order through four pages
    const product = orderableProduct();
    const departure = addDays(today(), 45);
    const id = await createOrder(page, product, departure);

    const saved = query<{ status: string; applicant_count: number; total_amount: number; departure_date: string; consular_district_id: number | null }>(
      'SELECT status, applicant_count, total_amount, departure_date, consular_district_id FROM user_order WHERE user_order_id = ?',
      id,
    )[0]!;
    expect(saved).toMatchObject({ status: 'draft', applicant_count: 2, total_amount: product.unitPrice * 2, departure_date: departure });
    expect(saved.consular_district_id).not.toBeNull();
    expect(
      query<{ mobile_phone: string }>('SELECT mobile_phone FROM order_applicant WHERE user_order_id = ? ORDER BY sort, applicant_id', id).map(
        (a) => a.mobile_phone,
      ),
    ).toEqual(['13800138000', '13900139000']);

    // 全部
    await page.goto('/order/order-list');
    const card = page.locator(`[data-testid="order-card"][data-order-id="${id}"]`);
    await expect(card).toBeVisible();
    await expect(card.getByTestId('order-applicant')).toHaveCount(2);
    await expect(card.getByTestId('order-applicants')).toContainText('张伟');
    await expect(card.getByTestId('order-applicants')).toContainText('李娜');
    await expect(card.getByTestId('order-total')).toHaveText(formatPrice(product.unitPrice * 2));
    await expect(card.getByTestId('order-status')).toHaveText('草稿');
    await expect(card.getByTestId('order-expiry')).toHaveText(/(23小时\d+分|24小时0分)后自动取消$/);
    await expect(card.getByTestId('order-departure')).toContainText(departure);
    await snap(page, 'orders-list-all');

    // 待支付, kept in the URL across a reload
    await page.getByTestId('order-tab-unpaid').click();
    await expect(page).toHaveURL(/\?tab=unpaid$/);
    await expect(card).toBeVisible();
    await page.reload();
    await expect(card).toBeVisible();
    await expect(page.getByRole('tab', { name: '待支付', selected: true })).toBeVisible();

    // Detail: the sections of spec 2.4 that exist now
    await card.getByTestId('order-action-detail').click();
    await expect(page).toHaveURL(new RegExp(`/order/order-detail/${id}$`));
    for (const section of ['order-basic-info', 'order-return-address', 'order-schedule', 'order-insurance', 'order-payment', 'order-applicants-section']) {
      await expect(page.getByTestId(section)).toBeVisible();
    }
    await expect(page.getByTestId('order-basic-info')).toContainText(departure);
    await expect(page.getByTestId('order-schedule').getByTestId('order-event')).toHaveCount(1);
    await expect(page.getByTestId('order-schedule').getByTestId('order-event')).toContainText('创建订单');
    await expect(page.getByTestId('order-applicant-card')).toHaveCount(2);
    await expect(page.getByTestId('order-detail-total')).toHaveText(formatPrice(product.unitPrice * 2));
    await expect(page.getByTestId('departure-date-dialog')).toHaveCount(0);
    await expect(page.locator('.site-footer')).toHaveCount(0);
    await snap(page, 'orders-detail-draft');

    // 继续办理 leads to the first ordering step not done: the upload of materials
    await page.getByTestId('order-action-continue').click();
    await expect(page).toHaveURL(new RegExp(`/ordering/upload/${id}$`));

    // The card's 继续办理 asks for the order's step first, and goes to the same page
    await page.goto('/order/order-list?tab=unpaid');
    await card.getByTestId('order-action-continue').click();
    await expect(page).toHaveURL(new RegExp(`/ordering/upload/${id}$`));

    // Cancel from the list: confirm dialog, then it moves to 已取消/已退款
    await page.goto('/order/order-list?tab=unpaid');
    await card.getByTestId('order-action-cancel').click();
    await expect(page.locator('.ant-modal-confirm-title')).toHaveText('确定取消该订单吗？');
    await page.getByTestId('order-cancel-confirm').click();
    await expect(page.getByText('订单已取消').first()).toBeVisible();
    await expect(card).toHaveCount(0);
    await page.getByTestId('order-tab-closed').click();
    await expect(page).toHaveURL(/\?tab=closed$/);
    await expect(card.getByTestId('order-status')).toHaveText('已取消');
    await expect(card.getByTestId('order-action-cancel')).toHaveCount(0);
    expect(query<{ status: string }>('SELECT status FROM user_order WHERE user_order_id = ?', id)[0]!.status).toBe('cancelled');
  });

  loggedInTest('a departure date that has passed opens the dialog on the detail page, and the new date is saved', async ({ page }) => {
    test.slow();
    const product = orderableProduct();
    // Tomorrow leaves fewer working days than the product needs: said in a warning, the order stands.
    const id = await createOrder(page, product, addDays(today(), 1));
    await expect(page.locator('.ant-message-warning')).toContainText('建议出发日期不早于');
    const yesterday = addDays(today(), -1);
    run('UPDATE user_order SET departure_date = ?, order_date = ? WHERE user_order_id = ?', yesterday, yesterday, id);

    await page.goto('/order/order-list?tab=unpaid');
    const card = page.locator(`[data-testid="order-card"][data-order-id="${id}"]`);
    await expect(card.getByTestId('order-departure')).toContainText('已过期');
    await card.getByTestId('order-action-choose_departure_date').click();
    await expect(page).toHaveURL(new RegExp(`/order/order-detail/${id}$`));
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('departure-date-dialog')).toBeVisible();
    await expect(dialog).toContainText('出发日期已过');
    await expect(dialog).toContainText(yesterday);
    await snap(page, 'orders-departure-past-dialog');

    const next = addDays(today(), 20);
    await pickDate(page, 'departure-date-dialog-picker', next);
    await dialog.getByTestId('departure-date-save').click();
    await expect(page.getByText('出发日期已更新')).toBeVisible();
    await expect(page.getByTestId('departure-date-dialog')).toHaveCount(0);
    await expect(page.getByTestId('order-basic-info').getByTestId('order-departure')).toHaveText(next);
    expect(query<{ departure_date: string }>('SELECT departure_date FROM user_order WHERE user_order_id = ?', id)[0]!.departure_date).toBe(next);
  });

  loggedInTest('the create page marks empty, invalid and repeated applicants red, with the toast', async ({ page }) => {
    const product = orderableProduct();
    await page.goto(`/ordering/create-order?visa_product_id=${product.id}&visa_country_id=${product.countryId}`);
    await hydrated(page);
    await page.getByTestId('create-order-submit').click();
    await expect(page.getByText('请检查标红字段')).toBeVisible();
    const errors = page.locator('.ant-form-item-explain-error');
    for (const message of ['请选择领区', '请选择出发日期', '请输入申请人姓名', '请选择申请人身份', '请输入手机号']) {
      await expect(errors.getByText(message, { exact: true })).toBeVisible();
    }
    const first = page.getByTestId('applicant-item').nth(0);
    await first.getByTestId('applicant-mobile').fill('12345');
    await first.getByTestId('applicant-email').fill('not-an-email');
    await first.getByTestId('applicant-name').click();
    await expect(errors.getByText('请输入正确的手机号')).toBeVisible();
    await expect(errors.getByText('请输入正确的邮箱')).toBeVisible();

    // The same name and mobile twice (spaces do not make a difference)
    await page.getByTestId('applicant-add').click();
    await fillApplicant(page, 0, '王芳', 0, '13700137000');
    await fillApplicant(page, 1, ' 王芳 ', 1, '137 0013 7000');
    await first.getByTestId('applicant-email').fill('');
    await page.getByTestId('create-order-submit').click();
    await expect(errors.getByText('与前面的申请人重复（姓名和手机号都相同）')).toBeVisible();
    await expect(errors).toHaveCount(3); // district, departure date, the repeated applicant
    await expect(page.getByTestId('create-order-total')).toHaveText(formatPrice(product.unitPrice * 2));

    // Remove down to one applicant; the last one cannot be removed
    await page.getByTestId('applicant-item').nth(1).getByTestId('applicant-remove').click();
    await expect(page.getByTestId('applicant-item')).toHaveCount(1);
    await expect(page.getByTestId('applicant-remove')).toBeDisabled();
    await expect(page).toHaveURL(/\/ordering\/create-order/);
  });

  loggedInTest('a missing, unknown, delisted or online-only product is explained instead of the form', async ({ page }) => {
    const cases: Array<[string, string]> = [
      ['/ordering/create-order', '请选择要办理的签证产品'],
      ['/ordering/create-order?visa_product_id=abc', '请选择要办理的签证产品'],
      ['/ordering/create-order?visa_product_id=99999999', '该签证产品不存在'],
      [`/ordering/create-order?visa_product_id=${productId(`(p.status = 1 OR p.channel = ${DELISTED_CHANNEL})`)}`, '该商品已下架'],
      [`/ordering/create-order?visa_product_id=${productId(`${LISTED} AND p.offline = 0`)}`, '该商品不支持线下办理'],
    ];
    for (const [path, title] of cases) {
      await page.goto(path);
      await expect(page.getByTestId('create-order-problem')).toContainText(title);
      await expect(page.getByTestId('create-order-form')).toHaveCount(0);
    }
  });

  loggedInTest("another enterprise's order answers like a missing one", async ({ page }) => {
    const id = await createOrder(page, orderableProduct(), addDays(today(), 40));
    // A copy of it that belongs to another enterprise.
    const other = await createCustomer();
    const columns = query<{ name: string }>(
      "SELECT name FROM pragma_table_info('user_order') WHERE name NOT IN ('user_order_id', 'enterprise_id', 'account_id', 'order_no')",
    ).map((c) => c.name);
    run(
      // order_no is unique: the copy gets its own (the id is not known before the insert).
      `INSERT INTO user_order (enterprise_id, account_id, order_no, ${columns.join(', ')})
       SELECT a.enterprise_id, a.id, o.order_no || 'X', ${columns.map((c) => `o.${c}`).join(', ')} FROM user_order o, account a WHERE o.user_order_id = ? AND a.account = ?`,
      id,
      other.account,
    );
    const foreign = query<{ id: number }>('SELECT MAX(user_order_id) AS id FROM user_order')[0]!.id;
    await page.goto(`/order/order-detail/${foreign}`);
    await expect(page.getByTestId('order-missing')).toContainText('订单不存在');
    await page.goto('/order/order-list');
    await expect(page.locator(`[data-testid="order-card"][data-order-id="${id}"]`)).toBeVisible();
    await expect(page.locator(`[data-testid="order-card"][data-order-id="${foreign}"]`)).toHaveCount(0);
  });

  loggedInTest('at phone width the create page and the list fit the screen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const product = orderableProduct();
    await page.goto(`/ordering/create-order?visa_product_id=${product.id}`);
    await hydrated(page);
    await expect(page.getByTestId('create-order-submit')).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, 'orders-create-390');
    await page.goto('/order/order-list');
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
