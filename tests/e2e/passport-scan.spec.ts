// Issue 28 part 2 in the browser: a customer fills an applicant from a photo
// of a passport data page (generated: OCR-B machine-readable zone, skew,
// noise, JPEG), ticks every field read by the machine (机读), types the name
// in characters, ticks 保存为常用出行人 (pinyin, sex and birth date come from
// the scan) and creates the order: the traveller is saved with the passport,
// the order keeps its expiry and the confirm page warns that it runs out less
// than six months after the trip (departure + the visa's stay); a photo that is not a passport is
// refused in Chinese and leaves the form as it was. One OCR run.
import { expect, test } from '@playwright/test';
import { addDays, chinaDate } from '../../common/order';
import { passportImage } from '../../server/test-support/passport-image';
import { createProduct, e2eDatabase, hydrated, loggedInTest, snap } from './support';

async function pickDate(page: import('@playwright/test').Page, testId: string, date: string) {
  await page.getByTestId(testId).click();
  const panel = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').last();
  const cell = panel.locator(`td[title="${date}"]`);
  for (let i = 0; i < 14 && !(await cell.isVisible()); i += 1) await panel.locator('.ant-picker-header-next-btn').click();
  await cell.click();
}

loggedInTest('fills an applicant from a passport photo once every 机读 field is confirmed; a failed read changes nothing', async ({ page }) => {
  test.setTimeout(300_000);
  const product = await createProduct();
  const today = chinaDate(Date.now());
  // Expires two months after departure: the validity check must warn.
  const departure = addDays(today, 30);
  const expiry = addDays(today, 90);
  const { image, person } = await passportImage({
    seed: 7,
    person: {
      surname: 'ZHANG',
      given_names: 'XIAOMING',
      passport_no: 'E12345678',
      nationality: 'CHN',
      issuing_state: 'CHN',
      birth_date: '1990-05-17',
      sex: 'M',
      expiry_date: expiry,
    },
  });

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/ordering/create-order?visa_product_id=${product.visa_product_id}&visa_country_id=${product.visa_country_id}`);
  await hydrated(page);
  const applicant = page.getByTestId('applicant-item').first();
  await applicant.getByTestId('applicant-mobile').fill('13800138031');

  // Not a passport (a PNG too small to hold a data page): refused, the form untouched.
  await applicant.locator('[data-testid=passport-scan] input[type=file]').setInputFiles({
    name: 'not-a-passport.png',
    mimeType: 'image/png',
    buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
  });
  await expect(applicant.getByTestId('passport-scan-error')).toContainText('未能读取护照');
  await expect(applicant.getByTestId('applicant-mobile')).toHaveValue('13800138031');
  await expect(applicant.getByTestId('applicant-name')).toHaveValue('');

  // The passport: read, then shown for confirmation; nothing filled yet.
  await applicant.locator('[data-testid=passport-scan] input[type=file]').setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: image });
  const review = applicant.getByTestId('passport-scan-review');
  await expect(review).toBeVisible({ timeout: 30_000 });
  await expect(review.getByTestId('passport-field-passport_no')).toContainText(person.passport_no);
  await expect(review.getByTestId('passport-field-surname')).toContainText('ZHANG');
  await expect(review.getByTestId('passport-field-expiry_date')).toContainText(expiry);
  await expect(review.getByText('机读').first()).toBeVisible();
  await expect(applicant.getByTestId('applicant-passport-no')).toHaveValue('');
  await review.scrollIntoViewIfNeeded();
  await snap(page, 'passport-scan/01-review-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await review.scrollIntoViewIfNeeded();
  await snap(page, 'passport-scan/02-review-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Every field must be ticked and the characters typed before 填入.
  const fill = review.getByTestId('passport-scan-fill');
  await expect(fill).toBeDisabled();
  for (const box of await review.locator('input[type=checkbox]').all()) await box.check();
  await expect(fill).toBeDisabled();
  await review.getByTestId('passport-chinese-name').fill('张晓明');
  await fill.click();
  await expect(review).toBeHidden();
  await expect(applicant.getByTestId('applicant-name')).toHaveValue('张晓明');
  await expect(applicant.getByTestId('applicant-passport-no')).toHaveValue('E12345678');
  await expect(applicant.getByText('机读').first()).toBeVisible();

  // The trip: a passport expiring two months after departure is warned about.
  await applicant.getByTestId('applicant-identity').click();
  await page.keyboard.press('Enter');
  const district = page.getByTestId('district-select');
  if ((await district.count()) > 0 && (await district.isEnabled())) {
    await district.click();
    await page.keyboard.press('Enter');
  }
  await pickDate(page, 'departure-date', departure);
  await applicant.getByTestId('passport-validity-warning').scrollIntoViewIfNeeded();
  await expect(applicant.getByTestId('passport-validity-warning')).toContainText('护照有效期不足行程结束后6个月');
  await snap(page, 'passport-scan/03-filled-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await applicant.getByTestId('passport-validity-warning').scrollIntoViewIfNeeded();
  await snap(page, 'passport-scan/04-filled-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Saved for next time: what a traveller needs beyond the order comes from the scan; the consent is asked.
  await applicant.getByTestId('traveller-save-check').check();
  const save = applicant.getByTestId('traveller-save-fields');
  await expect(save.getByTestId('traveller-save-pinyin')).toHaveValue('ZHANG XIAOMING');
  const birth = save.getByTestId('traveller-save-birth');
  await expect((await birth.locator('input').count()) > 0 ? birth.locator('input').first() : birth).toHaveValue('1990-05-17');
  await page.getByTestId('create-order-submit').click();
  await expect(save.getByText('请确认出行人已同意保存其资料')).toBeVisible();
  await save.getByTestId('traveller-save-consent').check();
  await save.scrollIntoViewIfNeeded();
  await snap(page, 'passport-scan/05-save-traveller-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await save.scrollIntoViewIfNeeded();
  await snap(page, 'passport-scan/06-save-traveller-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByTestId('create-order-submit').click();
  await expect(page).toHaveURL(/\/ordering\/upload\/\d+/);
  await expect(page.getByText('已保存 1 位常用出行人')).toBeVisible();
  const orderId = Number(/\/ordering\/upload\/(\d+)/.exec(page.url())![1]);
  const db = e2eDatabase();
  try {
    const row = db.prepare('select name, passport_no, passport_expiry from order_applicant where user_order_id = ?').get(orderId);
    expect(row).toEqual({ name: '张晓明', passport_no: 'E12345678', passport_expiry: expiry });
    const traveller = db
      .prepare('select name, pinyin, sex, birth_date, mobile_phone, passport_no, passport_expiry from traveller where mobile_phone = ?')
      .get('13800138031');
    expect(traveller).toEqual({
      name: '张晓明',
      pinyin: 'ZHANG XIAOMING',
      sex: 'M',
      birth_date: '1990-05-17',
      mobile_phone: '13800138031',
      passport_no: 'E12345678',
      passport_expiry: expiry,
    });
  } finally {
    db.close();
  }

  // Before payment: the passport runs out less than six months after departure.
  await page.goto(`/ordering/order-confirm/${orderId}`);
  const warning = page.getByTestId('confirm-passport-warning');
  await expect(warning).toContainText('护照有效期不足行程结束后6个月，可能被拒签，请尽快更换护照');
  await expect(warning).toContainText(`护照有效期至 ${expiry}`);
  // Centred: the bottom bar covers the lower part of the screen.
  await warning.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await snap(page, 'passport-scan/07-confirm-warning-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await warning.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await snap(page, 'passport-scan/08-confirm-warning-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  // And on the order detail, with the passport.
  await page.goto(`/order/order-detail/${orderId}`);
  await expect(page.getByTestId('order-applicant-passport')).toHaveText(`E12345678 · 有效期至 ${expiry}`);
  await expect(page.getByTestId('order-passport-warning')).toContainText('护照有效期不足行程结束后6个月');

  // Next time the traveller is picked, passport and all; unchanged, there is nothing to save again.
  await page.goto(`/ordering/create-order?visa_product_id=${product.visa_product_id}&visa_country_id=${product.visa_country_id}`);
  await hydrated(page);
  await page.getByTestId('traveller-picker-select').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: '张晓明' }).click();
  await page.keyboard.press('Escape');
  const picked = page.getByTestId('applicant-item').first();
  await expect(picked.getByTestId('applicant-passport-no')).toHaveValue('E12345678');
  await expect(picked.getByTestId('traveller-save-same')).toHaveText('已是常用出行人');
  await picked.getByTestId('applicant-email').fill('zhang@example.com');
  await expect(picked.getByText('更新常用出行人')).toBeVisible();
});
