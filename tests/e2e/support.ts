import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContextOptions, expect, type Locator, type Page, test } from '@playwright/test';
import SQLite from 'better-sqlite3';
import jpeg from 'jpeg-js';
import jsQR from 'jsqr';
import { STORAGE_KEYS } from '../../common/constants';
import type { LoginInfo } from '../../common/contracts/account';
import { sha256Hex } from '../../common/signing';
import type { OperatorRoleValue } from '../../server/db/schema';
import { createOperatorRepository } from '../../server/modules/operator/operator.repository';
import { createOperatorService } from '../../server/modules/operator/operator.service';
import { newTotpSecret, totpCode, totpStep } from '../../server/modules/operator/totp';
import { openDatabase } from '../../server/db/database';
import type { Operator } from '../../server/platform/principal';
import { testPasswordHashOf } from '../../server/test-support/password';
import {
  type InsertedCustomer,
  insertColleague,
  insertCustomer,
  insertProduct,
  type InsertedProduct,
  type ProductOptions,
} from '../../server/test-support/factories';
import { devSignedHeaders } from '../../server/test-support/signed-headers';

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
/**
 * Picks a date in the antd date picker `testId`: opens it, pages on to the date's month (the panel opens
 * on the current month; a cell carries its date as its title), clicks the day and sees the panel close.
 */
export async function pickDate(page: Page, testId: string, date: string): Promise<void> {
  await page.getByTestId(testId).click();
  const panel = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').last();
  await expect(panel.locator('td.ant-picker-cell-today')).toBeVisible();
  const cell = panel.locator(`td.ant-picker-cell-in-view[title="${date}"]`);
  for (let i = 0; i < 14 && (await cell.count()) === 0; i += 1) await panel.locator('.ant-picker-header-next-btn').click();
  await cell.click();
  await expect(panel).toBeHidden();
}

/** Types a YYYY-MM-DD or HH:mm into one of the back office's antd pickers (its input's id) and picks it (date-fields.tsx). */
export async function typeInPicker(page: Page, id: string, value: string): Promise<void> {
  const input = page.locator(`#${id}`);
  await input.click();
  await input.fill(value);
  await input.press('Enter');
  await expect(input).toHaveValue(value);
}

export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** Screenshots that a person looks at; kept out of git. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync('screenshots', { recursive: true });
  await page.screenshot({ path: `screenshots/${name}.png`, fullPage: false });
}

/** Spec §7's signature headers (and the token), for specs that call the API directly to set a case up (the e2e server signs with the development client pair). */
export const signedApiHeaders = devSignedHeaders;

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

/** Logs in through the login dialog (account.spec.ts tests the dialog; other specs are a loggedInTest). */
export async function logIn(page: Page, account: string, password: string) {
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

/** A MIME encoded word's text (=?UTF-8?B?…?= or =?UTF-8?Q?…?=), or quoted-printable bytes, as UTF-8. */
function decodeQuotedPrintable(text: string, underscoreIsSpace: boolean): string {
  const bytes: number[] = [];
  const source = underscoreIsSpace ? text.replace(/_/g, ' ') : text;
  for (let i = 0; i < source.length; i += 1) {
    const hex = source[i] === '=' ? /^[0-9A-F]{2}/i.exec(source.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(source[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A mailbox message's Subject, its encoded words decoded. */
export function mailSubject(raw: string): string {
  const line = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '';
  return line
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text, true),
    );
}

/** A mailbox message's parts (base64 or quoted-printable) decoded and joined: what the reader sees, text and HTML. */
export function mailText(raw: string): string {
  const text = raw.replace(/\r\n/g, '\n');
  return text
    .split(/\n--[^\n]+\n/)
    .slice(1)
    .map((part) => {
      const [head = '', body = ''] = part.split(/\n\n/, 2);
      if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('utf8');
      if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) return decodeQuotedPrintable(body.replace(/=\n/g, ''), false);
      return body;
    })
    .join('\n');
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

/** A back-office staff member a test made for itself (createOperator): what it logs in with, and its principal. */
export interface StaffMember {
  operatorId: number;
  account: string;
  name: string;
  role: OperatorRoleValue;
  password: string;
  /** Base32, as an authenticator app is given it. */
  totpSecret: string;
  /** The operator as the server's services and the order lifecycle take it. */
  principal: Operator;
}

/** Whose a spec's order is and who works on it: the test's own customer (its session token) and staff member. */
export interface Parties {
  customer: { token: string };
  operator: StaffMember;
}

let operators = 0;

/**
 * A new operator (or supervisor) on the e2e database, with its own password and TOTP secret:
 * inserted through the operator repository the server uses (as the API tests' insertOperator,
 * server/test-support/test-app.ts), unique each call. Not logged in anywhere: asOperator()
 * gives a page its session, or the spec logs in at /admin/login with password and
 * totpCode(totpSecret) where the login itself is what it tests.
 */
export async function createOperator(options: { role?: OperatorRoleValue; name?: string; password?: string } = {}): Promise<StaffMember> {
  operators += 1;
  const role = options.role ?? 'operator';
  const password = options.password ?? 'Staff@123456';
  const hash = testPasswordHashOf(password);
  // 3–50 letters, digits, underscores, dots or hyphens (the operator account's pattern).
  const account = `${role}_${process.pid.toString(36)}${Date.now().toString(36)}${operators}${randomBytes(2).toString('hex')}`;
  // No role word in the name: a spec that checks the role label reads the label.
  const name = options.name ?? `测试员工${operators}`;
  const totpSecret = newTotpSecret();
  const passwordHash = await hash;
  const operatorId = await onE2eDatabase((db) =>
    createOperatorRepository(db).insert({ account, name, role, password_hash: passwordHash, totp_secret: totpSecret, now: Date.now() }),
  );
  return { operatorId, account, name, role, password, totpSecret, principal: { kind: 'operator', operatorId, role } };
}

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

/**
 * A live back-office session for an operator, opened as a successful login opens it (the
 * operator service's openSession; no password, no code): the `admin_token` cookie's value,
 * or the X-Token of a spec's /admin-api calls.
 */
export function operatorSessionToken(operator: Pick<StaffMember, 'operatorId'>): Promise<string> {
  return onE2eDatabase(async (db) => {
    const service = createOperatorService(db, { idleMs: 3_600_000, absoluteMs: 3_600_000 });
    return (await service.openSession(operator.operatorId, null, null)).token;
  });
}

/**
 * A browser context's storage with no session. A context a test opens with browser.newContext()
 * starts with the test's own options, a loggedInTest's customer session included: a staff
 * member's browser, or a stranger's, passes this as its storageState.
 */
export const NO_SESSION = { cookies: [], origins: [] };

/** A page in a browser of the staff member's own (1440 px wide unless told; no customer session), logged in through the cookie. */
export async function staffPage(
  browser: Browser,
  operator: Pick<StaffMember, 'operatorId'>,
  baseURL: string,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...options, storageState: NO_SESSION });
  const page = await context.newPage();
  await asOperator(page, operator, baseURL);
  return page;
}

/** Logs the page's browser context in as an operator through the cookie (for screens, not for testing login). */
export async function asOperator(page: Page, operator: Pick<StaffMember, 'operatorId'>, baseURL: string): Promise<void> {
  const token = await operatorSessionToken(operator);
  // As the login answer sets it (decision 0032).
  await page.context().addCookies([{ name: 'admin_token', value: token, url: baseURL, httpOnly: true, sameSite: 'Strict' }]);
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

/** A colleague of `of`'s enterprise (issue 29) with a role, straight into the database, and their session. */
export async function loggedInColleague(baseURL: string, of: LoggedInCustomer, role: 'admin' | 'agent' | 'finance'): Promise<LoggedInCustomer> {
  const colleague = await onE2eDatabase((db) => insertColleague(db, of.enterpriseId, role));
  const login = await apiLogin(baseURL, colleague.account, colleague.password);
  return { ...of, ...colleague, token: login.token, login };
}

/** A new customer (createCustomer) and its session from the signed login call: what a loggedInTest's `customer` is. */
export async function loggedInCustomer(baseURL: string): Promise<LoggedInCustomer> {
  const created = await createCustomer();
  const login = await apiLogin(baseURL, created.account, created.password);
  return { ...created, token: login.token, login };
}

/**
 * A test with a customer of its own, already logged in when the page opens:
 * the session is written where app/lib/session.ts reads it (the cookie
 * 'token' that server-rendered pages use and localStorage 'login_data'),
 * with a token from the signed login call. Only account.spec.ts goes through
 * the login dialog (logIn), to test the dialog itself.
 *
 * `operator` and `supervisor`: back-office staff of the test's own
 * (createOperator), made when a test asks for them and logged in nowhere:
 * asOperator() gives a page of theirs the session, or the spec logs in at
 * /admin/login when the login is what it tests.
 */
export const loggedInTest = test.extend<{ customer: LoggedInCustomer; operator: StaffMember; supervisor: StaffMember }>({
  // (`provide` is Playwright's `use`, named so that React's hook rules leave it alone.)
  customer: async ({ baseURL }, provide) => provide(await loggedInCustomer(baseURL!)),
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
  // (Playwright reads a fixture's dependencies from its first argument, which must be a destructuring pattern: here none.)
  // eslint-disable-next-line no-empty-pattern
  operator: async ({}, provide) => provide(await createOperator({ role: 'operator' })),
  // eslint-disable-next-line no-empty-pattern
  supervisor: async ({}, provide) => provide(await createOperator({ role: 'supervisor' })),
});

/** A signed call (spec §7's envelope) of the customer API, or of the back office's /admin-api with an operator session as X-Token; throws on ret ≠ 0. */
export async function apiCall<T>(baseURL: string, path: string, payload: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { ...signedApiHeaders(token), 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
}

/** A signed multipart upload (a material, a page-check page), the file's bytes under `file`; throws on ret ≠ 0. */
export async function apiUpload<T>(
  baseURL: string,
  path: string,
  fields: Record<string, string | number>,
  file: Blob,
  fileName: string,
  token: string,
): Promise<T> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  form.append('file', file, fileName);
  const response = await fetch(`${baseURL}${path}`, { method: 'POST', headers: signedApiHeaders(token), body: form });
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
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
 * Collects the page's hydration failures (React's minified #418/#423/#425, or the
 * development text): React then throws the server's HTML away and renders the
 * page again, so an element a test found before is detached and a click before
 * that is lost (an antd Modal with forceRender did it on the order list).
 */
export function watchHydration(page: Page): string[] {
  const failures: string[] = [];
  page.on('pageerror', (error) => {
    if (/Minified React error #(418|423|425)\b|Hydration failed|hydrating/i.test(error.message))
      failures.push(`${page.url()}: ${error.message.split('\n')[0]}`);
  });
  return failures;
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

// ---- A spec's own server of the build (the payment journeys' real-provider servers) ----

/** The environment of a spec's own server on `port`: the e2e server's (its database, so the factories work) plus `extra`. */
export function ownServerEnv(port: number, extra: Record<string, string>): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    ...extra,
    APP_ENV: 'demo',
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    SQLITE_FILE: process.env.E2E_DB_FILE!,
    LOG_LEVEL: 'warn',
    PUBLIC_SITE_URL: `http://127.0.0.1:${port}`,
    NOTICE_OUTBOX_SWEEP_SECONDS: '0',
  };
}

/**
 * Starts the built server with `env` and waits until it answers on its port; returns how to stop it,
 * which resolves once the process has exited (a server drains for a few seconds after SIGTERM: the
 * next spec's server must not find the port still answered by this one).
 */
export async function startOwnServer(label: string, env: Record<string, string>): Promise<() => Promise<void>> {
  const base = env.PUBLIC_SITE_URL!;
  const server: ChildProcess = spawn(process.execPath, ['--conditions=production', '--import', 'tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  server.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  server.on('exit', (code) => {
    if (code !== null && code !== 0) console.error(`${label} e2e server exited ${code}:\n${output.join('').slice(-4000)}`);
  });
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    const late = setTimeout(() => server.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(late);
  };
  for (let i = 0; i < 120; i += 1) {
    // Ours must be the one answering (not another server on that port).
    if (server.exitCode !== null) throw new Error(`the ${label} e2e server exited (${server.exitCode}): is ${base} taken?`);
    const up = await fetch(`${base}/`)
      .then((response) => response.ok)
      .catch(() => false);
    if (up) return stop;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error(`the ${label} e2e server did not start`);
}

// ---- Paying an order (the payment journeys) ----

/** A small grey JPEG: a material scan the upload accepts. */
export function scanJpeg(): Blob {
  const width = 40;
  const height = 50;
  return new Blob([Buffer.from(jpeg.encode({ data: Buffer.alloc(width * height * 4, 200), width, height }, 80).data)], { type: 'image/jpeg' });
}

/** What the QR code shown in an <img> holds (decoded from its pixels), or null. */
export async function scanQrCode(image: Locator): Promise<string | null> {
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

/** A confirmed (pending_payment) order of the customer on `baseURL`, through the real calls; returns its id and total. */
export async function confirmedOrder(baseURL: string, token: string): Promise<{ userOrderId: number; total: number }> {
  const product = await createProduct({ interview: false });
  const departure = new Date(Date.now() + 40 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id: userOrderId } = await apiCall<{ user_order_id: number }>(
    baseURL,
    '/www/order/order_create',
    { visa_product_id: product.visa_product_id, departure_date: departure, applicants: [{ name: '周航', identity_id: 0, mobile_phone: '13700137001' }] },
    token,
  );
  const detail = await apiCall<{ missing_materials: Array<{ applicant_id: number; material_id: number | null }> }>(
    baseURL,
    '/www/order/order_detail_get',
    { user_order_id: userOrderId },
    token,
  );
  for (const item of detail.missing_materials) {
    const fields: Record<string, string | number> = { user_order_id: userOrderId, applicant_id: item.applicant_id };
    if (item.material_id === null) fields.kind = 'photo';
    else fields.material_id = item.material_id;
    await apiUpload(baseURL, '/www/order/material_upload', fields, scanJpeg(), 'scan.jpg', token);
  }
  const address = await apiCall<{ address_id: number }>(
    baseURL,
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
    baseURL,
    '/www/order/order_confirm',
    { user_order_id: userOrderId, address_id: address.address_id, insurance_plan_id: null },
    token,
  );
  return { userOrderId, total: confirmed.total_amount };
}

/** The order's payments and how many times it was recorded as paid (the order_event 'pay'). */
export function paymentsOf(userOrderId: number) {
  const db = e2eDatabase();
  const rows = db.prepare(`select out_trade_no, provider, scene, status from payment where user_order_id = ? order by payment_id`).all(userOrderId);
  const pays = db.prepare(`select count(*) as n from order_event where user_order_id = ? and event = 'pay'`).get(userOrderId) as { n: number };
  db.close();
  return { rows: rows as Array<{ out_trade_no: string; provider: string; scene: string; status: string }>, pays: pays.n };
}

/** The workbench's collapsed panels (app/features/admin/orders/workbench-page.tsx: each a WorkbenchFold with testId `fold-<name>`). */
export type WorkbenchFoldName = 'files' | 'mail' | 'applicants' | 'order' | 'price-difference' | 'refund' | 'traveller-messages' | 'payments' | 'events';

/** Opens every collapsed panel the workbench shows (which ones depends on the order's step and the caller's role). */
export async function openEveryWorkbenchFold(page: Page): Promise<void> {
  await page.getByTestId('admin-workbench').waitFor();
  const folds = await page.locator('section.aw-fold').evaluateAll((sections) => sections.map((section) => section.getAttribute('data-testid') ?? ''));
  expect(folds.length).toBeGreaterThan(0);
  for (const fold of folds) await openWorkbenchFold(page, fold.replace(/^fold-/, '') as WorkbenchFoldName);
}

/**
 * Opens a collapsed panel of the workbench (issue 27: only the current step's task starts open; a panel is
 * rendered once opened). A click before hydration does nothing, so it clicks until the panel says it is open.
 */
export async function openWorkbenchFold(page: Page, fold: WorkbenchFoldName): Promise<void> {
  const section = page.getByTestId(`fold-${fold}`);
  await expect(async () => {
    if ((await section.getAttribute('data-open')) !== 'true') await section.getByTestId(`fold-${fold}-toggle`).click();
    await expect(section).toHaveAttribute('data-open', 'true', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}
