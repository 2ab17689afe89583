// The visa photo check in the browser (issue 28): a customer uploads a
// portrait whose background is not the product's colour; the page shows at
// once the original and the processed photo with what was done, and the
// customer keeps the processed one — the photo's tile then holds it. The
// portrait is made from a sample face that ships in @vladmandic/face-api
// (bench/photo-set/README.md).
import { expect, test } from '@playwright/test';
import { samplePortrait } from '../../bench/photo-set/generate';
import { e2eDatabase, loggedInTest, signedApiHeaders } from './support';

const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3210}`;

async function call<T>(path: string, payload: object, token?: string): Promise<T> {
  const response = await fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signedApiHeaders(token) },
    body: JSON.stringify(payload),
  });
  const body = (await response.json()) as { ret: number; msg: string; body: T };
  if (body.ret !== 0) throw new Error(`${path}: ${body.msg}`);
  return body.body;
}

/** An offline product that needs a photo, and its photo rule's colour. */
function photoProduct(): { id: number; color: number } {
  const db = e2eDatabase();
  try {
    return db
      .prepare(
        `select p.visa_product_id as id, ph.color as color from visa_product p join photo_param ph on ph.visa_photo_id = p.visa_photo_id
         where p.status = 0 and p.channel = 0 and p.offline = 1 and p.visa_photo_id != 0 order by p.visa_product_id limit 1`,
      )
      .get() as { id: number; color: number };
  } finally {
    db.close();
  }
}

loggedInTest('a photo with the wrong background is processed at upload and the customer keeps the processed one', async ({ page, customer }) => {
  test.setTimeout(150_000);
  const product = photoProduct();
  // Blue where white is required; white otherwise.
  const portrait = await samplePortrait(product.color === 1 ? 'blue' : 'white');
  const departure = new Date(Date.now() + (30 * 24 + 8) * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id: orderId } = await call<{ user_order_id: number }>(
    '/www/order/order_create',
    { visa_product_id: product.id, departure_date: departure, applicants: [{ name: '照片测试', identity_id: 0, mobile_phone: '13800138222' }] },
    customer.token,
  );

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/ordering/upload/${orderId}`);
  const photo = page.getByTestId('upload-photo');
  await expect(photo).toContainText('手机拍摄的照片会自动检测并处理');
  await photo.locator('.up-slot-actions input[type=file]').setInputFiles({ name: '手机自拍.jpg', mimeType: 'image/jpeg', buffer: portrait });

  const panel = photo.getByTestId('photo-check');
  await expect(panel).toHaveAttribute('data-verdict', 'fixed', { timeout: 60_000 });
  await expect(panel).toContainText('请确认使用哪一张');
  await expect(panel.getByTestId('photo-check-fixes')).toContainText('背景替换为');
  await expect(panel.getByRole('img', { name: '原照片' })).toBeVisible();
  await expect(panel.getByRole('img', { name: '处理后的照片' })).toBeVisible();
  // Both pictures loaded (the original through the login cookie, the processed one inline).
  await expect.poll(() => panel.locator('img').evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).naturalWidth > 0))).toBe(true);
  await photo.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/s3shots/photo-check-1280.png', fullPage: false });
  await page.setViewportSize({ width: 390, height: 844 });
  await photo.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/s3shots/photo-check-390.png', fullPage: false });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await panel.getByRole('button', { name: '使用处理后的照片' }).click();
  await expect(panel).toHaveAttribute('data-choice', 'processed');
  await expect(panel).toContainText('已使用处理后的照片');
  await expect(photo.getByTestId('upload-file')).toContainText('（已处理）.jpg');
  await page.screenshot({ path: '/tmp/s3shots/photo-check-chosen-390.png', fullPage: false });
});
