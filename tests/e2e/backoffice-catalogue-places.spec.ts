// 产品管理's places and reviews end to end (issue 26): a supervisor creates a
// country with a consular district (its provinces and consulate address) —
// a district without a province is refused first — and hides a review with a
// reason; the guest product page (served from the page cache before) then
// shows the new count and score. Screenshots at 1280 px under
// screenshots/tmp/catalogue-places/.
import { expect, test } from '@playwright/test';
import { animationsSettled, hydrated, loggedInTest, snap, staffPage } from './support';
import { productWithReviews, unusedIsoCode } from './catalogue-places-support';

loggedInTest('a supervisor creates a country with a consulate and its district', async ({ browser, baseURL, supervisor }) => {
  test.setTimeout(120_000);
  const iso = unusedIsoCode();
  const name = `测试国${Date.now() % 100_000}`;
  const staff = await staffPage(browser, supervisor, baseURL!, { viewport: { width: 1280, height: 900 } });
  await staff.goto('/admin/catalogue/countries');
  await hydrated(staff);
  await expect(staff.getByRole('heading', { name: '国家与领区' })).toBeVisible();
  await snap(staff, 'tmp/catalogue-places/01-countries');
  await staff.getByRole('button', { name: '新建国家' }).click();
  await expect(staff).toHaveURL(/\/admin\/catalogue\/countries\/edit$/);
  await hydrated(staff);

  await staff.getByLabel('国家代码（ISO 3166-1）').fill(iso.toLowerCase());
  await expect(staff.getByTestId('country-flag')).toHaveAttribute('src', `/static/flags/4x3/${iso.toLowerCase()}.svg`);
  await staff.getByLabel('国家名称').fill(name);
  await staff.getByLabel('英文名').fill('Testland');
  await staff.getByLabel('简介').fill('办理该国签证请提前一个月准备资料。');
  await staff.getByRole('button', { name: '添加领区' }).click();
  const district = staff.getByRole('region', { name: '第 1 个领区' });
  await district.getByLabel('领区名称').fill('北京领区');
  await district.getByLabel('领馆名称').fill(`${name}驻华大使馆签证处`);
  await district.getByLabel('领馆城市').fill('北京');
  await district.getByLabel('领馆地址').fill('北京市朝阳区亮马桥路 8 号');

  // Without a province the district is refused, and nothing is created.
  await staff.getByRole('button', { name: '保存' }).click();
  await expect(district.getByText('领区至少要受理一个省份')).toBeVisible();
  await expect(staff).toHaveURL(/\/admin\/catalogue\/countries\/edit$/);

  const provinces = district.getByLabel('受理省份');
  for (const province of ['北京', '河北']) {
    await provinces.click();
    await provinces.fill(province);
    await staff.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: province }).first().click();
  }
  await staff.keyboard.press('Escape');
  // Its national day: the slot calendar closes the consulate on it every year.
  await staff.getByRole('button', { name: '添加闭馆日' }).click();
  const day = staff.getByRole('group', { name: '第 1 个闭馆日' });
  await day.getByLabel('日期（月-日）').fill('07-04');
  await day.getByLabel('名称').fill('独立日');
  await animationsSettled(staff);
  await snap(staff, 'tmp/catalogue-places/02-country-editor');
  await staff.getByRole('button', { name: '保存' }).click();
  await expect(staff).toHaveURL(/\/admin\/catalogue\/countries\/edit\?country=\d+$/);
  const countryId = Number(new URL(staff.url()).searchParams.get('country'));
  await expect(staff.getByRole('heading', { name: `编辑国家 · ${name}` })).toBeVisible();

  // Stored as typed (the code in capitals): the reloaded editor and the list show it.
  const saved = staff.getByRole('region', { name: '第 1 个领区' });
  await expect(saved.getByLabel('领馆地址')).toHaveValue('北京市朝阳区亮马桥路 8 号');
  await expect(saved.locator('.ant-select-selection-item', { hasText: '北京市' })).toBeVisible();
  await expect(saved.locator('.ant-select-selection-item', { hasText: '河北省' })).toBeVisible();
  await expect(staff.getByLabel('国家代码（ISO 3166-1）')).toHaveValue(iso);
  await expect(staff.getByRole('group', { name: '第 1 个闭馆日' }).getByLabel('名称')).toHaveValue('独立日');
  await staff.setViewportSize({ width: 390, height: 844 });
  await staff.getByRole('heading', { name: '闭馆日（每年）' }).scrollIntoViewIfNeeded();
  await snap(staff, 'tmp/catalogue-places/02b-country-editor-390');
  await staff.goto('/admin/catalogue/countries');
  await hydrated(staff);
  await expect(staff.getByRole('link', { name })).toHaveAttribute('href', `/admin/catalogue/countries/edit?country=${countryId}`);
  await staff.context().close();
});

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
