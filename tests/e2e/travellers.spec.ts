// 常用出行人 in the browser (issue 28 part 3): a customer saves two travellers
// on the personal centre's page (consent ticked), each with a passport data
// page and a photo, then creates an order picking both (the applicant items
// are filled), and on the upload step takes each offered document — the
// required passport item and the photo are then complete without uploading
// anything again. Screenshots at 1280 and 390 px go to /tmp when SCREENSHOTS
// is set.
import { expect, type Locator, type Page, test } from '@playwright/test';
import { addDays, chinaDate } from '../../common/order';
import { FIXTURES } from '../fixtures/index';
import { e2eDatabase, loggedInTest } from './support';

/** A product sold online with a visa photo and a 护照首页扫描件 item for 在职人员. */
function pickProduct(): number {
  const db = e2eDatabase();
  try {
    const row = db
      .prepare(
        `select p.visa_product_id as id from visa_product p where p.status = 0 and p.channel = 0 and p.offline = 1 and p.visa_photo_id != 0
         and exists (select 1 from visa_product_material m where m.visa_product_id = p.visa_product_id and m.identity_id = 0 and m.attr = 0 and m.name = '护照首页扫描件')
         order by p.visa_product_id limit 1`,
      )
      .get() as { id: number };
    return row.id;
  } finally {
    db.close();
  }
}

async function typeDate(field: Locator, date: string) {
  const inner = field.locator('input');
  const input = (await inner.count()) > 0 ? inner.first() : field;
  await input.click();
  await input.fill(date);
  await input.press('Enter');
}

async function pickDate(page: Page, testId: string, date: string) {
  await page.getByTestId(testId).click();
  const panel = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').last();
  const cell = panel.locator(`td[title="${date}"]`);
  for (let i = 0; i < 14 && !(await cell.isVisible()); i += 1) await panel.locator('.ant-picker-header-next-btn').click();
  await cell.click();
}

async function shoot(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `/tmp/s1-shots/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function addTraveller(page: Page, person: { name: string; pinyin: string; mobile: string }) {
  await page.getByTestId('traveller-add').click();
  const form = page.getByTestId('traveller-form');
  await expect(form).toBeVisible();
  await form.getByTestId('traveller-name').fill(person.name);
  await form.getByTestId('traveller-pinyin').fill(person.pinyin);
  await typeDate(form.getByTestId('traveller-birth'), '1988-03-15');
  await form.getByTestId('traveller-mobile').fill(person.mobile);
  await form.getByTestId('traveller-identity').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: '在职人员' }).click();
  await form.getByTestId('traveller-passport').fill('E' + person.mobile.slice(-8));
  // Without the consent nothing is saved.
  await form.getByTestId('traveller-save').click();
  await expect(form.getByText('请确认出行人已同意保存其资料')).toBeVisible();
  await form.getByTestId('traveller-consent').check();
  await form.getByTestId('traveller-save').click();
  await expect(form).toHaveCount(0);
  const card = page.getByTestId('traveller-card').filter({ hasText: person.name });
  await expect(card).toBeVisible();
  return card;
}

async function addDocument(page: Page, card: Locator, type: '护照首页' | '证件照片', file: string, dates: { taken?: string; expiry?: string }) {
  const upload = card.getByTestId('traveller-upload');
  await upload.getByTestId('document-type').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: type }).click();
  if (dates.taken) await typeDate(upload.getByTestId('document-taken'), dates.taken);
  if (dates.expiry) await typeDate(upload.getByTestId('document-expiry'), dates.expiry);
  const before = await card.getByTestId('traveller-document').count();
  await upload.getByTestId('document-file').setInputFiles(file);
  await expect(card.getByTestId('traveller-document')).toHaveCount(before + 1);
}

loggedInTest('saves two travellers with documents, picks both on a new order and takes the offered documents', async ({ page }) => {
  test.setTimeout(180_000);
  const today = chinaDate(Date.now());
  const product = pickProduct();
  const people = [
    { name: '常旅甲', pinyin: 'chang lv jia', mobile: '13900001111' },
    { name: '常旅乙', pinyin: 'CHANG LV YI', mobile: '13900002222' },
  ];

  await page.goto('/user/personal-center');
  await expect(page.getByTestId('personal-travellers')).toBeVisible();
  await page.getByTestId('personal-travellers').getByRole('link', { name: '管理常用出行人' }).click();
  await expect(page.getByTestId('travellers-page')).toBeVisible();

  for (const person of people) {
    const card = await addTraveller(page, person);
    await addDocument(page, card, '护照首页', FIXTURES.jpeg, { expiry: addDays(today, 2000) });
    await addDocument(page, card, '证件照片', FIXTURES.photo, { taken: addDays(today, -10) });
    await expect(card.getByTestId('traveller-document').filter({ hasText: '可使用' })).toHaveCount(2);
  }
  await shoot(page, 'travellers');

  // The order: both travellers picked, the applicant items filled from them.
  await page.goto(`/ordering/create-order?visa_product_id=${product}`);
  const picker = page.getByTestId('traveller-picker-select');
  await expect(picker).toBeVisible();
  // A multiple select stays open while options are chosen.
  await picker.click();
  for (const person of people) {
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: person.name }).click();
  }
  await page.keyboard.press('Escape');
  const items = page.getByTestId('applicant-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0).getByTestId('applicant-name')).toHaveValue(people[0]!.name);
  await expect(items.nth(1).getByTestId('applicant-mobile')).toHaveValue(people[1]!.mobile);
  await shoot(page, 'create-order');
  await pickDate(page, 'departure-date', addDays(today, 40));
  await page.getByTestId('create-order-submit').click();
  await expect(page).toHaveURL(/\/ordering\/upload\/\d+/);

  // The upload step offers each traveller's passport and photo; take them one by one.
  const offers = page.getByTestId('traveller-offers');
  await expect(offers).toBeVisible();
  await expect(offers.getByTestId('traveller-offer-person')).toHaveCount(2);
  await shoot(page, 'upload-offers');
  const accept = offers.getByTestId('traveller-offer-accept');
  const total = await accept.count();
  expect(total).toBeGreaterThanOrEqual(4);
  const used = offers.getByTestId('traveller-offer-used');
  for (let i = 0; i < total; i += 1) {
    await expect(accept.first()).toBeEnabled();
    await accept.first().click();
    await expect(used).toHaveCount(i + 1, { timeout: 20_000 });
  }
  await expect(offers.getByTestId('traveller-offer-used')).toHaveCount(total);
  // The applicants' passport items and photos now hold the saved files.
  const applicants = page.getByTestId('upload-applicant');
  await expect(applicants).toHaveCount(2);
  for (let i = 0; i < 2; i += 1) {
    const passport = applicants.nth(i).getByTestId('upload-item').filter({ hasText: '护照首页扫描件' });
    await expect(passport.getByTestId('upload-file')).toHaveCount(1);
  }
  await shoot(page, 'upload-after');
});
