// The whole ordering journey of issue 4 in one go, as a customer does it:
// log in → product page → 立即办理 → two applicants → upload real JPEG/PDF
// files (a wrong type and an oversize file refused) → interview times → a new
// return address through the cascader → insurance → pay on the sandbox's pay
// page → the order under 办理中 in the list with the right total. Screenshots
// of every step go to screenshots/journey/. The product comes from the seeded
// e2e database, never a hard-coded id.
import { expect, type Page, test } from '@playwright/test';
import { formatPrice } from '../../common/format';
import { addDays, chinaDate } from '../../common/order';
import { FIXTURES, oversizeFile } from '../fixtures/index';
import { e2eDatabase, hydrated, loggedInTest, pickDate, snap } from './support';

/** Listed, offline, with an interview, a visa photo and a stay the insurance plans cover; fewest uploads first. */
function journeyProduct(): { id: number; countryId: number } {
  const db = e2eDatabase();
  try {
    const row = db
      .prepare(
        `select p.visa_product_id as id, p.visa_country_id as countryId from visa_product p
          where p.status = 0 and p.channel = 0 and p.offline = 1 and p.need_interview = 1 and p.visa_photo_id <> 0
            and p.stay_days between 1 and 60
          order by (select count(*) from visa_product_material m
                     where m.visa_product_id = p.visa_product_id and m.attr = 0 and m.required = 1 and m.identity_id in (0, 3)), p.visa_product_id
          limit 1`,
      )
      .get() as { id: number; countryId: number } | undefined;
    if (!row) throw new Error('the seed has no orderable product with an interview and a photo');
    return row;
  } finally {
    db.close();
  }
}

async function chooseOption(page: Page, select: ReturnType<Page['getByTestId']>, index: number) {
  await select.click();
  for (let i = 0; i < index; i += 1) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

/** The item's own upload input (not the replace inputs of its files). */
const addInput = (item: ReturnType<Page['getByTestId']>) => item.locator('.up-slot-actions input[type=file]');

loggedInTest('logged in: 立即办理 → upload → interview → address and insurance → pay in the sandbox → listed under 办理中', async ({ page, context }) => {
  test.setTimeout(240_000);
  const product = journeyProduct();
  const departure = addDays(chinaDate(Date.now()), 40);

  // 1. Open the product, logged in (loggedInTest wrote the session).
  await page.goto(`/visa/product/${product.id}`);
  await hydrated(page);
  await snap(page, 'journey/01-product');
  await page.getByTestId('product-apply').click();

  // 2. Create the order: two applicants, the district, the departure date.
  await expect(page).toHaveURL(new RegExp(`/ordering/create-order\\?visa_product_id=${product.id}&visa_country_id=${product.countryId}$`));
  await hydrated(page);
  await page.getByTestId('applicant-add').click();
  const applicants = page.getByTestId('applicant-item');
  await applicants.nth(0).getByTestId('applicant-name').fill('周婷');
  await chooseOption(page, applicants.nth(0).getByTestId('applicant-identity'), 0);
  await applicants.nth(0).getByTestId('applicant-mobile').fill('13800138021');
  await applicants.nth(1).getByTestId('applicant-name').fill('周子涵');
  await chooseOption(page, applicants.nth(1).getByTestId('applicant-identity'), 3);
  await applicants.nth(1).getByTestId('applicant-mobile').fill('13800138022');
  const district = page.getByTestId('district-select');
  if ((await district.count()) > 0 && !(await district.locator('.ant-select-disabled').count()) && (await district.isEnabled())) {
    await chooseOption(page, district, 0);
  }
  await pickDate(page, 'departure-date', departure);
  await snap(page, 'journey/02-create-order');
  await page.getByTestId('create-order-submit').click();
  await page.waitForURL(/\/ordering\/upload\/\d+$/);
  const orderId = Number(/\/ordering\/upload\/(\d+)$/.exec(page.url())![1]);

  // 3. Upload every required material (JPEG and PDF) and the photos; a wrong type and 11 MB are refused.
  await hydrated(page);
  const cards = page.getByTestId('upload-applicant');
  await expect(cards).toHaveCount(2);
  let refusalsShown = false;
  for (let a = 0; a < 2; a += 1) {
    const card = cards.nth(a);
    const required = card.getByTestId('upload-item').filter({ has: page.locator('.up-required') });
    const count = await required.count();
    for (let i = 0; i < count; i += 1) {
      const item = required.nth(i);
      if (!refusalsShown) {
        await addInput(item).setInputFiles(FIXTURES.renamedText);
        await expect(item.getByTestId('upload-refusal')).toContainText('仅支持 JPG、PNG 图片或 PDF 文件');
        await addInput(item).setInputFiles(oversizeFile());
        await expect(item.getByTestId('upload-refusal').filter({ hasText: 'oversize-scan.jpg' })).toContainText('文件过大，单个文件不能超过 10 MB');
        await snap(page, 'journey/03-upload-refused');
        refusalsShown = true;
      }
      await addInput(item).setInputFiles(i % 2 === 0 ? FIXTURES.jpeg : FIXTURES.pdf);
      await expect(item.getByTestId('upload-file')).toHaveCount(1);
    }
    await addInput(card.getByTestId('upload-photo')).setInputFiles(FIXTURES.photo);
    await expect(card.getByTestId('upload-photo').getByTestId('upload-file')).toHaveCount(1);
  }
  await expect(page.getByTestId('upload-missing')).toHaveText('必备资料已齐全');
  await snap(page, 'journey/04-upload-done');
  await page.getByTestId('upload-next').click();

  // 4. Interview times for both applicants, confirmed in the dialog.
  await page.waitForURL(`**/ordering/choose-interview-time/${orderId}`);
  await expect(page.getByTestId('interview-applicant')).toHaveCount(2);
  for (let a = 0; a < 2; a += 1) {
    const card = page.getByTestId('interview-applicant').nth(a);
    await card.getByRole('radio').and(page.locator(':enabled')).nth(a).check();
    await expect(card.getByTestId('interview-chosen')).toBeVisible();
  }
  await page.getByTestId('interview-confirm').click();
  await expect(page.getByTestId('interview-confirm-dialog')).toContainText('周子涵');
  await snap(page, 'journey/05-interview-dialog');
  await page.getByTestId('interview-confirm-submit').click();

  // 5. Confirm: a new return address through the cascader, the standard insurance, the protocol.
  await page.waitForURL(`**/ordering/order-confirm/${orderId}`);
  await expect(page.getByTestId('confirm-infos')).toContainText('周子涵');
  await page.getByTestId('choose-return-address').click();
  await page.getByTestId('address-add-return').click();
  const form = page.getByTestId('address-form');
  await form.getByLabel('收件人').fill('周婷');
  await form.getByLabel('手机号').fill('13800138021');
  await page.getByTestId('region-cascader').click();
  const popup = page.locator('.addr-region-popup');
  const region = ['浙江省', '杭州市', '西湖区'];
  const option = (name: string) => popup.getByRole('menuitemcheckbox').filter({ hasText: new RegExp(`^${name}$`) });
  for (const [level, name] of region.entries()) {
    const next = region[level + 1];
    if (next === undefined) {
      await option(name).click();
      break;
    }
    // A click while the popup is still sliding in can miss: click until the next column shows.
    await expect(async () => {
      await option(name).click();
      await expect(option(next)).toBeVisible({ timeout: 1_000 });
    }).toPass();
  }
  await form.getByLabel('详细地址').fill('文三路 398 号东信大厦 6 楼');
  await snap(page, 'journey/06-address-cascader');
  await page.getByTestId('address-form-save').click();
  await expect(page.getByTestId('confirm-return-address')).toContainText('浙江省 杭州市 西湖区 文三路 398 号东信大厦 6 楼');
  await page.getByTestId('insurance-plan').filter({ hasText: '标准款' }).click();
  await page.getByRole('checkbox', { name: '我已阅读并同意' }).check();
  const totalText = (await page.getByTestId('confirm-total').innerText()).trim();
  await snap(page, 'journey/07-confirm');
  await page.getByTestId('confirm-submit').click();

  // 6. Pay: the QR code's page on a "phone", the notification, the dialog moves on to the detail.
  const dialog = page.getByRole('dialog').filter({ hasText: '支付订单' });
  await expect(dialog.getByTestId('pay-qrcode')).toBeVisible();
  const db = e2eDatabase();
  const confirmed = db.prepare('select status, total_amount, insurance_amount from user_order where user_order_id = ?').get(orderId) as {
    status: string;
    total_amount: number;
    insurance_amount: number;
  };
  db.close();
  expect(confirmed.status).toBe('pending_payment');
  expect(confirmed.insurance_amount).toBeGreaterThan(0);
  // The footer showed the total that is charged.
  expect(totalText).toBe(formatPrice(confirmed.total_amount));
  await expect(dialog.getByTestId('pay-amount')).toHaveText(`￥${(confirmed.total_amount / 100).toFixed(2)}`);
  await snap(page, 'journey/08-payment-dialog');
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto((await dialog.getByTestId('pay-sandbox-link').getAttribute('href'))!);
  await phone.getByRole('button', { name: '确认支付' }).click();
  await expect(phone.getByText('支付成功', { exact: true })).toBeVisible();
  await snap(phone, 'journey/09-sandbox-paid');
  await page.waitForURL(`**/order/order-detail/${orderId}`, { timeout: 20_000 });

  // 7. The detail page's sections, then the list under 办理中 with the right total.
  const after = e2eDatabase();
  const stored = after.prepare('select status, step, total_amount from user_order where user_order_id = ?').get(orderId) as {
    status: string;
    step: string;
    total_amount: number;
  };
  after.close();
  expect(stored).toEqual({ status: 'processing', step: 'material_review', total_amount: confirmed.total_amount });
  for (const section of ['order-basic-info', 'order-return-address', 'order-schedule', 'order-insurance', 'order-payment', 'order-applicants-section']) {
    await expect(page.getByTestId(section)).toBeVisible();
  }
  await expect(page.getByTestId('order-insurance')).toContainText('标准款');
  await expect(page.getByTestId('order-return-address')).toContainText('西湖区');
  await snap(page, 'journey/10-order-detail');

  // Opened directly (a reload, a pasted address): still logged in, the list loads.
  await page.goto('/order/order-list?tab=processing');
  const card = page.locator(`[data-testid="order-card"][data-order-id="${orderId}"]`);
  await expect(card).toBeVisible();
  await expect(card.getByTestId('order-total')).toHaveText(formatPrice(stored.total_amount));
  await expect(card.getByTestId('order-applicant')).toHaveCount(2);
  await snap(page, 'journey/11-order-list');
  await page.getByTestId('order-tab-unpaid').click();
  await expect(page.locator(`[data-testid="order-card"][data-order-id="${orderId}"]`)).toHaveCount(0);
});
