import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import SQLite from 'better-sqlite3';
import { API_VERSION } from '../../common/constants';
import { newRequestId, signRequest } from '../../common/signing';
import { DEV_API_CLIENTS } from '../../server/config';

export const DEMO = { account: 'demo_admin', password: 'Demo@123456', name: '王敏', enterprise: '上海星途商务咨询有限公司' };

/** Screenshots that a person looks at; kept out of git. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync('screenshots', { recursive: true });
  await page.screenshot({ path: `screenshots/${name}.png`, fullPage: false });
}

// The e2e server signs with the development client pair (no API_CLIENTS set).
const [, ACCESS_KEY, SECRET] = DEV_API_CLIENTS.split(':') as [string, string, string];

/** Spec §7's signature headers (and the token), for specs that call the API directly to set a case up. */
export function signedApiHeaders(token?: string): Record<string, string> {
  const date = new Date().toUTCString();
  const requestId = newRequestId();
  return {
    'x-version': API_VERSION,
    'x-date': date,
    'x-request-id': requestId,
    platform: '4',
    authorization: `Basic ${signRequest({ accessKey: ACCESS_KEY, date, version: API_VERSION, requestId }, SECRET)}`,
    ...(token ? { 'x-token': token } : {}),
  };
}

/** Direct access to the e2e database, for what only the server could do (expire a session). */
export function e2eDatabase(): SQLite.Database {
  const file = process.env.E2E_DB_FILE;
  if (!file) throw new Error('E2E_DB_FILE is not set (playwright.config.ts sets it)');
  return new SQLite(file);
}

export async function openLoginDialog(page: Page) {
  await page.getByTestId('header-login').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('欢迎使用易签通').waitFor();
  return dialog;
}

export async function logIn(page: Page, account = DEMO.account, password = DEMO.password) {
  const dialog = await openLoginDialog(page);
  await dialog.getByLabel('账号').fill(account);
  await dialog.getByLabel('密码').fill(password);
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: '登录' }).click();
  // The page reloads after a login; the toast is shown once the new page runs.
  await page.getByText('登录成功').waitFor();
  await page.getByTestId('header-user').waitFor();
}

/** The messages the test SMTP server has received, oldest first (raw MIME). */
export function mailbox(): Array<{ to: string; raw: string }> {
  const dir = process.env.E2E_MAILBOX_DIR;
  if (!dir) throw new Error('E2E_MAILBOX_DIR is not set (playwright.config.ts sets it)');
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const raw = readFileSync(join(dir, name), 'utf8');
      return { to: /^X-Envelope-To: (.*)\r?\n/.exec(raw)?.[1] ?? '', raw };
    });
}

/**
 * Opens the header's hover menu and chooses an item. The menu fades in and
 * out; on a busy machine a click can land while it is still appearing, so the
 * hover and click are repeated until `done` holds (choosing again is harmless).
 */
export async function chooseFromUserMenu(page: Page, item: string, done: () => Promise<void>) {
  await expect(async () => {
    if (await page.getByTestId('header-user').isVisible()) {
      await page.getByTestId('header-user').hover();
      await page.getByRole('menuitem', { name: item }).click({ timeout: 2_000 });
    }
    await done();
  }).toPass({ timeout: 30_000 });
}
