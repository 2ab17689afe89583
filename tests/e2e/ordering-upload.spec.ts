// The upload step in the browser: a draft order made through the API, then on
// /ordering/upload/{id} real files chosen with setInputFiles — a JPEG with a
// visible progress bar (the upload is throttled), a PDF, the visa photo — a
// text file renamed .jpg and an 11 MB file refused with the server's words,
// replace and delete, the effect date, '下一步', and the locked page once the
// order is no longer a draft. Files come back only with the login cookie.
import { expect, type Page, test } from '@playwright/test';
import { FIXTURES, MB, oversizeFile } from '../fixtures/index';
import { animationsSettled, e2eDatabase, loggedInTest, signedApiHeaders } from './support';

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

/** A product with a photo, an interview and at least two electronic items for 在职人员. */
function pickProduct(): number {
  const db = e2eDatabase();
  try {
    const row = db
      .prepare(
        `select p.visa_product_id as id from visa_product p where p.status = 0 and p.channel = 0 and p.offline = 1 and p.visa_photo_id != 0 and p.need_interview = 1
         and (select count(*) from visa_product_material m where m.visa_product_id = p.visa_product_id and m.identity_id = 0 and m.attr = 0 and m.required = 1) >= 2
         order by p.visa_product_id limit 1`,
      )
      .get() as { id: number };
    return row.id;
  } finally {
    db.close();
  }
}

/** The upload input of an item (not the replace inputs of its files). */
const addInput = (item: ReturnType<Page['getByTestId']>) => item.locator('.up-slot-actions input[type=file]');

loggedInTest('upload, refuse, replace, delete, then go on to the interview step', async ({ page, context, customer }) => {
  test.setTimeout(120_000);
  const { token } = customer;
  const departure = new Date(Date.now() + (30 * 24 + 8) * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id: orderId } = await call<{ user_order_id: number }>(
    '/www/order/order_create',
    { visa_product_id: pickProduct(), departure_date: departure, applicants: [{ name: '上传测试', identity_id: 0, mobile_phone: '13800138111' }] },
    token,
  );

  await page.goto(`/ordering/upload/${orderId}`);
  const applicant = page.getByTestId('upload-applicant');
  await expect(applicant).toHaveCount(1);
  await expect(page.locator('.ordering-steps .ant-steps-item-active')).toContainText('上传资料');
  await expect(page.getByTestId('upload-photo-spec')).toContainText('尺寸');
  const next = page.getByTestId('upload-next');
  await expect(next).toBeDisabled();

  const required = applicant.getByTestId('upload-item').filter({ has: page.locator('.up-required') });
  const [first, second] = [required.nth(0), required.nth(1)];

  // A 1 MB JPEG over a throttled line: the progress bar shows real progress, then the file's tile.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
  await addInput(first).setInputFiles(oversizeFile(1 * MB));
  const progress = first.getByTestId('upload-progress');
  await expect(progress).toBeVisible();
  await expect(progress.locator('.ant-progress')).toBeVisible();
  await expect.poll(async () => Number(await progress.locator('.ant-progress').getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThan(0);
  await expect(first.getByTestId('upload-file')).toHaveCount(1, { timeout: 30_000 });
  await expect(progress).toHaveCount(0);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  // A real JPEG and a PDF at once; the image is served back to this session.
  await addInput(second).setInputFiles([FIXTURES.jpeg, FIXTURES.pdf]);
  const tiles = second.getByTestId('upload-file');
  await expect(tiles).toHaveCount(2);
  const jpegTile = tiles.filter({ hasText: 'passport-scan.jpg' });
  await expect(jpegTile).toHaveAttribute('data-content-type', 'image/jpeg');
  await expect.poll(() => jpegTile.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
  const pdfTile = tiles.filter({ hasText: 'bank-statement.pdf' });
  await expect(pdfTile).toHaveAttribute('data-content-type', 'application/pdf');
  const pdfUrl = await pdfTile.locator('a').getAttribute('href');
  const served = await page.request.get(pdfUrl!);
  expect(served.headers()['content-type']).toBe('application/pdf');
  expect(served.headers()['x-content-type-options']).toBe('nosniff');
  // Without the cookie the same address is a plain 404.
  expect((await fetch(`${BASE}${pdfUrl}`)).status).toBe(404);

  // The image viewer.
  await jpegTile.locator('button.up-file-preview').click();
  await expect(page.locator('.viewer-canvas img')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('.viewer-canvas')).toHaveCount(0);

  // Refusals, in the server's words: a text file named .jpg, and 11 MB.
  await addInput(second).setInputFiles(FIXTURES.renamedText);
  await expect(second.getByTestId('upload-refusal')).toContainText('仅支持 JPG、PNG 图片或 PDF 文件');
  await addInput(second).setInputFiles(oversizeFile(11 * MB));
  await expect(second.getByTestId('upload-refusal').filter({ hasText: 'oversize-scan.jpg' })).toContainText('文件过大，单个文件不能超过 10 MB');
  await expect(tiles).toHaveCount(2);
  // The page checks the size first; the server refuses it too, and Chromium gets its answer.
  const material = await call<{ applicants: Array<{ applicant_id: number; electronic: Array<{ material_id: number; name: string }> }> }>(
    '/www/order/material_list',
    { user_order_id: orderId },
    token,
  );
  const target = material.applicants[0]!;
  const direct = await page.evaluate(
    async ({ headers, fields }) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
      const bytes = new Uint8Array(11 * 1024 * 1024);
      bytes.set([0xff, 0xd8, 0xff, 0xe0]);
      form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'big.jpg');
      const response = await fetch('/www/order/material_upload', { method: 'POST', headers, body: form });
      return response.json();
    },
    { headers: signedApiHeaders(token), fields: { user_order_id: orderId, applicant_id: target.applicant_id, material_id: target.electronic[0]!.material_id } },
  );
  expect(direct).toMatchObject({ ret: 1822, msg: '文件过大，单个文件不能超过 10 MB' });
  await second.getByTestId('upload-refusal').first().getByRole('button', { name: '关闭' }).click();
  await expect(second.getByTestId('upload-refusal')).toHaveCount(1);

  // Replace the JPEG with a PNG: same file, new content.
  const fileId = await jpegTile.getAttribute('data-file-id');
  await jpegTile.locator('input[type=file]').setInputFiles(FIXTURES.png);
  const replaced = tiles.filter({ hasText: 'id-card.png' });
  await expect(replaced).toHaveAttribute('data-file-id', fileId!);
  await expect(replaced).toHaveAttribute('data-content-type', 'image/png');
  await expect(tiles).toHaveCount(2);

  // Delete the PDF, after confirming.
  await pdfTile.getByTestId('upload-file-delete').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: '删除' }).click();
  await expect(tiles).toHaveCount(1);

  // Everything else that is required, and the photo.
  await applicant.getByTestId('upload-photo').locator('.up-slot-actions input[type=file]').setInputFiles(FIXTURES.photo);
  await expect(applicant.getByTestId('upload-photo').getByTestId('upload-file')).toHaveCount(1);
  const count = await required.count();
  for (let i = 2; i < count; i += 1) {
    await addInput(required.nth(i)).setInputFiles(FIXTURES.jpeg);
    await expect(required.nth(i).getByTestId('upload-file')).toHaveCount(1);
  }
  await expect(page.getByTestId('upload-missing')).toHaveText('必备资料已齐全');
  await expect(page.getByTestId('upload-applicant-progress')).toHaveText(`必备资料 ${count + 1}/${count + 1}`);

  // The effect date: a day between the order date and the departure date.
  // The day is clicked once the calendar has slid open: CI (2026-11-25) lost a click made mid-slide.
  await page.locator('#up-effect-picker').click();
  await animationsSettled(page);
  await page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-cell-in-view:not(.ant-picker-cell-disabled)').last().click();
  await expect(page.getByText(/签证生效日期：\d{4}-\d{2}-\d{2}/)).toBeVisible();

  await expect(next).toBeEnabled();
  await next.click();
  await expect(page).toHaveURL(new RegExp(`/ordering/choose-interview-time/${orderId}$`));

  // The audit log has every change.
  const db = e2eDatabase();
  try {
    const events = (db.prepare('select event from order_event where user_order_id = ? order by event_id').all(orderId) as Array<{ event: string }>).map(
      (e) => e.event,
    );
    // 1 MB scan, JPEG + PDF, the photo, the other required items.
    expect(events.filter((e) => e === 'material_upload').length).toBe(count + 2);
    expect(events).toContain('material_replace');
    expect(events).toContain('material_delete');
    expect(events).toContain('effect_date');
  } finally {
    db.close();
  }

  // Once the order is no longer a draft, the page says so and leads to the order.
  await call('/www/order/order_cancel', { user_order_id: orderId }, token);
  await page.goto(`/ordering/upload/${orderId}`);
  await expect(page.getByTestId('upload-locked')).toContainText('订单已取消，资料不能再修改');
  await page.getByRole('button', { name: '查看订单详情' }).click();
  await expect(page).toHaveURL(new RegExp(`/order/order-detail/${orderId}$`));
});
