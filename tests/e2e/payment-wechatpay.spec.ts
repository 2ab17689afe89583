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
import { expect } from '@playwright/test';
import { configureWechatPay, wechatPayFakeFor, wechatPayTestKeys } from '../../server/test-support/fixtures/wechatpay';
import type { WechatPayFake } from '../../server/test-support/fakes/wechatpay-fake';
import {
  confirmedOrder as confirmedOrderOn,
  hydrated,
  loggedInCustomer,
  loggedInTest,
  ownServerEnv,
  paymentsOf,
  scanQrCode,
  snap,
  startOwnServer,
} from './support';

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
  return ownServerEnv(PORT, env);
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
      try {
        const stop = await startOwnServer('WeChat Pay', serverEnv(fakeBase));
        try {
          fake = wechat;
          await provide(wechat);
        } finally {
          await stop();
        }
      } finally {
        await wechat.close();
      }
    },
    { scope: 'worker', auto: true },
  ],
});

test.use({ baseURL: BASE });

const confirmedOrder = (token: string) => confirmedOrderOn(BASE, token);

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
