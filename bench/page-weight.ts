// npm run bench:page-weight — the product page's JavaScript and CSS as
// Chromium downloads them (transfer sizes, brotli where accepted), and what
// the same files weigh gzip-compressed. Prints, asserts nothing.
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { benchProductId, startBuiltApp } from './support.ts';

const app = await startBuiltApp();
const url = `http://127.0.0.1:${app.port}/visa/product/${benchProductId(app.dbFile)}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const page = await browser.newPage();
const assets: Array<{ kind: 'js' | 'css' | 'html'; url: string; transfer: number; raw: number; gzip: number; encoding: string }> = [];
page.on('response', async (response) => {
  const type = response.request().resourceType();
  const kind = type === 'script' ? 'js' : type === 'stylesheet' ? 'css' : type === 'document' ? 'html' : null;
  if (!kind) return;
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
});
await page.goto(url, { waitUntil: 'networkidle' });
await browser.close();
app.child.kill('SIGTERM');

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
for (const kind of ['html', 'js', 'css'] as const) {
  const own = assets.filter((a) => a.kind === kind);
  const sum = (pick: (a: (typeof own)[number]) => number) => own.reduce((total, a) => total + pick(a), 0);
  console.log(
    `${kind.padEnd(4)} ${String(own.length).padStart(2)} files: downloaded ${kb(sum((a) => a.transfer)).padStart(10)} (${[...new Set(own.map((a) => a.encoding))].join('/')}), gzip ${kb(sum((a) => a.gzip)).padStart(10)}, uncompressed ${kb(sum((a) => a.raw)).padStart(10)}`,
  );
}
process.exit(0);
