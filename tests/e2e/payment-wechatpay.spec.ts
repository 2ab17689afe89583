// Paying through WeChat Pay end to end — against the local fake of WeChat Pay
// APIv3 (server/test-support/fakes/wechatpay-fake.ts), with keys made here:
// this spec starts its own server of the build with PAYMENT_WECHAT_PROVIDER=
// wechatpay pointed at the fake (on the e2e database, so the factories work).
// - Desktop (1280 px): 去支付 opens the dialog with the Native code_url as the
//   QR code (decoded from its pixels); the fake plays the payer and posts the
//   signed, encrypted notification; the dialog notices and moves on.
// - Phone (390 px): the dialog has no QR code but 打开微信支付付款, which sends the
//   browser to WeChat's H5 cashier (the fake's); 确认支付 there pays and sends it
//   back to the order detail, which asks for the result and shows 支付成功.
// Screenshots: screenshots/payment/wechatpay-*.png (looked at by a person).
import { type ChildProcess, spawn } from 'node:child_process';
import { expect, type Locator } from '@playwright/test';
import jpeg from 'jpeg-js';
import jsQR from 'jsqr';
import { configureWechatPay, wechatPayFakeFor, wechatPayTestKeys } from '../../server/test-support/fixtures/wechatpay';
import type { WechatPayFake } from '../../server/test-support/fakes/wechatpay-fake';
import { apiCall, apiUpload, createProduct, e2eDatabase, hydrated, loggedInCustomer, loggedInTest, snap } from './support';

// E2E_PORT + 7: clear of the ports playwright.config.ts derives from any session's E2E_PORT (+500, +1000).
const PORT = Number(process.env.E2E_PORT ?? 3210) + 7;
const BASE = `http://127.0.0.1:${PORT}`;
const keys = wechatPayTestKeys();
let fake: WechatPayFake;

/** The server's environment: the e2e server's, with the wechat channel on the fake. */
function serverEnv(fakeBase: string): Record<string, string> {
  const config = {} as Parameters<typeof configureWechatPay>[0];
  configureWechatPay(config, keys, fakeBase, 5_000);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(config)) env[name] = String(value);
  return {
    ...(process.env as Record<string, string>),
    ...env,
    APP_ENV: 'demo',
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    SQLITE_FILE: process.env.E2E_DB_FILE!,
    LOG_LEVEL: 'warn',
    PUBLIC_SITE_URL: BASE,
    NOTICE_OUTBOX_SWEEP_SECONDS: '0',
  };
}

/** The fake and this spec's own server, up before any test's fixtures (a worker fixture, set up first). */
const test = loggedInTest.extend<object, { wechatPayServer: WechatPayFake }>({
  // The customer logs in on this spec's server: only once it is up.
  customer: async ({ wechatPayServer, baseURL }, provide) => {
    expect(wechatPayServer.baseUrl).not.toBe('');
    await provide(await loggedInCustomer(baseURL!));
  },
  wechatPayServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, provide) => {
      const wechat = wechatPayFakeFor(keys, { now: () => Date.now() });
      const fakeBase = await wechat.listen();
      const server: ChildProcess = spawn(process.execPath, ['--conditions=production', '--import', 'tsx', 'server/main.ts'], {
        env: serverEnv(fakeBase),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output: string[] = [];
      server.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      server.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      server.on('exit', (code) => {
        if (code !== null && code !== 0) console.error(`WeChat Pay e2e server exited ${code}:\n${output.join('').slice(-4000)}`);
      });
      try {
        let up = false;
        for (let i = 0; i < 120 && !up; i += 1) {
          // Ours must be the one answering (not another server on that port).
          if (server.exitCode !== null) throw new Error(`the WeChat Pay e2e server exited (${server.exitCode}): is port ${PORT} taken?`);
          up = await fetch(`${BASE}/`)
            .then((response) => response.ok)
            .catch(() => false);
          if (!up) await new Promise((resolve) => setTimeout(resolve, 500));
        }
        if (!up) throw new Error('the WeChat Pay e2e server did not start');
        fake = wechat;
        await provide(wechat);
      } finally {
        server.kill('SIGTERM');
        await wechat.close();
      }
    },
    { scope: 'worker', auto: true },
  ],
});

test.use({ baseURL: BASE });

function scan(): Blob {
  const width = 40;
  const height = 50;
  return new Blob([Buffer.from(jpeg.encode({ data: Buffer.alloc(width * height * 4, 200), width, height }, 80).data)], { type: 'image/jpeg' });
}

async function scanQrCode(image: Locator): Promise<string | null> {
  const pixels = await image.evaluate((img: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(img, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height);
    return { width: data.width, height: data.height, data: Array.from(data.data) };
  });
  return jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height)?.data ?? null;
}

/** A confirmed (pending_payment) order of the customer, through the real calls; returns its id and total. */
async function confirmedOrder(token: string): Promise<{ userOrderId: number; total: number }> {
  const product = await createProduct({ interview: false });
  const departure = new Date(Date.now() + 40 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id: userOrderId } = await apiCall<{ user_order_id: number }>(
    BASE,
    '/www/order/order_create',
    { visa_product_id: product.visa_product_id, departure_date: departure, applicants: [{ name: '周航', identity_id: 0, mobile_phone: '13700137001' }] },
    token,
  );
  const detail = await apiCall<{ missing_materials: Array<{ applicant_id: number; material_id: number | null }> }>(
    BASE,
    '/www/order/order_detail_get',
    { user_order_id: userOrderId },
    token,
  );
  for (const item of detail.missing_materials) {
    const fields: Record<string, string | number> = { user_order_id: userOrderId, applicant_id: item.applicant_id };
    if (item.material_id === null) fields.kind = 'photo';
    else fields.material_id = item.material_id;
    await apiUpload(BASE, '/www/order/material_upload', fields, scan(), 'scan.jpg', token);
  }
  const address = await apiCall<{ address_id: number }>(
    BASE,
    '/www/address/address_save',
    {
      kind: 'return',
      name: '周航',
      mobile_phone: '13700137001',
      province_code: '440000',
      city_code: '440300',
      county_code: '440305',
      detail: '科技园南区 1 号',
    },
    token,
  );
  const confirmed = await apiCall<{ total_amount: number }>(
    BASE,
    '/www/order/order_confirm',
    { user_order_id: userOrderId, address_id: address.address_id, insurance_plan_id: null },
    token,
  );
  return { userOrderId, total: confirmed.total_amount };
}

function paymentsOf(userOrderId: number) {
  const db = e2eDatabase();
  const rows = db.prepare(`select out_trade_no, provider, scene, status from payment where user_order_id = ? order by payment_id`).all(userOrderId);
  const pays = db.prepare(`select count(*) as n from order_event where user_order_id = ? and event = 'pay'`).get(userOrderId) as { n: number };
  db.close();
  return { rows: rows as Array<{ out_trade_no: string; provider: string; scene: string; status: string }>, pays: pays.n };
}

test('WeChat Pay on a desktop (1280 px): the Native QR code, the signed notification, the dialog moves on', async ({ page, customer }) => {
  const { userOrderId, total } = await confirmedOrder(customer.token);
  await page.goto(`/ordering/order-confirm/${userOrderId}`);
  await hydrated(page);
  await page.getByTestId('confirm-submit').click();
  const dialog = page.getByRole('dialog').filter({ hasText: '支付订单' });
  await expect(dialog.getByTestId('pay-amount')).toHaveText(`￥${(total / 100).toFixed(2)}`);
  await expect(dialog.getByTestId('pay-qrcode')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(dialog.getByText('请使用手机扫码支付')).toBeVisible();
  // WeChat's code_url is what the QR code holds (no sandbox link: this is WeChat Pay).
  await expect.poll(() => scanQrCode(dialog.getByTestId('pay-qrcode'))).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
  await expect(dialog.getByTestId('pay-sandbox-link')).toHaveCount(0);
  await snap(page, 'payment/wechatpay-desktop-qr');

  const [payment] = paymentsOf(userOrderId).rows;
  expect(payment).toMatchObject({ provider: 'wechatpay', scene: 'qr', status: 'pending' });
  expect(fake.trades.get(payment!.out_trade_no)).toMatchObject({ kind: 'native', amount: total });
  // The payer scans and pays: WeChat posts the signed, encrypted notification; we answer 204.
  expect(await fake.payAndNotify(payment!.out_trade_no)).toBe(204);
  await expect(dialog.getByText('支付成功')).toBeVisible({ timeout: 15_000 });
  await page.waitForURL(`**/order/order-detail/${userOrderId}`);
  expect(paymentsOf(userOrderId)).toMatchObject({ rows: [{ status: 'paid' }], pays: 1 });
  expect(fake.log.filter((entry) => entry.code === 'SIGN_ERROR')).toEqual([]);
});

test("WeChat Pay on a phone (390 px): the wallet (H5) instead of a QR code, and the order page's result on the way back", async ({ page, customer }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { userOrderId, total } = await confirmedOrder(customer.token);
  await page.goto(`/ordering/order-confirm/${userOrderId}`);
  await hydrated(page);
  await page.getByTestId('confirm-submit').click();
  const dialog = page.getByRole('dialog').filter({ hasText: '支付订单' });
  await expect(dialog.getByTestId('pay-phone')).toBeVisible();
  await expect(dialog.getByTestId('pay-qrcode')).toHaveCount(0);
  await expect(dialog.getByText('将打开微信支付完成付款，付款后自动返回本订单查看结果')).toBeVisible();
  // Nothing is opened at WeChat before the press.
  expect(paymentsOf(userOrderId).rows).toEqual([]);
  await snap(page, 'payment/wechatpay-phone-dialog');
  // The dialog fits the phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await dialog.getByTestId('pay-open-wallet').click();
  await page.waitForURL(/\/h5pay\/checkmweb\?/);
  await expect(page.getByTestId('wxfake-amount')).toHaveText(`￥${(total / 100).toFixed(2)}`);
  const [payment] = paymentsOf(userOrderId).rows;
  expect(payment).toMatchObject({ provider: 'wechatpay', scene: 'phone', status: 'pending' });
  expect(fake.trades.get(payment!.out_trade_no)).toMatchObject({ kind: 'h5', payer_client_ip: '127.0.0.1' });

  await page.getByTestId('wxfake-confirm').click();
  await page.waitForURL(`**/order/order-detail/${userOrderId}?pay=${payment!.out_trade_no}`);
  await expect(page.getByTestId('pay-return-paid')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('pay-return-paid')).toHaveText('支付成功');
  await hydrated(page);
  await snap(page, 'payment/wechatpay-phone-back');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(paymentsOf(userOrderId)).toMatchObject({ rows: [{ status: 'paid' }], pays: 1 });
});
