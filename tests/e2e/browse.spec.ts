// Browsing the catalogue: continent → country → province → filters → product,
// the country search, the 404s, pages without JavaScript and at phone width.
// Ids and names come from the seeded e2e database, never hard-coded.
import { expect, type Page, test } from '@playwright/test';
import { e2eDatabase, snap } from './support';

const SHANGHAI = '310000';
const BEIJING = '110000';
const LISTED = 'p.status <> 1 AND p.channel <> 99';

interface Journey {
  countryId: number;
  name: string;
  nameEn: string;
  continentId: number;
  continentName: string;
  shanghaiDistrict: string;
  beijingDistrict: string;
  /** A tag and a visa type that together still match a Beijing-district product. */
  tag: { id: number; name: string };
  visaType: { id: number; name: string };
  maxCountryId: number;
}

/**
 * A country (the US or Japan when seeded so) whose Shanghai and Beijing
 * residents go to different consular districts, each with its own products.
 */
function journeyData(): Journey {
  const db = e2eDatabase();
  try {
    const country = db
      .prepare(
        `SELECT c.visa_country_id AS countryId, c.name, c.name_en AS nameEn, c.continent_id AS continentId, ct.name AS continentName,
                sh.consular_district_id AS shId, sh.name AS shanghaiDistrict, bj.consular_district_id AS bjId, bj.name AS beijingDistrict
           FROM visa_country c
           JOIN continent ct ON ct.continent_id = c.continent_id
           JOIN consular_district sh ON sh.visa_country_id = c.visa_country_id
           JOIN consular_district_province shp ON shp.consular_district_id = sh.consular_district_id AND shp.province_code = ?
           JOIN consular_district bj ON bj.visa_country_id = c.visa_country_id
           JOIN consular_district_province bjp ON bjp.consular_district_id = bj.consular_district_id AND bjp.province_code = ?
          WHERE c.status = 0 AND sh.consular_district_id <> bj.consular_district_id
            AND EXISTS (SELECT 1 FROM visa_product p WHERE p.consular_district_id = sh.consular_district_id AND ${LISTED})
            AND EXISTS (SELECT 1 FROM visa_product p WHERE p.consular_district_id = bj.consular_district_id AND ${LISTED})
          ORDER BY CASE c.iso_code WHEN 'US' THEN 0 WHEN 'JP' THEN 1 ELSE 2 END, c.visa_country_id
          LIMIT 1`,
      )
      .get(SHANGHAI, BEIJING) as (Omit<Journey, 'tag' | 'visaType' | 'maxCountryId'> & { shId: number; bjId: number }) | undefined;
    if (!country) throw new Error('the seed has no country with distinct Shanghai and Beijing consular districts');

    // The most common tag among the Beijing resident's products, and the visa type of one of them.
    const pick = db
      .prepare(
        `SELECT t.tag_id AS tagId, t.name AS tagName, vt.visa_type_id AS typeId, vt.name AS typeName, COUNT(*) AS n
           FROM visa_product p
           JOIN visa_product_tag pt ON pt.visa_product_id = p.visa_product_id
           JOIN visa_tag t ON t.tag_id = pt.tag_id
           JOIN visa_type vt ON vt.visa_type_id = p.visa_type_id
          WHERE p.visa_country_id = ? AND ${LISTED} AND (p.consular_district_id IS NULL OR p.consular_district_id = ?)
          GROUP BY t.tag_id, vt.visa_type_id
          ORDER BY n DESC, t.tag_id, vt.visa_type_id
          LIMIT 1`,
      )
      .get(country.countryId, country.bjId) as { tagId: number; tagName: string; typeId: number; typeName: string } | undefined;
    if (!pick) throw new Error(`the seed gives no tagged product to ${country.name}'s Beijing district`);

    const { maxId } = db.prepare('SELECT MAX(visa_country_id) AS maxId FROM visa_country').get() as { maxId: number };
    return {
      ...country,
      tag: { id: pick.tagId, name: pick.tagName },
      visaType: { id: pick.typeId, name: pick.typeName },
      maxCountryId: maxId,
    };
  } finally {
    db.close();
  }
}

let data: Journey;
test.beforeAll(() => {
  data = journeyData();
});

const cards = (page: Page) => page.getByTestId('product-card');

async function districtLabels(page: Page): Promise<string[]> {
  return (await page.getByTestId('product-district').allInnerTexts()).map((text) => text.trim());
}

async function chooseProvince(page: Page, name: string) {
  await page.locator('#browse-province-select').selectOption({ label: name });
}

/** Nothing spills sideways: not the document, nor the page wrappers that clip (overflow-x: hidden). */
async function expectNoOverflow(page: Page) {
  // Polled: the measure settles once the page's styles are in and it has hydrated.
  await expect
    .poll(() =>
      page.evaluate(() =>
        Math.max(document.documentElement.scrollWidth, ...[...document.querySelectorAll('.browse-page, .home-page')].map((el) => el.scrollWidth)),
      ),
    )
    .toBeLessThanOrEqual(390);
}

test('continent → country → province → tag → visa type → product', async ({ page }) => {
  await page.goto('/visa/continent');
  await expect(page).toHaveTitle('按大洲选择签证 - 易签通');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('按大洲选择签证');
  await expect(page.getByTestId('country-card').first()).toBeVisible();
  // Flags are real images, not blank boxes.
  const flagWidth = await page
    .getByTestId('country-card')
    .first()
    .locator('img')
    .evaluate((img: HTMLImageElement) => img.naturalWidth);
  expect(flagWidth).toBeGreaterThan(0);
  await snap(page, 'continent-desktop');

  await page.getByTestId('continent-tab').filter({ hasText: data.continentName }).click();
  await expect(page).toHaveURL(new RegExp(`continent_id=${data.continentId}`));
  await expect(page.getByRole('heading', { level: 2 })).toContainText(`${data.continentName}签证`);
  const card = page.getByRole('link', { name: `${data.name}签证`, exact: true });
  await expect(card).toContainText(data.nameEn);
  await expect(card).toContainText(/\d+款签证/);
  await expect(card).toContainText(/￥[\d.]+起/);
  await card.click();

  await expect(page).toHaveURL(new RegExp(`/visa/country/${data.countryId}$`));
  await expect(page).toHaveTitle(`${data.name}签证办理 - 易签通`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${data.name}签证`);
  await expect(page.getByTestId('country-banner')).toContainText(data.continentName);
  await expect(page.getByText('居住地决定受理领区', { exact: false })).toBeVisible();
  await expect(page.locator('meta[name="keywords"]')).toHaveAttribute(
    'content',
    `${data.name}签证,${data.name}旅游签证,${data.name}商务签证,${data.name}签证材料`,
  );

  // Shanghai and Beijing residents see different consular districts and products.
  await chooseProvince(page, '上海市');
  await expect(page).toHaveURL(new RegExp(`province_code=${SHANGHAI}`));
  await expect(page.getByTestId('district-name')).toHaveText(data.shanghaiDistrict);
  await expect(cards(page).first()).toBeVisible();
  const shanghai = await districtLabels(page);
  expect(shanghai).toContain(data.shanghaiDistrict);
  expect(shanghai).not.toContain(data.beijingDistrict);

  await chooseProvince(page, '北京市');
  await expect(page).toHaveURL(new RegExp(`province_code=${BEIJING}`));
  await expect(page.getByTestId('district-name')).toHaveText(data.beijingDistrict);
  await expect.poll(() => districtLabels(page)).toContain(data.beijingDistrict);
  expect(await districtLabels(page)).not.toContain(data.shanghaiDistrict);
  const allCount = await cards(page).count();
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, 'country-desktop');

  // Tag filter: a chip link; every product left carries the tag.
  await page.getByTestId('tag-filter').getByRole('link', { name: data.tag.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`tag_id=${data.tag.id}`));
  await expect(page.getByTestId('tag-filter').getByRole('link', { name: data.tag.name, exact: true })).toHaveAttribute('aria-current', 'true');
  await expect(cards(page).first()).toBeVisible();
  for (const item of await cards(page).all()) await expect(item).toContainText(data.tag.name);
  const tagCount = await cards(page).count();
  expect(tagCount).toBeLessThanOrEqual(allCount);

  // Visa-type filter on top of it: the province and the tag stay.
  await page.getByTestId('visa-type-filter').getByRole('link', { name: data.visaType.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`visa_type_id=${data.visaType.id}`));
  expect(page.url()).toContain(`tag_id=${data.tag.id}`);
  expect(page.url()).toContain(`province_code=${BEIJING}`);
  await expect(cards(page).first()).toBeVisible();
  for (const item of await cards(page).all()) {
    await expect(item).toContainText(data.visaType.name);
    await expect(item).toContainText(data.tag.name);
  }

  // A reload keeps the selection (it lives in the URL).
  await page.reload();
  await expect(page.getByTestId('district-name')).toHaveText(data.beijingDistrict);
  await expect(page.getByTestId('visa-type-filter').getByRole('link', { name: data.visaType.name, exact: true })).toHaveAttribute('aria-current', 'true');

  // Open a product.
  const first = cards(page).first();
  const productId = await first.getAttribute('data-product-id');
  await first.getByRole('heading', { level: 3 }).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/visa/product/${productId}$`));
});

test("'全部' removes a filter and restores the list", async ({ page }) => {
  const base = `/visa/country/${data.countryId}?province_code=${BEIJING}`;
  await page.goto(base);
  await expect(cards(page).first()).toBeVisible();
  const allCount = await cards(page).count();

  await page.goto(`${base}&visa_type_id=${data.visaType.id}&tag_id=${data.tag.id}`);
  await expect(cards(page).first()).toBeVisible();

  await page.getByTestId('tag-filter').getByRole('link', { name: '全部', exact: true }).click();
  await expect(page).not.toHaveURL(/tag_id=/);
  expect(page.url()).toContain(`visa_type_id=${data.visaType.id}`);
  await expect(page.getByTestId('tag-filter').getByRole('link', { name: '全部', exact: true })).toHaveAttribute('aria-current', 'true');

  await page.getByTestId('visa-type-filter').getByRole('link', { name: '全部', exact: true }).click();
  await expect(page).not.toHaveURL(/visa_type_id=/);
  expect(page.url()).toContain(`province_code=${BEIJING}`);
  await expect(cards(page)).toHaveCount(allCount);

  // Filters that match nothing say so.
  await page.goto(`${base}&visa_type_id=${data.visaType.id}&tag_id=${data.tag.id}`);
  const db = e2eDatabase();
  const unused = db
    .prepare(
      `SELECT t.tag_id AS id FROM visa_tag t WHERE t.tag_id IN (SELECT pt.tag_id FROM visa_product_tag pt JOIN visa_product p ON p.visa_product_id = pt.visa_product_id WHERE p.visa_country_id = ? AND ${LISTED})
         AND t.tag_id NOT IN (SELECT pt.tag_id FROM visa_product_tag pt JOIN visa_product p ON p.visa_product_id = pt.visa_product_id
                               WHERE p.visa_country_id = ? AND p.visa_type_id = ? AND ${LISTED})
       LIMIT 1`,
    )
    .get(data.countryId, data.countryId, data.visaType.id) as { id: number } | undefined;
  db.close();
  if (unused) {
    await page.goto(`${base}&visa_type_id=${data.visaType.id}&tag_id=${unused.id}`);
    await expect(page.getByTestId('product-empty')).toContainText('暂无符合条件的签证产品');
  }
});

test('the continent page searches countries by Chinese or English name', async ({ page }) => {
  await page.goto('/visa/continent');
  const search = page.getByLabel('搜索国家');
  await search.fill(data.nameEn.toLowerCase());
  await expect(page.getByRole('link', { name: `${data.name}签证`, exact: true })).toBeVisible();
  for (const text of await page.getByTestId('country-card').allInnerTexts()) {
    expect(text.toLowerCase()).toContain(data.nameEn.toLowerCase());
  }

  await search.fill(data.name);
  await expect(page.getByRole('link', { name: `${data.name}签证`, exact: true })).toBeVisible();

  await search.fill('不存在的国家xyz');
  await expect(page.getByText('没有找到匹配的国家')).toBeVisible();
  await expect(page.getByTestId('country-card')).toHaveCount(0);

  await search.fill('');
  await expect(page.getByTestId('continent-tab').first()).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('country-card').first()).toBeVisible();
});

test('country ids that are not numbers, or not in the catalogue, are 404s', async ({ page }) => {
  const invalid = await page.goto('/visa/country/abc');
  expect(invalid?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found: /visa/country/abc');

  const unknownId = data.maxCountryId + 1000;
  const unknown = await page.goto(`/visa/country/${unknownId}`);
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`/visa/country/${unknownId}`);
  await expect(page.locator('.error-page-code')).toHaveText('404');
});

test('the browse pages work without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();

  // Continent tabs and the search form are plain links and a GET form.
  await page.goto('/visa/continent');
  await page.getByTestId('continent-tab').filter({ hasText: data.continentName }).click();
  await expect(page.getByRole('link', { name: `${data.name}签证`, exact: true })).toBeVisible();
  await page.getByLabel('搜索国家').fill(data.nameEn);
  await page.getByLabel('搜索国家').press('Enter');
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(page.getByRole('link', { name: `${data.name}签证`, exact: true })).toBeVisible();

  // The country page lists products, the province is a GET form, the filters are links.
  await page.goto(`/visa/country/${data.countryId}?province_code=${SHANGHAI}`);
  await expect(cards(page).first()).toBeVisible();
  await expect(page.getByTestId('district-name')).toHaveText(data.shanghaiDistrict);
  await page.getByLabel('您的居住地').selectOption(BEIJING);
  await page.getByRole('button', { name: '查看', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`province_code=${BEIJING}`));
  await expect(page.getByTestId('district-name')).toHaveText(data.beijingDistrict);
  await page.getByTestId('tag-filter').getByRole('link', { name: data.tag.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`tag_id=${data.tag.id}`));
  for (const item of await cards(page).all()) await expect(item).toContainText(data.tag.name);
  await context.close();
});

test('the home page shows the catalogue: continents and hot destinations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('home-continent')).toHaveCount(5);
  await expect(page.getByTestId('home-continent').filter({ hasText: data.continentName })).toContainText(/\d+个国家和地区/);
  const hot = page.getByTestId('hot-destination');
  expect(await hot.count()).toBeGreaterThan(0);
  expect(await hot.count()).toBeLessThanOrEqual(12);
  await page.getByTestId('hot-destinations').evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await page.evaluate(() => window.scrollBy(0, 32));
  await snap(page, 'home-desktop');
  const href = await hot.first().getAttribute('href');
  expect(href).toMatch(/^\/visa\/country\/\d+$/);
  await hot.first().click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByTestId('country-banner')).toBeVisible();
});

test('no sideways overflow at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/visa/continent?continent_id=${data.continentId}`);
  await expect(page.getByTestId('country-card').first()).toBeVisible();
  await expectNoOverflow(page);
  await snap(page, 'continent-phone');

  await page.goto(`/visa/country/${data.countryId}?province_code=${SHANGHAI}`);
  await expect(cards(page).first()).toBeVisible();
  await expectNoOverflow(page);
  await snap(page, 'country-phone');
  await cards(page).first().scrollIntoViewIfNeeded();
  await snap(page, 'country-phone-products');

  await page.goto('/');
  await expect(page.getByTestId('hot-destination').first()).toBeAttached();
  await expectNoOverflow(page);
});
