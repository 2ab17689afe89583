// The visa product detail page (spec 2.2, §4): every section with the figures
// of its database row, the sticky tab bar, identities, reminder, review
// pagination, delisted and offline products, the guest QR popup (decoded),
// the logged-in apply, the e-mail popup's validation, 404s, and phone width.
// Products come from the seeded e2e database, never hard-coded ids.
import { expect, type Page, test } from '@playwright/test';
import jpeg from 'jpeg-js';
import jsQR from 'jsqr';
import { DELISTED_CHANNEL, QRCODE_PAGE, productTitle, qrcodeScene } from '../../common/catalogue';
import { IDENTITIES, MATERIAL_ATTRS, PHOTO_COLORS, REMINDER_COLLAPSED_HEIGHT_PX, REVIEW_PAGE_SIZE } from '../../common/constants';
import { formatAverageRating, formatPassRate, formatPrice } from '../../common/format';
import { animationsSettled, e2eDatabase, hydrated, loggedInTest, snap } from './support';

const LISTED = `p.status <> 1 AND p.channel <> ${DELISTED_CHANNEL}`;
const SITE_HEADER_PX = 64;

interface ProductRow {
  id: number;
  countryId: number;
  country: string;
  visaType: string;
  entryTimes: number;
  specialDesc: string;
  needDaysDetail: string;
  passRate: number;
  sellPrice: number;
  discountDesc: string | null;
  discountPrice: number | null;
  rejectRefund: number;
  photoId: number;
  photoColor: number | null;
  photoWidth: number | null;
  photoHeight: number | null;
  reminder: string;
  reviews: number;
  sumScore: number;
}

const PRODUCT_SELECT = `
  SELECT p.visa_product_id AS id, p.visa_country_id AS countryId, c.name AS country, vt.name AS visaType,
         p.entry_times AS entryTimes, p.product_special_desc AS specialDesc, p.need_days_detail AS needDaysDetail,
         p.pass_rate AS passRate, p.sell_price AS sellPrice, p.distributor_discount_desc AS discountDesc,
         p.distributor_discount_price AS discountPrice, p.reject_refund AS rejectRefund, p.visa_photo_id AS photoId,
         pp.color AS photoColor, pp.width AS photoWidth, pp.height AS photoHeight, p.reminder,
         (SELECT COUNT(*) FROM visa_product_review r WHERE r.visa_product_id = p.visa_product_id) AS reviews,
         (SELECT COALESCE(SUM(score), 0) FROM visa_product_review r WHERE r.visa_product_id = p.visa_product_id) AS sumScore
    FROM visa_product p
    JOIN visa_country c ON c.visa_country_id = p.visa_country_id
    JOIN visa_type vt ON vt.visa_type_id = p.visa_type_id
    LEFT JOIN photo_param pp ON pp.visa_photo_id = p.visa_photo_id`;

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = e2eDatabase();
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

function product(where: string, order = 'p.visa_product_id'): ProductRow {
  const row = query<ProductRow>(`${PRODUCT_SELECT} WHERE ${where} ORDER BY ${order} LIMIT 1`)[0];
  if (!row) throw new Error(`the seed has no product where ${where}`);
  return row;
}

/** Listed, offline-capable, with more than one page of reviews: the most reviewed such product. */
const rich = () =>
  product(
    `${LISTED} AND p.offline = 1 AND (SELECT COUNT(*) FROM visa_product_review r WHERE r.visa_product_id = p.visa_product_id) > ${REVIEW_PAGE_SIZE}`,
    'reviews DESC, p.visa_product_id',
  );

function titleOf(row: ProductRow): string {
  return productTitle({ country: row.country, visa_type: row.visaType, entry_times: row.entryTimes, product_special_desc: row.specialDesc });
}

interface ReviewRow {
  review_id: number;
  nickname: string | null;
  mobile_phone: string | null;
  score: number;
  content: string;
  platform: string;
  create_time: number;
}

/** The server's order: newest first, then highest id. */
function reviewPage(productId: number, page: number): ReviewRow[] {
  return query<ReviewRow>(
    'SELECT * FROM visa_product_review WHERE visa_product_id = ? ORDER BY create_time DESC, review_id DESC LIMIT ? OFFSET ?',
    productId,
    REVIEW_PAGE_SIZE,
    (page - 1) * REVIEW_PAGE_SIZE,
  );
}

function shownName(review: ReviewRow): string {
  const phone = review.mobile_phone ? `${review.mobile_phone.slice(0, 3)}****${review.mobile_phone.slice(-4)}` : null;
  return review.nickname?.trim() || phone || '匿名评价';
}

/** 'YYYY-MM-DD' in China time (UTC+8), as the page shows it. */
function chinaDate(ms: number): string {
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);
}

function materialNames(productId: number, identityId: number): Array<{ name: string; required: number; attr: number }> {
  return query(
    'SELECT name, required, attr FROM visa_product_material WHERE visa_product_id = ? AND identity_id = ? ORDER BY sort, material_id',
    productId,
    identityId,
  );
}

async function open(page: Page, id: number) {
  const response = await page.goto(`/visa/product/${id}`);
  expect(response?.status()).toBe(200);
  await hydrated(page);
}

const tab = (page: Page, key: string) => page.getByTestId('product-tabs').locator(`[data-tab="${key}"]`);

test('every section renders with the figures of the product row', async ({ page }) => {
  const row = rich();
  const title = titleOf(row);
  await open(page, row.id);

  await expect(page).toHaveTitle(`${title} - 易签通`);
  await expect(page.locator('meta[name="keywords"]')).toHaveAttribute(
    'content',
    `${row.country}签证,${row.country}旅游签证,${row.country}签证材料,${row.country}签证办理`,
  );
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', new RegExp(row.country));

  // Header and stats.
  await expect(page.getByTestId('product-id')).toHaveText(`ID: ${row.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByTestId('product-need-days')).toHaveText(row.needDaysDetail);
  const tags = query<{ name: string }>(
    'SELECT t.name FROM visa_product_tag pt JOIN visa_tag t ON t.tag_id = pt.tag_id WHERE pt.visa_product_id = ? ORDER BY t.sort',
    row.id,
  );
  for (const { name } of tags) await expect(page.getByTestId('product-tags')).toContainText(name);
  await expect(page.getByTestId('product-pass-rate')).toHaveText(formatPassRate(row.passRate));
  await expect(page.getByTestId('product-rating')).toHaveText(`${formatAverageRating(row.sumScore, row.reviews)} /5`);

  // Price: the distributor discount (tag + price) or the sell price.
  if (row.discountDesc && row.discountPrice !== null) {
    await expect(page.getByTestId('product-discount')).toHaveText(row.discountDesc);
    await expect(page.getByTestId('product-price')).toHaveText(formatPrice(row.discountPrice));
  } else {
    await expect(page.getByTestId('product-discount')).toHaveCount(0);
    await expect(page.getByTestId('product-price')).toHaveText(formatPrice(row.sellPrice));
  }
  const basic = query<{ title: string; content: string }>(
    'SELECT title, content FROM visa_product_basic_info WHERE visa_product_id = ? ORDER BY sort, id',
    row.id,
  );
  if (basic[0]) {
    await page.getByTestId('product-price-detail-trigger').hover();
    const detail = page.getByTestId('product-price-detail');
    await expect(detail).toBeVisible();
    await expect(detail).toContainText(basic[0].title);
    await expect(detail).toContainText(basic[0].content.split('\n')[0]!);
  }
  await expect(page.getByTestId('product-apply')).toHaveText('立即办理');
  await expect(page.getByTestId('product-refund-badge')).toHaveCount(row.rejectRefund === 1 ? 1 : 0);

  // Feature strip: type 0 → num (+ unit when num > 0); type 1 → unit.
  const features = query<{ type: number; num: number; unit: string; title: string }>(
    'SELECT type, num, unit, title FROM visa_product_feature WHERE visa_product_id = ? ORDER BY sort, id',
    row.id,
  );
  const featureItems = page.getByTestId('product-features').locator('li');
  await expect(featureItems).toHaveCount(features.length);
  for (const [i, feature] of features.entries()) {
    const value = feature.type === 1 ? feature.unit : `${feature.num}${feature.num > 0 ? feature.unit : ''}`;
    await expect(featureItems.nth(i).locator('.pd-feature-value')).toHaveText(value);
    await expect(featureItems.nth(i).locator('.pd-feature-title')).toHaveText(feature.title);
  }

  // Procedure icons.
  const procedure = query<{ icon: string; title: string }>(
    'SELECT icon, title FROM visa_product_procedure WHERE visa_product_id = ? ORDER BY sort, id',
    row.id,
  );
  const steps = page.getByTestId('product-procedure').locator('li');
  await expect(steps).toHaveCount(procedure.length);
  for (const [i, step] of procedure.entries()) {
    await expect(steps.nth(i)).toHaveText(step.title);
    await expect(steps.nth(i).locator('.anticon')).toBeVisible();
  }

  // Tab bar.
  await expect(page.getByTestId('product-tabs').locator('a')).toHaveText(['基本信息', '办签资料', '办理流程', `用户评价(${row.reviews})`]);

  // Basic info.
  const basicRows = page.getByTestId('product-basic-info').locator('.pd-basic-row');
  await expect(basicRows).toHaveCount(basic.length);
  for (const [i, item] of basic.entries()) {
    await expect(basicRows.nth(i).locator('dt')).toHaveText(item.title);
  }

  // Materials of the first identity, grouped by attr, required ones marked *.
  const materials = page.getByTestId('product-materials');
  await expect(materials.getByRole('tab')).toHaveText(Object.values(IDENTITIES));
  const own = materialNames(row.id, 0);
  const groups = materials.locator('.pd-material-group');
  const attrs = [...new Set(own.map((m) => m.attr))].sort();
  await expect(groups.locator('.pd-material-group-title')).toHaveText(attrs.map((attr) => new RegExp(`^${MATERIAL_ATTRS[attr as 0 | 1 | 2]}`)));
  for (const material of own) {
    const item = groups.locator(`[data-testid="product-material"]`).filter({ hasText: material.name }).first();
    await expect(item).toBeVisible();
    await expect(item.locator('.pd-required')).toHaveCount(material.required ? 1 : 0);
  }
  if (row.photoId !== 0) {
    const photo = materials.getByTestId('product-photo');
    await expect(photo).toContainText('签证照片');
    await expect(photo).toContainText(PHOTO_COLORS[row.photoColor as 0 | 1 | 2 | 3]);
    await expect(photo).toContainText(`${row.photoWidth} × ${row.photoHeight} mm`);
    await expect(photo).toContainText('光线均匀、不戴眼镜、露出双耳、纯色墙面背景且与衣服颜色不同');
    await expect(photo).toContainText('手机拍摄的照片会自动检测并处理');
  } else {
    await expect(materials.getByTestId('product-photo')).toHaveCount(0);
  }

  // Process steps numbered 01, 02, … and the reminder.
  const process = query<{ title: string }>('SELECT title FROM visa_product_process_step WHERE visa_product_id = ? ORDER BY sort, id', row.id);
  const processSteps = page.getByTestId('product-process').locator('.pd-step');
  await expect(processSteps).toHaveCount(process.length);
  for (const [i, step] of process.entries()) {
    await expect(processSteps.nth(i).locator('.pd-step-number')).toHaveText(String(i + 1).padStart(2, '0'));
    await expect(processSteps.nth(i).locator('.pd-step-title')).toHaveText(step.title);
  }
  if (row.reminder.trim()) await expect(page.getByTestId('product-reminder')).toContainText('温馨提示');

  // Reviews: average, count, the first page as the database orders it.
  const summary = page.getByTestId('product-review-summary');
  await expect(summary).toContainText(formatAverageRating(row.sumScore, row.reviews));
  await expect(summary).toContainText(`${row.reviews}条评价`);
  const expected = reviewPage(row.id, 1);
  const items = page.getByTestId('product-review');
  await expect(items).toHaveCount(expected.length);
  for (const [i, review] of expected.entries()) {
    const item = items.nth(i);
    await expect(item.locator('.pd-review-name')).toHaveText(shownName(review));
    await expect(item.locator('.pd-stars')).toHaveAttribute('data-fill', `${review.score * 20}%`);
    await expect(item.locator('.pd-review-content')).toHaveText(review.content);
    await expect(item.locator('time')).toHaveText(chinaDate(review.create_time));
    await expect(item.locator('.pd-review-meta')).toContainText(review.platform);
  }

  await page.mouse.move(2, 790);
  await expect(page.getByTestId('product-price-detail')).toBeHidden();
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await animationsSettled(page);
  await snap(page, 'product-desktop');
});

test('the page reads without JavaScript: every section is in the server HTML', async ({ browser }) => {
  const row = rich();
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const response = await page.goto(`/visa/product/${row.id}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(titleOf(row));
  for (const id of ['product-summary', 'product-tabs', 'product-basic-info', 'product-materials', 'product-process', 'product-reviews']) {
    await expect(page.getByTestId(id)).toBeVisible();
  }
  await expect(page.getByTestId('product-review')).toHaveCount(Math.min(row.reviews, REVIEW_PAGE_SIZE));
  // The tab bar is made of plain anchors.
  await expect(tab(page, 'process')).toHaveAttribute('href', '#product-process');
  // Without a script nothing could expand the reminder: it is shown whole.
  if (row.reminder.trim()) {
    const body = page.getByTestId('product-reminder-body');
    const { clientHeight, scrollHeight } = await body.evaluate((el) => ({ clientHeight: el.clientHeight, scrollHeight: el.scrollHeight }));
    expect(clientHeight).toBe(scrollHeight);
  }
  await context.close();
});

test('the tab bar scrolls to its sections, and the active tab follows the scroll', async ({ page }) => {
  const row = rich();
  await open(page, row.id);
  await expect(tab(page, 'basic')).toHaveAttribute('aria-current', 'location');

  const bar = page.getByTestId('product-tabs');
  for (const [key, section] of [
    ['materials', 'product-materials'],
    ['process', 'product-process'],
    ['reviews', 'product-reviews'],
    ['basic', 'product-basic-info'],
  ] as const) {
    await tab(page, key).click();
    await expect(tab(page, key)).toHaveAttribute('aria-current', 'location');
    // Smooth scrolling ends with the section just below the sticky header and tab bar.
    await expect
      .poll(async () => {
        const barBox = await bar.boundingBox();
        const top = await page.getByTestId(section).evaluate((el) => el.getBoundingClientRect().top);
        return Math.abs(top - (barBox!.y + barBox!.height)) <= 12;
      })
      .toBe(true);
    const barBox = await bar.boundingBox();
    expect(Math.round(barBox!.y)).toBe(SITE_HEADER_PX); // sticky under the 64px site header
    await page.waitForTimeout(300);
    await expect(tab(page, key)).toHaveAttribute('aria-current', 'location');
  }

  // Plain scrolling (no click) moves the active tab too.
  for (const [key, section] of [
    ['process', 'product-process'],
    ['materials', 'product-materials'],
  ] as const) {
    await page
      .getByTestId(section)
      .evaluate((el) => window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY - 64 - 48 + 20, behavior: 'instant' }));
    await expect(tab(page, key)).toHaveAttribute('aria-current', 'location');
    await expect(bar.locator('[aria-current]')).toHaveCount(1);
  }
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await expect(tab(page, 'basic')).toHaveAttribute('aria-current', 'location');
});

test('identity tabs switch the material checklist', async ({ page }) => {
  // A product whose identities do not all share one checklist.
  const row = product(
    `${LISTED} AND (SELECT COUNT(DISTINCT identity_id || ':' || name) FROM visa_product_material m WHERE m.visa_product_id = p.visa_product_id)
       > (SELECT COUNT(DISTINCT name) FROM visa_product_material m WHERE m.visa_product_id = p.visa_product_id AND m.identity_id = 0)`,
  );
  await open(page, row.id);
  const materials = page.getByTestId('product-materials');
  for (const [id, label] of Object.entries(IDENTITIES)) {
    await materials.getByRole('tab', { name: label }).click();
    const pane = materials.locator(`.pd-identity[data-identity="${id}"]`);
    const expected = materialNames(row.id, Number(id));
    if (expected.length === 0 && row.photoId === 0) {
      await expect(materials.getByRole('tabpanel', { name: label })).toContainText('该身份暂无需要准备的资料');
      continue;
    }
    await expect(pane).toBeVisible();
    // required first, then optional, within each attr group in the order 电子 → 邮寄 → 赴馆
    const ordered = [0, 1, 2].flatMap((attr) => [
      ...expected.filter((m) => m.attr === attr && m.required),
      ...expected.filter((m) => m.attr === attr && !m.required),
    ]);
    await expect(pane.locator('.pd-material-name')).toHaveText([
      ...(row.photoId !== 0 ? ['*签证照片'] : []),
      ...ordered.map((m) => `${m.required ? '*' : ''}${m.name}`),
    ]);
  }
});

test('a material sample opens in the image viewer', async ({ page }) => {
  const row = product(
    `${LISTED} AND EXISTS (SELECT 1 FROM visa_product_material m WHERE m.visa_product_id = p.visa_product_id AND m.identity_id = 0 AND m.sample IS NOT NULL AND m.sample <> '')`,
  );
  await open(page, row.id);
  const link = page.getByTestId('product-materials').getByRole('link', { name: '查看样例' }).first();
  const name = (await link.locator('xpath=ancestor::li[1]').locator('.pd-material-name').textContent())!.replace(/^\*/, '');
  await link.click();
  const viewer = page.locator('.viewer-container');
  await expect(viewer).toBeVisible();
  await expect(viewer.locator('.viewer-title')).toContainText(`${name} 样例`);
  await expect.poll(() => viewer.locator('.viewer-canvas img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await animationsSettled(page);
  await page.keyboard.press('Escape');
  await expect(page.locator('.viewer-container')).toHaveCount(0);
});

test('the reminder box is collapsed at 72px and toggles with 展开全部 / 收起', async ({ page }) => {
  const row = product(`${LISTED} AND p.reminder <> ''`, 'LENGTH(p.reminder) DESC');
  await open(page, row.id);
  const box = page.getByTestId('product-reminder');
  const body = page.getByTestId('product-reminder-body');
  const height = () => body.evaluate((el) => el.getBoundingClientRect().height);
  const full = await body.evaluate((el) => el.scrollHeight);
  expect(full, 'the longest reminder of the seed should be taller than the collapsed box').toBeGreaterThan(REMINDER_COLLAPSED_HEIGHT_PX);

  expect(await height()).toBe(REMINDER_COLLAPSED_HEIGHT_PX);
  await box.getByRole('button', { name: '展开全部' }).click();
  await expect(box.getByRole('button', { name: '收起' })).toBeVisible();
  expect(await height()).toBeGreaterThan(REMINDER_COLLAPSED_HEIGHT_PX);
  await expect(body).toContainText(row.reminder.trim().split('\n').at(-1)!.trim());
  await box.getByRole('button', { name: '收起' }).click();
  await expect(box.getByRole('button', { name: '展开全部' })).toBeVisible();
  expect(await height()).toBe(REMINDER_COLLAPSED_HEIGHT_PX);
});

test('the reminder toggle shows only when the content is taller than 72px', async ({ page }) => {
  // The shortest reminder of the seed; whether it overflows depends on the rendered text.
  const row = product(`${LISTED} AND p.reminder <> ''`, 'LENGTH(p.reminder), p.visa_product_id');
  await open(page, row.id);
  const box = page.getByTestId('product-reminder');
  const contentHeight = await box.locator('.pd-reminder-content').evaluate((el) => el.scrollHeight);
  await expect(box.getByRole('button', { name: '展开全部' })).toHaveCount(contentHeight > REMINDER_COLLAPSED_HEIGHT_PX ? 1 : 0);
  // A reminder cut to one line never needs the toggle.
  await box.locator('.pd-reminder-content').evaluate((el) => {
    el.textContent = '请提前准备好护照。';
  });
  await expect(box.getByRole('button')).toHaveCount(0);
});

test('reviews page through the review API, 10 a page, at most 5 page numbers', async ({ page }) => {
  const row = rich();
  const pages = Math.ceil(row.reviews / REVIEW_PAGE_SIZE);
  await open(page, row.id);
  const reviews = page.getByTestId('product-reviews');
  const pagination = reviews.getByRole('navigation', { name: '评价分页' });
  const numbers = pagination.locator('.plain-pager-item');
  await expect(pagination).toBeVisible();
  expect(await numbers.count()).toBeLessThanOrEqual(5);

  const names = (rows: ReviewRow[]) => rows.map((r) => r.content);
  const page1 = reviewPage(row.id, 1);
  await expect(reviews.locator('.pd-review-content')).toHaveText(names(page1));

  const calls: unknown[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/www/visa_product_review_list')) calls.push(request.postDataJSON());
  });
  await numbers.filter({ hasText: /^2$/ }).click();
  const page2 = reviewPage(row.id, 2);
  await expect(reviews.locator('.pd-review-content')).toHaveText(names(page2));
  expect(calls).toEqual([{ visa_product_id: row.id, page: 2 }]);
  await expect(pagination.locator('[aria-current="page"]')).toHaveText('2');
  expect(await numbers.count()).toBeLessThanOrEqual(5);

  if (pages >= 7) {
    // In the middle: first, current − 1, current, current + 1, last — exactly 5 numbers.
    const middle = Math.ceil(pages / 2);
    for (let current = 2; current < middle; current += 1) {
      await pagination.getByRole('button', { name: '下一页' }).click();
      await expect(pagination.locator('[aria-current="page"]')).toHaveText(String(current + 1));
    }
    await expect(numbers).toHaveCount(5);
    await expect(numbers).toHaveText(['1', String(middle - 1), String(middle), String(middle + 1), String(pages)]);
    await expect(reviews.locator('.pd-review-content')).toHaveText(names(reviewPage(row.id, middle)));
  }
  await pagination
    .locator('.plain-pager-item')
    .filter({ hasText: new RegExp(`^${pages}$`) })
    .click();
  await expect(reviews.getByTestId('product-review')).toHaveCount(row.reviews - (pages - 1) * REVIEW_PAGE_SIZE);
});

test('a product without reviews says so and has no pagination', async ({ page }) => {
  const row = product(`${LISTED} AND NOT EXISTS (SELECT 1 FROM visa_product_review r WHERE r.visa_product_id = p.visa_product_id)`);
  await open(page, row.id);
  const reviews = page.getByTestId('product-reviews');
  await expect(reviews).toContainText('暂时没有评论哦！');
  await expect(reviews).toContainText('0条评价');
  await expect(reviews.getByRole('navigation', { name: '评价分页' })).toHaveCount(0);
  await expect(page.getByTestId('product-rating')).toHaveText('5.0 /5');
  await expect(tab(page, 'reviews')).toHaveText('用户评价(0)');
});

test('a product with one page of reviews has no pagination', async ({ page }) => {
  const row = query<ProductRow>(
    `${PRODUCT_SELECT} WHERE ${LISTED} AND (SELECT COUNT(*) FROM visa_product_review r WHERE r.visa_product_id = p.visa_product_id) BETWEEN 1 AND ${REVIEW_PAGE_SIZE} LIMIT 1`,
  )[0];
  expect(row, 'the seed must have a listed product with 1–10 reviews').toBeTruthy();
  await open(page, row!.id);
  await expect(page.getByTestId('product-review')).toHaveCount(row!.reviews);
  await expect(page.getByTestId('product-reviews').getByRole('navigation', { name: '评价分页' })).toHaveCount(0);
});

for (const [kind, where] of [
  ['by status', 'p.status = 1'],
  ['by channel 99', `p.channel = ${DELISTED_CHANNEL} AND p.status <> 1`],
] as const) {
  test(`a product delisted ${kind} shows the disabled '该商品已下架' and no '立即办理'`, async ({ page }) => {
    const row = product(where);
    await open(page, row.id);
    const delisted = page.getByTestId('product-delisted');
    await expect(delisted).toHaveText('该商品已下架');
    await expect(delisted).toBeDisabled();
    await expect(page.getByRole('button', { name: '立即办理' })).toHaveCount(0);
    // The rest of the page is still there.
    await expect(page.getByTestId('product-materials')).toBeVisible();
  });
}

test("a product that cannot be handled offline warns '该商品不支持线下办理'", async ({ page }) => {
  const row = product(`${LISTED} AND p.offline = 0`);
  await open(page, row.id);
  let qrCalls = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/www/qrcode_get')) qrCalls += 1;
  });
  await page.getByRole('button', { name: '立即办理' }).click();
  await expect(page.locator('.ant-message-warning')).toHaveText('该商品不支持线下办理');
  await expect(page.getByTestId('product-qr-popup')).toHaveCount(0);
  expect(qrCalls).toBe(0);
});

test('a guest gets the mini-program QR popup; the code decodes to the product scene and is fetched once', async ({ page }) => {
  const row = rich();
  await open(page, row.id);
  const payloads: unknown[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/www/qrcode_get')) payloads.push(request.postDataJSON());
  });

  await page.getByRole('button', { name: '立即办理' }).click();
  const dialog = page.getByRole('dialog');
  const popup = dialog.getByTestId('product-qr-popup');
  await expect(popup).toBeVisible();
  const image = popup.getByTestId('product-qrcode');
  await expect(image).toBeVisible();
  expect(payloads).toEqual([{ page: QRCODE_PAGE, scene: qrcodeScene(row.id), size: 300 }]);

  // The image is a real JPEG of a QR code that names the mini-program page and the scene.
  const src = (await image.getAttribute('src'))!;
  expect(src.startsWith('data:image/jpeg;base64,')).toBe(true);
  const decoded = jpeg.decode(Buffer.from(src.slice('data:image/jpeg;base64,'.length), 'base64'), { useTArray: true, formatAsRGBA: true });
  expect([decoded.width, decoded.height]).toEqual([300, 300]);
  const code = jsQR(new Uint8ClampedArray(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), decoded.width, decoded.height);
  expect(code, 'the QR code should decode').not.toBeNull();
  expect(code!.data).toContain(QRCODE_PAGE);
  const scene = qrcodeScene(row.id);
  expect(code!.data.includes(encodeURIComponent(scene)) || code!.data.includes(scene)).toBe(true);
  expect(decodeURIComponent(code!.data)).toContain(`v=${row.id}&u=official`);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(300);

  for (const point of ['免费拍摄签证照', '护照免费顺丰寄送', '护照扫描自动填表，证件保存复用', '赠送拒签险，全额赔付']) {
    await expect(popup).toContainText(point);
  }
  await expect(popup.getByRole('link', { name: '下载App' })).toHaveAttribute('href', '/download');
  await animationsSettled(page);
  await snap(page, 'product-qr-popup');

  // Closed and opened again: the kept code, no second request.
  await page.keyboard.press('Escape');
  await expect(popup).toBeHidden();
  await page.getByRole('button', { name: '立即办理' }).click();
  await expect(popup).toBeVisible();
  await expect(popup.getByTestId('product-qrcode')).toHaveAttribute('src', src);
  await page.waitForTimeout(300);
  expect(payloads).toHaveLength(1);

  // '登录企业版' closes the popup and opens the login dialog.
  await popup.getByRole('button', { name: '登录企业版' }).click();
  await expect(popup).toBeHidden();
  await expect(page.getByRole('dialog').getByText('欢迎使用易签通')).toBeVisible();
});

test("the QR popup's '下载App' goes to /download", async ({ page }) => {
  const row = rich();
  await open(page, row.id);
  await page.getByRole('button', { name: '立即办理' }).click();
  await page.getByTestId('product-qr-popup').getByRole('link', { name: '下载App' }).click();
  await expect(page).toHaveURL(/\/download$/);
  await expect(page.getByTestId('product-qr-popup')).toBeHidden();
});

loggedInTest('a logged-in user goes from 立即办理 to the create-order page of the product', async ({ page }) => {
  const row = rich();
  await open(page, row.id);
  await hydrated(page);
  await page.getByRole('button', { name: '立即办理' }).click();
  await expect(page).toHaveURL(new RegExp(`/ordering/create-order\\?visa_product_id=${row.id}&visa_country_id=${row.countryId}$`));
});

test("the e-mail popup is for the selected identity and warns '请输入正确的邮箱' for an invalid address", async ({ page }) => {
  const row = rich();
  await open(page, row.id);
  const materials = page.getByTestId('product-materials');
  await materials.getByRole('tab', { name: IDENTITIES[3] }).click();
  await materials.getByRole('button', { name: '发送此资料清单到邮箱' }).click();
  const dialog = page.getByRole('dialog');
  const popup = dialog.getByTestId('product-email-popup');
  await expect(popup).toBeVisible();
  await expect(dialog).toContainText('发送资料清单到邮箱');
  await expect(dialog).toContainText(IDENTITIES[3]);
  await expect(dialog.getByRole('button', { name: '取消' })).toBeVisible();

  await popup.getByLabel('邮箱').fill('traveller@example.com');
  await page.mouse.move(2, 790);
  await animationsSettled(page);
  await snap(page, 'product-email-popup');

  const sends: unknown[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/www/visa_product_material_send')) sends.push(request.postDataJSON());
  });
  for (const bad of ['', 'traveller', 'traveller@', 'traveller@example', 'trav eller@example.com', 'traveller@example.toolong']) {
    await popup.getByLabel('邮箱').fill(bad);
    await dialog.getByRole('button', { name: '立即发送' }).click();
    await expect(page.locator('.ant-message-warning').last()).toHaveText('请输入正确的邮箱');
  }
  expect(sends).toEqual([]);

  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(popup).toBeHidden();
});

test('route validation and unknown products answer 404', async ({ page }) => {
  const response = await page.goto('/visa/product/abc');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found: /visa/product/abc');

  const maxId = query<{ maxId: number }>('SELECT MAX(visa_product_id) AS maxId FROM visa_product')[0]?.maxId ?? 0;
  const missing = await page.goto(`/visa/product/${maxId + 1000}`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Page not found: /visa/product/${maxId + 1000}`);
});

test('at 390px phone width nothing spills sideways; the tab bar scrolls on its own', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const row = rich();
  await open(page, row.id);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const bar = page.getByTestId('product-tabs');
  const barBox = await bar.boundingBox();
  expect(barBox!.x).toBeGreaterThanOrEqual(0);
  expect(barBox!.x + barBox!.width).toBeLessThanOrEqual(390);
  expect(await bar.evaluate((el) => getComputedStyle(el).overflowX)).toBe('auto');
  await expect(page.getByRole('button', { name: '立即办理' })).toBeVisible();
  await snap(page, 'product-phone');

  // Every section stays inside the screen, the open identity and the reviews included.
  await tab(page, 'reviews').click();
  await expect(tab(page, 'reviews')).toHaveAttribute('aria-current', 'location');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
