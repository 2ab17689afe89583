// Issue 28 part 2 in the browser: a photo that is not a passport is refused
// in Chinese at once and leaves the applicant's form as it was. Filling an
// applicant from a real passport photo (every 机读 field confirmed, the
// validity warning against the trip, saving the traveller, the warnings on
// the confirm page and the order detail) is issue 28's journey in
// travellers.spec.ts.
import { expect } from '@playwright/test';
import { createProduct, hydrated, loggedInTest } from './support';

loggedInTest('a photo that is not a passport is refused and changes nothing', async ({ page }) => {
  const product = await createProduct();
  await page.goto(`/ordering/create-order?visa_product_id=${product.visa_product_id}&visa_country_id=${product.visa_country_id}`);
  await hydrated(page);
  const applicant = page.getByTestId('applicant-item').first();
  await applicant.getByTestId('applicant-mobile').fill('13800138031');

  // A PNG too small to hold a data page: refused, the form untouched.
  await applicant.locator('[data-testid=passport-scan] input[type=file]').setInputFiles({
    name: 'not-a-passport.png',
    mimeType: 'image/png',
    buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
  });
  await expect(applicant.getByTestId('passport-scan-error')).toContainText('未能读取护照');
  await expect(applicant.getByTestId('passport-scan-review')).toHaveCount(0);
  await expect(applicant.getByTestId('applicant-mobile')).toHaveValue('13800138031');
  await expect(applicant.getByTestId('applicant-name')).toHaveValue('');
  await expect(applicant.getByTestId('applicant-passport-no')).toHaveValue('');
});
