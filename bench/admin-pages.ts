// npm run bench:admin-pages — every back-office page (14) in Chromium with the
// queue at BENCH_ORDERS (100,000) orders (issue 27: "usable (load event) in
// ≤ 1 s with the queue at 100k"). The built app runs in demo mode on a
// PostgreSQL database of the bench's own (BENCH_DATABASE_URL names the server,
// default the local one; the database is dropped at the end), filled with the
// bench:queue data (bench/queue-data.ts) beside the demo's own orders. A
// supervisor of the bench's own opens each page once to warm up, then
// BENCH_LOADS (5) times; printed: the median and the worst time from the
// navigation's start to its load event, and to the page's hydration (when its
// buttons answer). Asserts nothing.
import { randomBytes } from 'node:crypto';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { openDatabase } from '../server/db/database.ts';
import { insertQueueOrders } from './queue-data.ts';
import { median, startBuiltApp } from './support.ts';
import { supervisorCookie } from './workbench-order.ts';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const LOADS = Number(process.env.BENCH_LOADS ?? 5);

const name = `bench_pages_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: SERVER });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(SERVER);
url.pathname = `/${name}`;
const app = await startBuiltApp({ databaseUrl: url.toString() });
const { port } = app;
const base = `http://127.0.0.1:${port}`;
const handle = openDatabase({ kind: 'postgres', url: url.toString() }, { poolSize: 2 });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const started = performance.now();
  await insertQueueOrders(handle.db, { orders: ORDERS, now: Date.now() });
  const total = await handle.db
    .selectFrom('user_order')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  console.log(`bench:admin-pages — PostgreSQL, ${total.n} orders (${ORDERS} inserted in ${((performance.now() - started) / 1000).toFixed(1)} s)`);

  const anOrder = await handle.db
    .selectFrom('user_order')
    .select('user_order_id')
    .where('status', '=', 'processing')
    .orderBy('user_order_id', 'desc')
    .executeTakeFirstOrThrow();
  const aProduct = await handle.db.selectFrom('visa_product').select('visa_product_id').orderBy('visa_product_id').executeTakeFirstOrThrow();
  const aCountry = await handle.db.selectFrom('visa_country').select('visa_country_id').orderBy('visa_country_id').executeTakeFirstOrThrow();
  const pages: Array<[string, string]> = [
    ['工作台首页', '/admin'],
    ['订单队列', '/admin/orders'],
    ['订单工作台', `/admin/orders/${anOrder.user_order_id}`],
    ['访问日志', '/admin/access-log'],
    ['操作员', '/admin/operators'],
    ['对账', '/admin/reconciliation'],
    ['发票', '/admin/invoices'],
    ['产品管理', '/admin/catalogue'],
    ['新建产品', '/admin/catalogue/edit'],
    ['编辑产品', `/admin/catalogue/edit?product=${aProduct.visa_product_id}`],
    ['面试时段', '/admin/catalogue/slots'],
    ['评价管理', `/admin/catalogue/reviews?product=${aProduct.visa_product_id}`],
    ['国家与领区', '/admin/catalogue/countries'],
    ['编辑国家', `/admin/catalogue/countries/edit?country=${aCountry.visa_country_id}`],
  ];

  const [cookieName, cookieValue] = (await supervisorCookie(handle.db)).split('=') as [string, string];
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: cookieName, value: cookieValue, url: base, httpOnly: true, sameSite: 'Strict' }]);
  const page = await context.newPage();
  const once = async (path: string) => {
    const response = await page.goto(`${base}${path}`, { waitUntil: 'load' });
    if (response?.status() !== 200) throw new Error(`${path}: HTTP ${response?.status()}`);
    await page.waitForFunction(() => (window as unknown as { __appHydrated?: boolean }).__appHydrated === true);
    return page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { load: nav.loadEventEnd, hydrated: performance.now() };
    });
  };
  const rows: Array<{ name: string; path: string; load: number; worst: number; hydrated: number }> = [];
  for (const [label, path] of pages) {
    await once(path);
    const runs = [];
    for (let i = 0; i < LOADS; i += 1) runs.push(await once(path));
    const loads = runs.map((r) => r.load);
    rows.push({ name: label, path, load: median(loads), worst: Math.max(...loads), hydrated: median(runs.map((r) => r.hydrated)) });
  }
  console.log(`${LOADS} loads each after one to warm up, Chromium at 1280 × 900, a supervisor:`);
  for (const row of rows)
    console.log(
      `  ${row.name.padEnd(8, '　')} load event median ${row.load.toFixed(0).padStart(5)} ms, worst ${row.worst.toFixed(0).padStart(5)} ms; hydrated ${row.hydrated.toFixed(0).padStart(5)} ms   ${row.path}`,
    );
  const worst = Math.max(...rows.map((r) => r.worst));
  console.log(`goal: every page's load event ≤ 1,000 ms — ${worst <= 1000 ? 'met' : 'not met'} (worst ${worst.toFixed(0)} ms)`);
} finally {
  await browser.close();
  await handle.destroy();
  app.child.kill('SIGTERM');
  await new Promise((resolve) => app.child.once('exit', resolve));
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
process.exit(0);
