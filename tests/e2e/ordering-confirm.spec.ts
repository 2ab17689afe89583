// The confirm step end to end: a draft whose materials were uploaded through
// the real upload call, a new return address entered with the province /
// city / county cascader, an insurance plan with its protocol, the footer's
// total, and '确认并支付' opening the payment dialog on a confirmed order.
import { expect, type Page, test } from '@playwright/test';
import jpeg from 'jpeg-js';
import { formatPrice } from '../../common/format';
import { createProduct, e2eDatabase, loggedInTest, signedApiHeaders, snap } from './support';

// The e2e server runs with the development client pair (no API_CLIENTS set).
async function api<T>(baseURL: string, path: string, payload: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { ...signedApiHeaders(token), 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
}

/** A small real JPEG: the upload call checks the bytes, not the name. */
function scanJpeg(): Uint8Array<ArrayBuffer> {
  const width = 60;
  const height = 80;
  const data = Buffer.alloc(width * height * 4, 230);
  return new Uint8Array(jpeg.encode({ data, width, height }, 85).data);
}

async function uploadFile(baseURL: string, token: string, fields: Record<string, string>): Promise<void> {
  const form = new FormData();
  // The upload call wants its fields before the file.
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([scanJpeg()], { type: 'image/jpeg' }), 'scan.jpg');
  const response = await fetch(`${baseURL}/www/order/material_upload`, { method: 'POST', headers: signedApiHeaders(token), body: form });
  const envelope = (await response.json()) as { ret: number; msg: string };
  expect(envelope.ret, envelope.msg).toBe(0);
}

interface Draft {
  userOrderId: number;
  productAmount: number;
  unitPrice: number;
  applicantCount: number;
  departure: string;
}

/** A draft of the customer's enterprise; with `complete`, every required material and photo uploaded through the API. */
async function prepareDraft(baseURL: string, token: string, complete: boolean): Promise<Draft> {
  // A product of the test's own: no interview step, a visa photo, a stay within the plans' range.
  const product = await createProduct({ interview: false, photo: true, stayDays: 30 });
  const departure = new Date(Date.now() + 30 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id } = await api<{ user_order_id: number }>(
    baseURL,
    '/www/order/order_create',
    {
      visa_product_id: product.visa_product_id,
      departure_date: departure,
      applicants: [
        { name: '陈静', identity_id: 0, mobile_phone: '13900139001' },
        { name: '陈小雨', identity_id: 3, mobile_phone: '13900139002' },
      ],
    },
    token,
  );
  const detail = await api<{
    product_amount: number;
    unit_price: number;
    applicant_count: number;
    missing_materials: Array<{ applicant_id: number; material_id: number | null }>;
  }>(baseURL, '/www/order/order_detail_get', { user_order_id }, token);
  if (complete) {
    for (const item of detail.missing_materials) {
      await uploadFile(baseURL, token, {
        user_order_id: String(user_order_id),
        applicant_id: String(item.applicant_id),
        ...(item.material_id === null ? { kind: 'photo' } : { material_id: String(item.material_id) }),
      });
    }
  }
  return {
    userOrderId: user_order_id,
    productAmount: detail.product_amount,
    unitPrice: detail.unit_price,
    applicantCount: detail.applicant_count,
    departure,
  };
}

async function pickRegion(page: Page, names: string[]) {
  await page.getByTestId('region-cascader').click();
  const popup = page.locator('.addr-region-popup');
  // The accessible name also holds the expand icon's label ('广东省 right'): match the text.
  const item = (name: string) => popup.getByRole('menuitemcheckbox').filter({ hasText: new RegExp(`^${name}$`) });
  for (const [level, name] of names.entries()) {
    const next = names[level + 1];
    if (next === undefined) {
      await item(name).click();
      break;
    }
    // A click while the popup is still sliding in can miss: click until the next column shows.
    await expect(async () => {
      await item(name).click();
      await expect(item(next)).toBeVisible({ timeout: 1_000 });
    }).toPass();
  }
  await expect(popup).toBeHidden();
}

loggedInTest('a complete draft gets a new return address and insurance, shows the total, and opens the payment dialog', async ({ page, baseURL, customer }) => {
  // A long journey (a dozen uploads, a login, two dialogs, a payment): three times the usual time limit.
  test.slow();
  const draft = await prepareDraft(baseURL!, customer.token, true);
  await page.goto(`/ordering/order-confirm/${draft.userOrderId}`);
  await expect(page.getByTestId('confirm-infos')).toContainText('陈小雨');
  await expect(page.getByTestId('confirm-blockers')).toHaveCount(0);

  // The footer before insurance: product only.
  await expect(page.getByTestId('confirm-price-text')).toHaveText(`产品费用 ${formatPrice(draft.unitPrice)} × 2 = 合计 ${formatPrice(draft.productAmount)}`);

  // A new return address through the cascader.
  await page.getByTestId('choose-return-address').click();
  const dialog = page.getByTestId('address-dialog-return');
  await expect(dialog).toBeVisible();
  await page.getByTestId('address-add-return').click();
  const form = page.getByTestId('address-form');
  await form.getByLabel('收件人').fill('陈静');
  await form.getByLabel('手机号').fill('139 0013 9001');
  await pickRegion(page, ['广东省', '深圳市', '南山区']);
  await form.getByLabel('详细地址').fill('科技园南区深南大道 9988 号 12 楼');
  await snap(page, 'confirm/e2e-address-form');
  await page.getByTestId('address-form-save').click();
  await expect(dialog).toBeHidden();
  const address = page.getByTestId('confirm-return-address');
  await expect(address).toContainText('广东省 深圳市 南山区 科技园南区深南大道 9988 号 12 楼');
  await expect(address).toContainText('13900139001');

  // The trip: an assumed week until the customer gives the return date, then priced for theirs (12 days, both ends counted).
  const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  await expect(page.getByTestId('insurance-trip-note')).toContainText('行程 7 天');
  await expect(page.getByTestId('insurance-trip-note')).toContainText('尚未填写回程日期');
  const returnDate = addDays(draft.departure, 11);
  await page.getByLabel('回程日期').fill(returnDate);
  await page.getByLabel('回程日期').press('Enter');
  await expect(page).toHaveURL(new RegExp(`return_date=${returnDate}`));
  await expect(page.getByTestId('insurance-trip-note')).toContainText('行程 12 天');
  await expect(page.getByTestId('insurance-trip-note')).toContainText('保费按此行程计算');

  // The standard plan, the trip's days, both applicants insured, the protocol.
  const plan = page.getByTestId('insurance-plan').filter({ hasText: '标准款' });
  await plan.click();
  await expect(plan).toHaveAttribute('aria-checked', 'true');
  const db = e2eDatabase();
  const planRow = db.prepare(`select insurance_plan_id, price_per_day, min_days, max_days from insurance_plan where name = '标准款'`).get() as {
    insurance_plan_id: number;
    price_per_day: number;
    min_days: number;
    max_days: number;
  };
  db.close();
  const days = Number(await page.getByLabel('保险天数').inputValue());
  expect(days).toBe(12);
  expect(days).toBeGreaterThanOrEqual(planRow.min_days);
  expect(days).toBeLessThanOrEqual(planRow.max_days);
  // The per-person cost on the plan card and beside the total.
  await expect(plan.getByTestId('insurance-plan-per-person')).toHaveText(`每人 ${formatPrice(planRow.price_per_day * 12)}（12 天）`);
  await expect(page.getByTestId('insurance-per-person')).toHaveText(formatPrice(planRow.price_per_day * 12));
  await expect(page.locator('[data-testid="insured-applicant"][aria-checked="true"]')).toHaveCount(2);
  const insurance = planRow.price_per_day * days * 2;
  const total = draft.productAmount + insurance;
  await expect(page.getByTestId('confirm-price-text')).toHaveText(
    `产品费用 ${formatPrice(draft.unitPrice)} × 2 + 保险 ${formatPrice(insurance)} = 合计 ${formatPrice(total)}`,
  );
  await expect(page.getByTestId('confirm-total')).toHaveText(formatPrice(total));

  // Without the protocol the page says so and nothing is confirmed.
  await page.getByTestId('confirm-submit').click();
  await expect(page.getByText('请阅读并同意《保险条款》')).toBeVisible();
  await page.getByTestId('insurance-terms-link').click();
  await expect(page.getByTestId('terms-text')).toContainText('中国人民财产保险');
  await page.getByTestId('terms-agree').click();
  await expect(page.getByRole('checkbox', { name: '我已阅读并同意' })).toBeChecked();
  await snap(page, 'confirm/e2e-before-confirm');

  await page.getByTestId('confirm-submit').click();
  const payment = page.getByRole('dialog').filter({ hasText: formatPrice(total).replace('￥', '') });
  await expect(payment).toBeVisible();
  await snap(page, 'confirm/e2e-payment-dialog');

  const check = e2eDatabase();
  const order = check
    .prepare(`select status, total_amount, insurance_amount, insurance_plan_id, return_address, insurance_snapshot from user_order where user_order_id = ?`)
    .get(draft.userOrderId) as {
    status: string;
    total_amount: number;
    insurance_amount: number;
    insurance_plan_id: number;
    return_address: string;
    insurance_snapshot: string;
  };
  const insured = check.prepare(`select count(*) as n from order_applicant where user_order_id = ? and insured = 1`).get(draft.userOrderId) as { n: number };
  check.close();
  expect(order).toMatchObject({ status: 'pending_payment', total_amount: total, insurance_amount: insurance, insurance_plan_id: planRow.insurance_plan_id });
  expect(JSON.parse(order.return_address)).toMatchObject({
    name: '陈静',
    mobile_phone: '13900139001',
    province_name: '广东省',
    city_name: '深圳市',
    county_name: '南山区',
  });
  expect(JSON.parse(order.insurance_snapshot)).toMatchObject({ name: '标准款', days, insured_count: 2, amount: insurance });
  expect(insured.n).toBe(2);

  // Closing the dialog leaves the confirmed order, read-only, payable.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('confirm-confirmed')).toBeVisible();
  await expect(page.getByTestId('confirm-submit')).toHaveText('去支付');
  await expect(page.getByTestId('choose-return-address')).toHaveCount(0);
  await expect(page.getByTestId('confirm-insurance')).toContainText('标准款');
});

loggedInTest('on a phone, an incomplete draft says what is missing and cannot be confirmed', async ({ page, baseURL, customer }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const draft = await prepareDraft(baseURL!, customer.token, false);
  await page.goto(`/ordering/order-confirm/${draft.userOrderId}`);
  const blockers = page.getByTestId('confirm-blockers');
  await expect(blockers).toContainText('资料尚未上传完整：陈静（');
  await expect(blockers.getByRole('link', { name: '去上传资料' })).toHaveAttribute('href', `/ordering/upload/${draft.userOrderId}`);
  await expect(page.getByTestId('confirm-submit')).toBeDisabled();
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, 'confirm/e2e-blockers-390');
});
