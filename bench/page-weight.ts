// npm run bench:page-weight — what Chromium downloads for each guest page the
// speed goals name (home, a country page, a product page): HTML, JavaScript and
// CSS, as transferred (brotli where accepted) and what the same files weigh
// gzip-compressed. The goal is at most 200 KiB of gzip JavaScript per page.
// Prints, asserts nothing.
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { guestPages, startBuiltApp } from './support.ts';

const JS_GOAL_KIB = 200;
const app = await startBuiltApp();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});

interface Asset {
  kind: 'js' | 'css' | 'html';
  url: string;
  transfer: number;
  raw: number;
  gzip: number;
  encoding: string;
}

async function weigh(path: string): Promise<Asset[]> {
  // A fresh context per page: nothing is cached from the page before.
  const context = await browser.newContext();
  const page = await context.newPage();
  const pending: Array<Promise<void>> = [];
  const assets: Asset[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    const kind = type === 'script' ? 'js' : type === 'stylesheet' ? 'css' : type === 'document' ? 'html' : null;
    if (!kind) return;
    pending.push(
      (async () => {
        const body = await response.body();
        const sizes = await response.request().sizes();
        assets.push({
          kind,
          url: response.url().replace(/^https?:\/\/[^/]+/, ''),
          transfer: sizes.responseBodySize,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          encoding: (await response.allHeaders())['content-encoding'] ?? 'identity',
        });
      })(),
    );
  });
  await page.goto(`http://127.0.0.1:${app.port}${path}`, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  await context.close();
  return assets;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
try {
  for (const { name, path } of guestPages(app.dbFile)) {
    const assets = await weigh(path);
    console.log(`\n${name} (${path})`);
    for (const kind of ['html', 'js', 'css'] as const) {
      const own = assets.filter((a) => a.kind === kind);
      const sum = (pick: (a: Asset) => number) => own.reduce((total, a) => total + pick(a), 0);
      const verdict = kind === 'js' ? `   (goal ≤ ${JS_GOAL_KIB} KiB gzip: ${sum((a) => a.gzip) / 1024 <= JS_GOAL_KIB ? 'met' : 'NOT met'})` : '';
      console.log(
        `  ${kind.padEnd(4)} ${String(own.length).padStart(2)} files: downloaded ${kb(sum((a) => a.transfer)).padStart(10)} (${[...new Set(own.map((a) => a.encoding))].join('/') || '-'}), gzip ${kb(sum((a) => a.gzip)).padStart(10)}, uncompressed ${kb(sum((a) => a.raw)).padStart(10)}${verdict}`,
      );
    }
  }
} finally {
  await browser.close();
  app.child.kill('SIGTERM');
}
process.exit(0);
