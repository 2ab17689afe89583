import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import SQLite from 'better-sqlite3';
import { API_VERSION, STORAGE_KEYS } from '../../common/constants';
import type { LoginInfo } from '../../common/contracts/account';
import { newRequestId, sha256Hex, signRequest } from '../../common/signing';
import { DEV_API_CLIENTS } from '../../server/config';
import { DEMO_OPERATORS } from '../../server/db/seed/demo-operators';
import { totpCode, totpStep } from '../../server/modules/operator/totp';
import { openDatabase } from '../../server/db/database';
import { type InsertedCustomer, insertCustomer, insertProduct, type InsertedProduct, type ProductOptions } from '../../server/test-support/factories';

/**
 * Waits until every finite animation and transition on the page has ended
 * (endless ones, a spinner's, are left out). The one wait for motion in the
 * e2e specs:
 *   - before a click inside a dialog that just opened: a click on a checkbox
 *     mid-zoom can be lost under load (CI, 2026-11-25: 资金证明不足 clicked
 *     50 ms after 录入拒签 opened did not stick);
 *   - before a screenshot (mid-zoom shows only the mask);
 *   - before axe measures colours (mid-fade text is blended with the page behind).
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
  );
}

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

/**
 * The header's user button, the visible one. On the first logged-in page a
 * server renders, its HTML holds the button twice for a moment: the lazy
 * menu's fallback and the streamed menu in a hidden block, until React's
 * inline script swaps them (CI lost a login to a strict-mode "2 elements").
 */
export function headerUser(page: Page) {
  return page.getByTestId('header-user').filter({ visible: true });
}

export async function logIn(page: Page, account = DEMO.account, password = DEMO.password) {
  const dialog = await openLoginDialog(page);
  await dialog.getByLabel('账号').fill(account);
  await dialog.getByLabel('密码').fill(password);
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: '登录' }).click();
  // The page reloads after a login; the toast is shown once the new page runs.
  await page.getByText('登录成功').waitFor();
  await headerUser(page).waitFor();
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
    if (await headerUser(page).isVisible()) {
      await headerUser(page).hover();
      await page.getByRole('menuitem', { name: item }).click({ timeout: 2_000 });
    }
    await done();
  }).toPass({ timeout: 30_000 });
}

// ---- The back office ------------------------------------------------------

/** The demo staff (server/db/seed/demo-operators.ts: seeded in demo mode). */
export const DEMO_STAFF = {
  operator: DEMO_OPERATORS[0],
  supervisor: DEMO_OPERATORS[1],
} as const;

/**
 * The authenticator's code for an operator, as a person would type it. A code
 * logs in once: when this 30-second step's code (or a later one) was already
 * used, wait for the next step.
 */
export async function freshTotpCode(account: string, secret: string): Promise<string> {
  const db = e2eDatabase();
  let lastStep: number | null;
  try {
    lastStep = (db.prepare('select totp_last_step as step from operator where account = ?').get(account) as { step: number | null } | undefined)?.step ?? null;
  } finally {
    db.close();
  }
  for (;;) {
    const now = Date.now();
    if (lastStep === null || totpStep(now) > lastStep) return totpCode(secret, now);
    await new Promise((resolve) => setTimeout(resolve, 31_000 - (now % 30_000)));
  }
}

/** A live back-office session for an operator, made in the database (no login, no code): the `admin_token` cookie's value. */
export function operatorSessionToken(account: string): string {
  const token = randomBytes(32).toString('base64url');
  const db = e2eDatabase();
  try {
    const operator = db.prepare('select id from operator where account = ?').get(account) as { id: number };
    const now = Date.now();
    db.prepare(
      'insert into operator_session (token_hash, operator_id, created_at, last_seen_at, absolute_expires_at, revoked_at, ip, user_agent) values (?, ?, ?, ?, ?, null, null, null)',
    ).run(createHash('sha256').update(token).digest('hex'), operator.id, now, now, now + 3_600_000);
  } finally {
    db.close();
  }
  return token;
}

/** Logs the page's browser context in as an operator through the cookie (for screens, not for testing login). */
export async function asOperator(page: Page, account: string, baseURL: string): Promise<void> {
  // As the login answer sets it (decision 0032).
  await page.context().addCookies([{ name: 'admin_token', value: operatorSessionToken(account), url: baseURL, httpOnly: true, sameSite: 'Strict' }]);
}
/** The factories (server/test-support/factories.ts) on the e2e server's database. */
async function onE2eDatabase<T>(work: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> {
  const file = process.env.E2E_DB_FILE;
  if (!file) throw new Error('E2E_DB_FILE is not set (playwright.config.ts sets it)');
  const handle = openDatabase({ kind: 'sqlite', file });
  try {
    return await work(handle.db);
  } finally {
    await handle.destroy();
  }
}

/** A new enterprise with its administrator on the e2e database (a known password, unique each call). */
export function createCustomer(options?: Parameters<typeof insertCustomer>[1]): Promise<InsertedCustomer> {
  return onE2eDatabase((db) => insertCustomer(db, options));
}

/** A product of the test's own on the e2e database (factories.ts has the defaults). */
export function createProduct(options?: ProductOptions): Promise<InsertedProduct> {
  return onE2eDatabase((db) => insertProduct(db, options));
}

/** Logs in through the signed API (not the dialog): the login data the browser keeps. */
export async function apiLogin(baseURL: string, account: string, password: string): Promise<LoginInfo> {
  const response = await fetch(`${baseURL}/www/account_login`, {
    method: 'POST',
    headers: { ...signedApiHeaders(), 'content-type': 'application/json' },
    body: JSON.stringify({ account, password: sha256Hex(password) }),
  });
  const answer = (await response.json()) as { ret: number; msg: string; body: LoginInfo };
  if (answer.ret !== 0) throw new Error(`login failed: ${answer.ret} ${answer.msg}`);
  return answer.body;
}

/** The customer a loggedInTest made for itself, and its session. */
export interface LoggedInCustomer extends InsertedCustomer {
  token: string;
  login: LoginInfo;
}

/**
 * A test with a customer of its own, already logged in when the page opens:
 * the session is written where app/lib/session.ts reads it (the cookie
 * 'token' that server-rendered pages use and localStorage 'login_data'),
 * with a token from the signed login call. Only account.spec.ts goes through
 * the login dialog (logIn), to test the dialog itself.
 */
export const loggedInTest = test.extend<{ customer: LoggedInCustomer }>({
  // (`provide` is Playwright's `use`, named so that React's hook rules leave it alone.)
  customer: async ({ baseURL }, provide) => {
    const created = await createCustomer();
    const login = await apiLogin(baseURL!, created.account, created.password);
    await provide({ ...created, token: login.token, login });
  },
  storageState: async ({ customer, baseURL }, provide) => {
    const { hostname } = new URL(baseURL!);
    await provide({
      cookies: [
        {
          name: STORAGE_KEYS.tokenCookie,
          value: encodeURIComponent(customer.token),
          domain: hostname,
          path: '/',
          expires: Math.floor(customer.login.expires_at / 1000),
          // As the login answer sets it (decision 0032).
          httpOnly: true,
          secure: false,
          sameSite: 'Lax',
        },
      ],
      origins: [{ origin: new URL(baseURL!).origin, localStorage: [{ name: STORAGE_KEYS.loginData, value: JSON.stringify(customer.login) }] }],
    });
  },
});

/**
 * Logs an existing account in by writing the session (cookie 'token' and
 * localStorage 'login_data', as loggedInTest does), not through the dialog:
 * for screens whose data belongs to that account (the axe rows of the demo
 * administrator's orders).
 */
export async function logInBySession(page: Page, baseURL: string, account = DEMO.account, password = DEMO.password): Promise<void> {
  const login = await apiLogin(baseURL, account, password);
  await page.context().addCookies([
    {
      name: STORAGE_KEYS.tokenCookie,
      value: encodeURIComponent(login.token),
      url: baseURL,
      expires: Math.floor(login.expires_at / 1000),
      httpOnly: true,
      sameSite: 'Lax',
    },
  ]);
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [STORAGE_KEYS.loginData, JSON.stringify(login)] as const);
}

/** The browser's Content-Security-Policy reports on this page from now on ("<page url>: <message>"), as they arrive. */
export function watchCsp(page: Page): string[] {
  const reports: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) reports.push(`${page.url()}: ${message.text()}`);
  });
  return reports;
}

/**
 * Waits until React has hydrated the page (the root's first effect has run, app/root.tsx) and the
 * network is quiet: a button clicked before does nothing on the logged-in and back-office screens,
 * and a field filled before can be reset. (React Router's module global, waited for until
 * 2026-11-27, is set before hydration ends: a click right after it could still be lost.)
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { __appHydrated?: boolean }).__appHydrated === true);
  await page.waitForLoadState('networkidle');
}
