// Paying through Alipay end to end — against the local fake of Alipay's
// OpenAPI gateway (server/test-support/fakes/alipay-fake.ts), with RSA2 keys
// made here: this spec starts its own server of the build with
// PAYMENT_ALIPAY_PROVIDER=alipay pointed at the fake (on the e2e database, so
// the factories work), the way payment-wechatpay.spec.ts does for WeChat Pay.
// - Desktop (1280 px): 支付宝 in the dialog → alipay.trade.precreate; its
//   qr_code is the QR code shown (decoded from its pixels); the fake plays the
//   payer and posts the signed notification; the dialog notices and moves on.
// - Phone (390 px): the dialog has no QR code but 打开支付宝付款, which sends the
//   browser to the WAP cashier (alipay.trade.wap.pay, the fake's page);
//   确认付款 there pays, notifies and returns to the order detail, which asks
//   for the result and shows 支付成功 and the order in 资料审核中.
// Screenshots: screenshots/payment/alipay-*.png (looked at by a person).
import { generateKeyPairSync } from 'node:crypto';
import { expect } from '@playwright/test';
import { type AlipayFake, createAlipayFake } from '../../server/test-support/fakes/alipay-fake';
import { confirmedOrder, hydrated, loggedInCustomer, loggedInTest, ownServerEnv, paymentsOf, scanQrCode, snap, startOwnServer } from './support';

// E2E_PORT + 8: clear of the ports playwright.config.ts derives from any session's E2E_PORT (+500, +1000),
// and of the WeChat Pay spec's own server (+7), which may still be draining when this one starts.
const PORT = Number(process.env.E2E_PORT ?? 3210) + 8;
const BASE = `http://127.0.0.1:${PORT}`;
const APP_ID = '2021000149612345';
// The app's key pair (its public key "uploaded to Alipay") and Alipay's, made for this run only.
const appKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const alipayKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
let fake: AlipayFake;

/** The server's environment: the e2e server's, with the alipay channel on the fake. */
function serverEnv(gateway: string): Record<string, string> {
  return ownServerEnv(PORT, {
    PAYMENT_ALIPAY_PROVIDER: 'alipay',
    ALIPAY_APP_ID: APP_ID,
    // As Alipay's key tool writes them: the private key as bare base64 (PKCS#1), Alipay's public key as PEM.
    ALIPAY_APP_PRIVATE_KEY: appKeys.privateKey.export({ type: 'pkcs1', format: 'der' }).toString('base64'),
    ALIPAY_PUBLIC_KEY: alipayKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ALIPAY_GATEWAY: gateway,
    ALIPAY_TIMEOUT_MS: '5000',
  });
}

/** The fake and this spec's own server, up before any test's fixtures (a worker fixture, set up first). */
const test = loggedInTest.extend<object, { alipayServer: AlipayFake }>({
  // The customer logs in on this spec's server: only once it is up.
  customer: async ({ alipayServer, baseURL }, provide) => {
    expect(alipayServer.gateway).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/gateway\.do$/);
    await provide(await loggedInCustomer(baseURL!));
  },
  alipayServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, provide) => {
      const alipay = createAlipayFake({ appId: APP_ID, appPublicKey: appKeys.publicKey, alipayPrivateKey: alipayKeys.privateKey, now: () => Date.now() });
      await alipay.start();
      try {
        const stop = await startOwnServer('Alipay', serverEnv(alipay.gateway));
        try {
          fake = alipay;
          await provide(alipay);
        } finally {
          await stop();
        }
      } finally {
        await alipay.close();
      }
    },
    { scope: 'worker', auto: true },
  ],
});

test.use({ baseURL: BASE });

test('Alipay on a desktop (1280 px): the precreate QR code, the signed notification, the dialog moves on', async ({ page, customer }) => {
  const { userOrderId, total } = await confirmedOrder(BASE, customer.token);
  await page.goto(`/ordering/order-confirm/${userOrderId}`);
  await hydrated(page);
  await page.getByTestId('confirm-submit').click();
  const dialog = page.getByRole('dialog').filter({ hasText: '支付订单' });
  await dialog.getByTestId('pay-channel-alipay').click();
  await expect(dialog.getByTestId('pay-channel-alipay')).toHaveAttribute('aria-checked', 'true');
  await expect(dialog.getByTestId('pay-amount')).toHaveText(`￥${(total / 100).toFixed(2)}`);
  await expect(dialog.getByText('打开支付宝，使用“扫一扫”完成付款')).toBeVisible();
  // precreate's qr_code is what the QR code holds (no sandbox link: this is Alipay).
  await expect.poll(() => scanQrCode(dialog.getByTestId('pay-qrcode'))).toMatch(/^https:\/\/qr\.alipay\.com\//);
  await expect(dialog.getByTestId('pay-sandbox-link')).toHaveCount(0);
  await snap(page, 'payment/alipay-desktop-qr');

  const alipayPayment = paymentsOf(userOrderId).rows.find((row) => row.provider === 'alipay');
  expect(alipayPayment).toMatchObject({ provider: 'alipay', scene: 'qr', status: 'pending' });
  const trade = fake.trades.get(alipayPayment!.out_trade_no)!;
  expect(trade).toMatchObject({ method: 'alipay.trade.precreate', total_amount: total, status: 'WAIT_BUYER_PAY' });
  expect(await scanQrCode(dialog.getByTestId('pay-qrcode'))).toBe(`https://qr.alipay.com/fake${trade.trade_no.slice(-12)}`);
  // The payer scans and pays: Alipay posts the signed notification; we answer `success`.
  fake.pay(trade.out_trade_no);
  expect(await fake.notify(trade.out_trade_no)).toBe(true);
  await expect(dialog.getByText('支付成功')).toBeVisible({ timeout: 15_000 });
  await page.waitForURL(`**/order/order-detail/${userOrderId}`);
  const after = paymentsOf(userOrderId);
  expect(after.rows.find((row) => row.out_trade_no === trade.out_trade_no)).toMatchObject({ status: 'paid' });
  expect(after.pays).toBe(1);
  expect(fake.refusals).toEqual([]);
});

test("Alipay on a phone (390 px): the WAP cashier instead of a QR code, and the order page's result on the way back", async ({ page, customer }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { userOrderId, total } = await confirmedOrder(BASE, customer.token);
  await page.goto(`/ordering/order-confirm/${userOrderId}`);
  await hydrated(page);
  await page.getByTestId('confirm-submit').click();
  const dialog = page.getByRole('dialog').filter({ hasText: '支付订单' });
  await dialog.getByTestId('pay-channel-alipay').click();
  await expect(dialog.getByTestId('pay-phone')).toBeVisible();
  await expect(dialog.getByTestId('pay-qrcode')).toHaveCount(0);
  await expect(dialog.getByText('将打开支付宝完成付款，付款后自动返回本订单查看结果')).toBeVisible();
  await expect(dialog.getByTestId('pay-open-wallet')).toHaveText('打开支付宝付款');
  // Nothing is opened at Alipay before the press.
  expect(paymentsOf(userOrderId).rows).toEqual([]);
  await snap(page, 'payment/alipay-phone-dialog');
  // The dialog fits the phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await dialog.getByTestId('pay-open-wallet').click();
  await page.waitForURL(/\/gateway\.do\?/);
  await expect(page.getByTestId('alipayfake-amount')).toHaveText(`￥${(total / 100).toFixed(2)}`);
  const [payment] = paymentsOf(userOrderId).rows;
  expect(payment).toMatchObject({ provider: 'alipay', scene: 'phone', status: 'pending' });
  expect(fake.trades.get(payment!.out_trade_no)).toMatchObject({ method: 'alipay.trade.wap.pay', total_amount: total });

  await page.getByTestId('alipayfake-pay').click();
  // Back on the order with Alipay's synchronous return parameters appended to return_url.
  await page.waitForURL((url) => url.pathname === `/order/order-detail/${userOrderId}` && url.searchParams.get('pay') === payment!.out_trade_no);
  expect(new URL(page.url()).searchParams.get('method')).toBe('alipay.trade.wap.pay.return');
  await expect(page.getByTestId('pay-return-paid')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('pay-return-paid')).toHaveText('支付成功');
  await expect(page.getByText('资料审核中').first()).toBeVisible();
  await hydrated(page);
  await snap(page, 'payment/alipay-phone-back');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(paymentsOf(userOrderId)).toMatchObject({ rows: [{ status: 'paid' }], pays: 1 });
  expect(fake.trades.get(payment!.out_trade_no)?.notifications.map((n) => n.answer)).toEqual(['success']);
  expect(fake.refusals).toEqual([]);
});
