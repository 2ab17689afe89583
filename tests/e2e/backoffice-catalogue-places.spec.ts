// 产品管理's reviews end to end (issue 26): a supervisor hides a review with a
// reason; the guest product page (served from the page cache before) then
// shows the new count and score. (A country with its consulate, provinces and
// national day, and the refusal of a district without a province, are made in
// the catalogue journey, backoffice-catalogue.spec.ts.) Screenshots at 1280 px
// under screenshots/tmp/catalogue-places/.
import { expect, test } from '@playwright/test';
import { animationsSettled, hydrated, loggedInTest, snap, staffPage } from './support';
import { productWithReviews } from './catalogue-places-support';

loggedInTest('a supervisor hides a review; the guest product page shows the new count and score', async ({ browser, baseURL, supervisor }) => {
  test.setTimeout(120_000);
  const { visaProductId, reviewIds } = await productWithReviews([5, 5, 1]);
  const lowest = reviewIds[2]!;

  // A guest's view of the product page, answered from the page cache once seen.
  const guest = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width: 1280, height: 900 } });
  const guestPage = await guest.newPage();
  const productPath = `/visa/product/${visaProductId}`;
  await guestPage.goto(productPath);
  const summary = guestPage.getByTestId('product-review-summary');
  await expect(summary).toContainText('3条评价');
  await expect(summary).toContainText('3.7');
  expect((await guest.request.get(productPath)).headers()['x-page-cache']).toBe('hit');

  const staff = await staffPage(browser, supervisor, baseURL!, { viewport: { width: 1280, height: 900 } });
  await staff.goto('/admin/catalogue');
  await hydrated(staff);
  await staff.getByPlaceholder('国家、产品说明或编号').fill(String(visaProductId));
  await staff.getByPlaceholder('国家、产品说明或编号').press('Enter');
  await expect(staff).toHaveURL(new RegExp(`keyword=${visaProductId}`));
  await staff.locator(`a[href="/admin/catalogue/reviews?product=${visaProductId}"]`).click();
  await expect(staff).toHaveURL(`/admin/catalogue/reviews?product=${visaProductId}`);
  await hydrated(staff);
  await expect(staff.getByTestId('review-stats')).toContainText('3 条评价');

  const row = staff.locator(`tr[data-row-key="${lowest}"]`);
  await expect(row).toContainText('第 3 条评价：1 星');
  await row.getByRole('button', { name: '隐藏' }).click();
  const dialog = staff.getByRole('dialog', { name: '隐藏这条评价' });
  // A reason is required.
  await dialog.getByRole('button', { name: '隐藏' }).click();
  await expect(dialog.getByText('请填写原因')).toBeVisible();
  await dialog.getByLabel('原因').fill('与产品无关的广告');
  await animationsSettled(staff);
  await snap(staff, 'tmp/catalogue-places/03-hide-dialog');
  await dialog.getByRole('button', { name: '隐藏' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('已隐藏');
  await expect(row.getByTestId('review-moderation')).toContainText('隐藏：与产品无关的广告');
  await expect(staff.getByTestId('review-stats')).toContainText('2 条评价');
  await expect(row.getByRole('button', { name: '恢复显示' })).toBeVisible();
  await animationsSettled(staff);
  await snap(staff, 'tmp/catalogue-places/04-reviews');

  // The guest's next request renders the page afresh: two reviews, 5.0, without the hidden one.
  const fresh = await guest.request.get(productPath);
  expect(fresh.headers()['x-page-cache']).toBe('miss');
  await guestPage.reload();
  await expect(summary).toContainText('2条评价');
  await expect(summary).toContainText('5.0');
  await expect(guestPage.getByTestId('product-review')).toHaveCount(2);
  await expect(guestPage.getByTestId('product-review-list')).not.toContainText('1 星');
  await guest.close();
  await staff.context().close();
});
